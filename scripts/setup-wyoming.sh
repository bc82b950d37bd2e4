#!/bin/sh
# Python virtual environments with the Wyoming project's own client library
# and satellite, for the `hark serve` tests and scripts/serve-load.py.
# Idempotent: when the pinned versions are already there it only checks them.
#   .venv-wyoming/            wyoming 1.10.2 (the newest client library)
#   .venv-wyoming-satellite/  wyoming-satellite 1.0.0 (which pins wyoming 1.4.1)
set -eu
cd "$(dirname "$0")/.."
WYOMING=1.10.2
SATELLITE=1.0.0

ensure() { # ensure VENV PACKAGE==VERSION
    venv=$1; requirement=$2
    if [ -x "$venv/bin/python" ] && "$venv/bin/pip" show "${requirement%%==*}" 2>/dev/null | grep -qx "Version: ${requirement##*==}"; then
        return 0
    fi
    python3 -m venv "$venv" || { echo "setup-wyoming: cannot create $venv; install python3-venv (apt-get install python3-venv)" >&2; exit 1; }
    for try in 1 2 3; do
        if "$venv/bin/pip" install --quiet --disable-pip-version-check "$requirement"; then return 0; fi
        echo "setup-wyoming: pip install $requirement failed (try $try of 3)" >&2
        sleep 2
    done
    echo "setup-wyoming: cannot install $requirement from PyPI; check the network, then run scripts/setup-wyoming.sh again" >&2
    exit 1
}

ensure .venv-wyoming "wyoming==$WYOMING"
ensure .venv-wyoming-satellite "wyoming-satellite==$SATELLITE"
