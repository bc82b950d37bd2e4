#!/usr/bin/env bash
# Installs the Debian packages Hark builds, runs and tests with, and RNNoise.
# Idempotent: does nothing when everything is already installed; otherwise
# runs `apt-get update` once and installs what is missing.
set -euo pipefail

packages=(
  # recognition: pocketsphinx 0.8+5prealpha, its en-us model, the CLI tools
  # the benchmark's stock baseline runs, and the out-of-grammar test clips
  libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us pocketsphinx pocketsphinx-testdata
  # audio in and out
  libasound2-dev alsa-utils libsamplerate0-dev
  # speech synthesis (C API) and the voices fixtures are made with
  libespeak-ng-dev espeak-ng flite festival festvox-kallpc16k
  # QR codes for INGetVisualCodeIntent
  libqrencode-dev
  # YAML for `hark import rhino` (Picovoice Rhino contexts)
  libyaml-dev
  # converting and checking audio
  sox libsox-fmt-base
  pkg-config
  # scripts: RNNoise's installer, the fixture and malformed-input generators
  python3
)

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
# library only).
python3 "$(dirname "$0")/install-rnnoise.py"
