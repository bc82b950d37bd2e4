#!/usr/bin/env bash
# Peak resident memory of `hark listen`, one utterance per process, over
# every single-turn fixture: each clean, then with kitchen noise at 12 dB
# SNR (the soak's mix), so the figure is not one chosen recording's.
#
#   scripts/listen-peaks.sh [HARK] [NOISE] [OUT.tsv]
#       default: .build/release/hark,
#       ../shared/benchmarks/barista-dev/kitchen-noise.wav when it is there
#
# Each utterance is piped as raw 16 kHz mono PCM, followed by 1.5 s of
# quiet, into `hark listen --device - --playback none --json` with every
# sample app and a fresh data folder; `/usr/bin/time -f %M` gives its peak.
# Two at a time (a process's peak does not depend on the other's). Prints
# min / p50 / p90 / max per condition, KB as `time` gives them, and keeps
# every reading in OUT.tsv (peak KB, condition, fixture).
set -euo pipefail
cd "$(dirname "$0")/.."
hark=${1:-.build/release/hark}
noise=${2:-../shared/benchmarks/barista-dev/kitchen-noise.wav}
out=${3:-}
[ -f "$noise" ] || noise=""
[ -x /usr/bin/time ] || { echo "listen-peaks: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d /tmp/hark-peaks.XXXXXX)
trap 'rm -rf "$work"' EXIT
PYTHONPATH=scripts python3 - "$work" "$noise" <<'PY'
import json, sys
from noise_mix import Mixer, read_pcm
work, noise_path = sys.argv[1], sys.argv[2]
mixer = Mixer(read_pcm(noise_path), seed=1234) if noise_path else None
quiet = b"\0\0" * 24000
for line in map(json.loads, open("audio-fixtures/manifest.jsonl")):
    if line.get("set") not in ("core", "domains"):
        continue
    clip = read_pcm("audio-fixtures/" + line["audio"])
    name = line["audio"].removesuffix(".wav").replace("/", "_")
    open(f"{work}/clean.{name}.raw", "wb").write(clip + quiet)
    if mixer is not None:
        open(f"{work}/noisy.{name}.raw", "wb").write(mixer.mix(clip, 12) + quiet)
PY
export hark work
ls "$work"/*.raw | xargs -P 2 -I{} bash -c '
  f={}; base=$(basename "$f" .raw)
  HARK_DATA_DIR=$(mktemp -d "$work/data.XXXXXX") /usr/bin/time -f "%M" -o "$f.kb" "$hark" listen --device - --playback none --json < "$f" > /dev/null 2> "$f.err" \
    || { echo "listen-peaks: $base: hark listen failed: $(tail -n 3 "$f.err")" >&2; exit 255; }
  kb=$(tail -n 1 "$f.kb")
  grep -Eq "^[0-9]+$" <<< "$kb" || { echo "listen-peaks: $base: no peak from /usr/bin/time: $kb" >&2; exit 255; }
  printf "%s\t%s\t%s\n" "$kb" "${base%%.*}" "${base#*.}"' > "$work/peaks.tsv"
[ -n "$out" ] && sort -n "$work/peaks.tsv" > "$out"
python3 - "$work/peaks.tsv" <<'PY'
import sys
rows = [line.split("\t") for line in open(sys.argv[1]) if line.strip()]
for condition in ("clean", "noisy"):
    kb = sorted(int(r[0]) for r in rows if r[1] == condition)
    if not kb:
        continue
    pick = lambda q: kb[min(len(kb) - 1, int(q * len(kb)))]
    worst = max((r for r in rows if r[1] == condition), key=lambda r: int(r[0]))[2].strip()
    over = sum(1 for k in kb if k * 1024 > 128e6)
    print(f"listen-peaks: {condition}: {len(kb)} utterances, peak KB min {kb[0]:,} / p50 {pick(0.5):,} / p90 {pick(0.9):,} / "
          f"max {kb[-1]:,} ({worst}); over 128 MB: {over}")
PY
