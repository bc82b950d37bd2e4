#!/usr/bin/env bash
# Out-of-grammar rejection against in-grammar acceptance, per threshold.
#
#   scripts/rejection.sh [HARK] [THRESHOLD...]   (default: .build/release/hark; off 1e-10 1e-8 1e-6)
#
# Out-of-grammar audio: the ten librivox and cards clips and the four raw
# clips of Debian's pocketsphinx-testdata, five 3-second slices of
# barista-dev's kitchen noise, 3 s of silence (all read from where they are,
# converted in a temporary folder), and the fixtures' out-of-grammar
# sentences. For each --rejection threshold it prints, for the Barista app
# (models/benchmark-apps) and for the sample apps (models/apps, with
# MonkeyChat's free-text message content), the false-accept rate on that
# audio next to command acceptance on in-grammar audio (barista-dev clean;
# the fixtures' in-grammar lines).
set -euo pipefail
cd "$(dirname "$0")/.."
hark=${1:-.build/release/hark}
shift || true
thresholds=("$@")
[ ${#thresholds[@]} -gt 0 ] || thresholds=(off 1e-10 1e-8 1e-6)
barista=../shared/benchmarks/barista-dev
testdata=/usr/share/pocketsphinx/test/data
for need in "$barista/labels.json" "$barista/kitchen-noise.wav" "$testdata/librivox"; do
  [ -e "$need" ] || { echo "rejection: $need is missing (barista-dev under ../shared, Debian's pocketsphinx-testdata: scripts/setup.sh)" >&2; exit 1; }
done
work=$(mktemp -d /tmp/hark-rejection.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The out-of-grammar manifest.
{
  for f in "$testdata"/librivox/*.wav "$testdata"/cards/*.wav; do
    printf '{"audio": "%s", "intent": null}\n' "$f"
  done
  for f in "$testdata"/*.raw "$testdata"/tidigits/*.raw; do
    [ -e "$f" ] || continue
    out="$work/$(basename "$f" .raw).wav"
    sox -q -t raw -r 16000 -e signed -b 16 -c 1 "$f" "$out"
    printf '{"audio": "%s", "intent": null}\n' "$out"
  done
  for start in 5 29 53 77 101; do
    out="$work/kitchen-$start.wav"
    sox -q "$barista/kitchen-noise.wav" -r 16000 -c 1 -b 16 "$out" trim "$start" 3
    printf '{"audio": "%s", "intent": null}\n' "$out"
  done
  sox -q -n -r 16000 -c 1 -b 16 "$work/silence.wav" trim 0 3
  printf '{"audio": "%s", "intent": null}\n' "$work/silence.wav"
  python3 - "$PWD/audio-fixtures" <<'PY'
import json, sys
folder = sys.argv[1]
for line in open(folder + "/manifest.jsonl"):
    entry = json.loads(line)
    if entry["intent"] is None:
        print(json.dumps({"audio": folder + "/" + entry["audio"], "intent": None}))
PY
} > "$work/oog.jsonl"
python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1]) if l.strip()]" "$work/oog.jsonl"
grep -v '"intent": null' audio-fixtures/manifest.jsonl > "$work/fixtures-in-grammar.jsonl"
sed -i "s#\"audio\": \"#\"audio\": \"$PWD/audio-fixtures/#" "$work/fixtures-in-grammar.jsonl"
oog=$(grep -c . "$work/oog.jsonl")

figure() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]+'/report.json')); v=r[sys.argv[2]]; print('%.1f%%' % (100*v))" "$1" "$2"; }
bench() { "$hark" bench --jobs 2 "$@" > /dev/null 2> "$work/bench.log" || { tail -5 "$work/bench.log" >&2; exit 1; }; }

echo "| --rejection | Barista: barista-dev clean command acceptance | Barista: false accepts on $oog out-of-grammar clips | sample apps: fixtures' command acceptance | sample apps: false accepts |"
echo "|---|---|---|---|---|"
for t in "${thresholds[@]}"; do
  bench --labels "$barista/labels.json" --audio-dir "$barista/audio" --apps models/benchmark-apps --rejection "$t" --report "$work/b-in"
  bench "$work/oog.jsonl" --apps models/benchmark-apps --rejection "$t" --report "$work/b-out"
  bench "$work/fixtures-in-grammar.jsonl" --rejection "$t" --report "$work/s-in"
  bench "$work/oog.jsonl" --rejection "$t" --report "$work/s-out"
  echo "| $t | $(figure "$work/b-in" command_acceptance) | $(figure "$work/b-out" false_accept_rate) | $(figure "$work/s-in" command_acceptance) | $(figure "$work/s-out" false_accept_rate) |"
done
