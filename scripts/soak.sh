#!/usr/bin/env bash
# Soak: `hark listen` on a long stream of spoken requests, memory watched.
#
#   scripts/soak.sh [SECONDS] [HARK] [NOISE]
#       default: 3600 s of audio, .build/release/hark,
#       ../shared/benchmarks/barista-dev/kitchen-noise.wav when it is there
#
# Builds a stream of raw 16 kHz mono PCM from the audio fixtures (each
# followed by 1.5 s of silence, over and over until SECONDS of audio; every
# third request with an excerpt of NOISE mixed in at 12 dB SNR, so the noise
# suppressor and the whole-utterance path run too, the rest streamed), pipes
# it into `hark listen --device - --playback none --json` with a fresh data
# folder, samples the process's resident memory every 5 s, and prints the
# utterances in the stream, the turns Hark answered, resident memory at the
# first answer and at the end, the run's peak, and the memory of a fresh
# `hark listen` on the data the soak left. Exits non-zero if a turn is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3600}
hark=${2:-.build/release/hark}
noise=${3:-../shared/benchmarks/barista-dev/kitchen-noise.wav}
[ -f "$noise" ] || noise=""
work=$(mktemp -d /tmp/hark-soak.XXXXXX)
trap 'rm -rf "$work"' EXIT
utterances=$(PYTHONPATH=scripts python3 - "$seconds" "$work/stream.raw" "$noise" "$work/first.raw" <<'PY'
import json, sys
from noise_mix import Mixer, read_pcm
seconds, out, noise_path, first = float(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
lines = [json.loads(l) for l in open("audio-fixtures/manifest.jsonl")]
clips = [read_pcm("audio-fixtures/" + line["audio"]) for line in lines if line.get("set") in ("core", "domains")]
mixer = Mixer(read_pcm(noise_path), seed=1234) if noise_path else None
silence = b"\0\0" * 24000
total, count = 0, 0
with open(out, "wb") as f:
    while total < seconds * 32000:
        for clip in clips:
            if mixer is not None and count % 3 == 2:
                clip = mixer.mix(clip, 12)
            f.write(clip + silence)
            if count < 2:  # the stream's first two requests, for the fresh process after the soak
                with open(first, "ab") as g:
                    g.write(clip + silence)
            total += len(clip) + len(silence)
            count += 1
            if total >= seconds * 32000:
                break
print(count)
PY
)
echo "soak: $(python3 -c "print(round($(stat -c %s "$work/stream.raw")/32000))") s of audio, $utterances utterances${noise:+ (every third with $noise at 12 dB SNR)}" >&2
"$hark" listen --device - --playback none --json --data-dir "$work/data" < "$work/stream.raw" > "$work/turns.jsonl" 2> "$work/listen.err" &
pid=$!
: > "$work/rss"
# RSS every 5 s; the high-water mark (VmHWM) every 0.2 s, which the samples
# miss: the last one read before the process ends is the run's peak.
tick=0 peak=0
while kill -0 "$pid" 2>/dev/null; do
  status=$(cat "/proc/$pid/status" 2>/dev/null || true)
  hwm=$(awk '/VmHWM/ {print $2}' <<< "$status")
  [ -n "$hwm" ] && peak=$hwm
  if [ $((tick % 25)) -eq 0 ]; then
    rss=$(awk '/VmRSS/ {print $2}' <<< "$status")
    [ -n "$rss" ] && echo "$rss $(grep -c '"heard"' "$work/turns.jsonl" || true)" >> "$work/rss"
  fi
  tick=$((tick + 1))
  sleep 0.2
done
wait "$pid" || { echo "soak: hark listen failed: $(tail -3 "$work/listen.err")" >&2; exit 1; }
turns=$(grep -c '"heard"' "$work/turns.jsonl" || true)
# Without a wake phrase, an utterance with no word of the grammar is heard and deliberately not answered.
unheard=$(grep -c 'not answered)' "$work/listen.err" || true)
python3 - "$work/rss" "$turns" "$utterances" "$peak" <<'PY'
import sys
samples = [tuple(int(x) for x in line.split()) for line in open(sys.argv[1]) if len(line.split()) == 2]
turns, utterances = int(sys.argv[2]), int(sys.argv[3])
# Memory is compared from the first answered turn (models and grammar loaded) to the end.
answered = [(rss / 1024, n) for rss, n in samples if n > 0]
if answered:
    first, last = answered[0], answered[-1]
    print(f"soak: {utterances} utterances, {turns} turns answered; resident memory {first[0]:.0f} MiB after turn {first[1]}, "
          f"{last[0]:.0f} MiB after turn {last[1]}, {max(r for r, _ in answered):.0f} MiB at most ({len(answered)} samples); "
          f"peak {int(sys.argv[4]) / 1024:.0f} MiB (VmHWM)")
else:
    print(f"soak: {utterances} utterances, {turns} turns answered")
PY
[ "$unheard" -eq 0 ] || echo "soak: $unheard utterances had no word Hark knows and were not answered"
# What the session's data costs, apart from the session: a fresh `hark
# listen` on a copy of the data the soak left (the tasks, notes, lists and
# messages its requests added, all in the grammar and the stores), heard on
# the stream's first two requests. Near the soak's end, the growth is the
# data; far below it, the session kept something.
if [ "$turns" -gt 0 ]; then
  cp -a "$work/data" "$work/data-fresh"
  mkfifo "$work/fresh.in"
  "$hark" listen --device - --playback none --json --data-dir "$work/data-fresh" < "$work/fresh.in" > "$work/fresh.jsonl" 2> "$work/fresh.err" &
  fresh=$!
  exec 3> "$work/fresh.in"
  cat "$work/first.raw" >&3
  # Both requests heard (answered or not), or a minute: then its memory, then the end of its input.
  for _ in $(seq 600); do
    heard=$(( $(grep -c '"heard"' "$work/fresh.jsonl" || true) + $(grep -c 'not answered)' "$work/fresh.err" || true) ))
    [ "$heard" -ge 2 ] && break
    kill -0 "$fresh" 2>/dev/null || break
    sleep 0.1
  done
  status=$(cat "/proc/$fresh/status" 2>/dev/null || true)
  exec 3>&-
  wait "$fresh" || true
  echo "soak: a fresh hark listen on the data the soak left: $(awk '/VmRSS/ {printf "%d", $2 / 1024}' <<< "$status") MiB after its 2 requests, peak $(awk '/VmHWM/ {printf "%d", $2 / 1024}' <<< "$status") MiB"
fi
[ $((turns + unheard)) -ge "$utterances" ] || { echo "soak: $((utterances - turns - unheard)) utterances were lost" >&2; exit 1; }
