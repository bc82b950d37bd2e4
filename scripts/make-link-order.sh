#!/usr/bin/env bash
# Writes linker/hark.order: the functions of the release `hark` that its
# everyday paths run, in the order they are first run, for the linker to
# lay out together (`make build` passes it to lld as
# --symbol-ordering-file, with every function in its own section).
#
# Why: the kernel maps a binary's code 64 KiB around each page a process
# runs, so the ~1.8 MB of functions `hark listen` runs, scattered through
# 23 MB of code (Hark, the Swift runtime, Foundation), kept 11 MB of it
# resident. Laid out together they keep 5.7 MB: less is not in reach, as
# the Swift standard library and parts of Foundation come compiled as a few
# large sections (the standard library's Swift code is one of 1.6 MB) that
# move whole (docs/measurements.md, "Memory").
#
# The list is read from valgrind's callgrind on a stripped copy of the
# release build: `hark listen` with a message and its read-back answered,
# with one request, `hark replay`, and `hark bench --streaming` on a few
# fixtures. Functions missing from the list (renamed since, or on rarer
# paths) still link and run, in the default place; run this again after
# large changes and commit the result. Needs valgrind (Debian: valgrind)
# and sox; takes a few minutes.
#
#   scripts/make-link-order.sh            # writes linker/hark.order
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind sox python3; do
    command -v "$tool" >/dev/null || { echo "make-link-order: needs $tool (apt-get install $tool)" >&2; exit 1; }
done

make build >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind cannot read the toolchain's debug information; the symbol table is enough.
strip --strip-debug -o "$work/hark" .build/release/hark

raw() { sox "$1" -t raw -r 16000 -c 1 -b 16 -e signed -; }
quiet() { sox -n -t raw -r 16000 -c 1 -b 16 -e signed - trim 0 1.5; }
profile() {
    local name=$1; shift
    HARK_DATA_DIR=$(mktemp -d -p "$work") valgrind --tool=callgrind --demangle=no \
        --callgrind-out-file="$work/$name.callgrind" "$@" >/dev/null 2>"$work/$name.log" \
        || { echo "make-link-order: $name failed; see below" >&2; cat "$work/$name.log" >&2; exit 1; }
}

fixtures=audio-fixtures/flite-rms
{ raw $fixtures/monkeychat-send-bobo-bananas.wav; quiet; raw $fixtures/answer-yes-send-it.wav; quiet; } \
    | profile listen-message "$work/hark" listen --device - --playback none --json
{ raw $fixtures/cancel-ride.wav; quiet; } \
    | profile listen-request "$work/hark" listen --device - --playback none --json
profile replay "$work/hark" replay $fixtures/show-list.wav --json
head -n 4 audio-fixtures/manifest.jsonl | sed "s#\"audio\": \"#\"audio\": \"$PWD/audio-fixtures/#" > "$work/manifest.jsonl"
profile bench "$work/hark" bench "$work/manifest.jsonl" --streaming --jobs 1 --report "$work/report"

# Listening first: the functions only replay and bench run come after all of
# its own, so that they do not spread its pages.
python3 - "$work"/{listen-message,listen-request,replay,bench}.callgrind > linker/hark.order <<'EOF'
"""Functions of the binary named `hark`, in first-run order, profile by
profile in the order given, from callgrind's compressed names
(`fn=(id) name`)."""
import re, sys

order = {}
for path in sys.argv[1:]:
    objects, functions, current = {}, {}, None
    for line in open(path, errors="replace"):
        key, _, rest = line.rstrip("\n").partition("=")
        if key not in ("ob", "fn", "cob", "cfn"):
            continue
        m = re.match(r"\((\d+)\)(?: (.*))?$", rest)
        table = objects if key in ("ob", "cob") else functions
        if m and m.group(2) is not None:
            table[m.group(1)] = m.group(2)
        name = table.get(m.group(1)) if m else rest
        if key == "ob":
            current = name
        elif key == "fn" and current and current.endswith("/hark"):
            # callgrind marks recursion depth ("f'2"); addresses are unnamed code.
            name = re.sub(r"'\d+$", "", name)
            if not name.startswith("0x"):
                order.setdefault(name, None)
print("\n".join(order))
EOF
echo "make-link-order: $(wc -l < linker/hark.order) functions in linker/hark.order"
