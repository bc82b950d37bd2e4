#!/usr/bin/env bash
# Installs what Hark needs to build and run: the Debian packages, and RNNoise.
#
#   scripts/setup.sh          # building and running Hark
#   scripts/setup.sh --test   # also the tools the tests and fixtures use
#                             # (what `make test` runs)
#
# Idempotent: does nothing when everything is already installed; otherwise
# runs `apt-get update` once and installs what is missing.
set -euo pipefail

packages=(
  # recognition: pocketsphinx 0.8+5prealpha, its en-us model, and the CLI
  # tools `hark bench --baseline pocketsphinx` runs
  libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us pocketsphinx
  # audio in and out (alsa-utils: `arecord -L` lists the devices)
  libasound2-dev alsa-utils libsamplerate0-dev
  # speech synthesis (C API and its voices)
  libespeak-ng-dev espeak-ng
  # QR codes for INGetVisualCodeIntent
  libqrencode-dev
  # YAML for `hark import rhino` (Picovoice Rhino contexts)
  libyaml-dev
  # the tool's malloc (Sources/HarkAllocator)
  libjemalloc-dev
  pkg-config
  # drops the shared libraries the release tool links statically or never uses (Makefile, build)
  patchelf
  # RNNoise's installer
  python3
)

test_packages=(
  # the out-of-grammar test clips
  pocketsphinx-testdata
  # the voices fixtures are made with
  flite festival festvox-kallpc16k
  # converting and checking audio
  sox libsox-fmt-base
  # rendering the benchmark's SVG plot in its test
  librsvg2-bin
)

case "${1:-}" in
  --test) packages+=("${test_packages[@]}") ;;
  "") ;;
  *) echo "setup: unknown option '$1' (use --test for the test tools too)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Noise suppression in front of the recognizer: RNNoise, which Debian does not
# package, from PyPI's pyrnnoise wheel, pinned by SHA-256 (Python's standard
# library only). On a machine with no pinned build Hark runs without it.
python3 "$(dirname "$0")/install-rnnoise.py"

# The n-gram model that reads free text, pruned from Debian's and cut to the
# words the n-gram pass knows (27 MB resident -> 18 MB, and 6 MB less with
# the words cut, docs/measurements.md, "Memory"):
# models/dictation/language-model.lm.bin, made again when Debian's model, the
# script or the word lists in models/dictation change. Pruning
# takes about 1.6 GB of memory for half a minute; where that fails Hark uses
# Debian's whole model, and says so here.
python3 "$(dirname "$0")/prune-lm.py" || echo "setup: the n-gram model was not pruned (above); Hark reads free text with Debian's whole model" >&2
