#!/usr/bin/env bash
# Fuzzes Hark's readers of other people's files with libFuzzer.
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#
# TARGET is wav, plist, grammar, rhino, text, or all; Fuzz/dict/TARGET.dict,
# when present, gives libFuzzer the format's tokens. Inputs that reach new
# code are added to Fuzz/corpus/TARGET (commit the useful ones), or, with
# FUZZ_CORPUS_READONLY=1 (as `make fuzz` runs it), to Fuzz/.build/new-corpus/TARGET
# so the committed corpus stays what the last check started from; a crash,
# hang (over 10 s) or memory blow-up (over 4 GiB) is saved as
# Fuzz/crashes/TARGET-* and the script exits non-zero. It prints each
# target's executions and time. Builds Fuzz/ (every module with
# -sanitize=fuzzer) into Fuzz/.build first.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then echo "usage: scripts/fuzz.sh wav|plist|grammar|rhino|text|all SECONDS [libFuzzer options]" >&2; exit 2; fi
target=$1 seconds=$2
shift 2
# -sanitize=fuzzer on every module, so libFuzzer sees the coverage of the code it fuzzes.
swift build -c release --package-path Fuzz --product hark-fuzz -Xswiftc -sanitize=fuzzer >&2
bin=Fuzz/.build/release/hark-fuzz
if [ "$target" = all ]; then targets=(wav plist grammar rhino text); else targets=("$target"); fi
mkdir -p Fuzz/crashes
for t in "${targets[@]}"; do
  mkdir -p "Fuzz/corpus/$t"
  corpora=("Fuzz/corpus/$t")
  if [ "${FUZZ_CORPUS_READONLY:-0}" = 1 ]; then
    rm -rf "Fuzz/.build/new-corpus/$t" && mkdir -p "Fuzz/.build/new-corpus/$t"
    corpora=("Fuzz/.build/new-corpus/$t" "Fuzz/corpus/$t")
  fi
  # Tokens that reach deep nesting and self-doubling rules (Fuzz/dict/TARGET.dict).
  dict=()
  if [ -f "Fuzz/dict/$t.dict" ]; then dict=(-dict="Fuzz/dict/$t.dict"); fi
  log="Fuzz/.build/fuzz-$t.log"
  started=$SECONDS
  if ! HARK_FUZZ_TARGET="$t" HARK_MODELS=models "$bin" "${corpora[@]}" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=4096 -max_len=65536 -artifact_prefix="Fuzz/crashes/$t-" -print_final_stats=1 "${dict[@]}" "$@" 2> "$log"; then
    # The whole report, from the sanitizer's or libFuzzer's first line.
    start=$(grep -n -m1 -E '==[0-9]+==ERROR|ERROR: libFuzzer|deadly signal|^==[0-9]+== ' "$log" | cut -d: -f1 || true)
    tail -n +"${start:-1}" "$log" | head -n 150 >&2
    echo "fuzz $t: FAILED; the input is in Fuzz/crashes/ (replay: HARK_FUZZ_TARGET=$t $bin FILE)" >&2
    exit 1
  fi
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  secs=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
  echo "fuzz $t: $runs executions in $((SECONDS - started)) s ($secs per second), no crash or hang; corpus $(ls "Fuzz/corpus/$t" | wc -l) files"
done
