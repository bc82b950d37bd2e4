#!/usr/bin/env python3
"""Installs RNNoise (Xiph's recurrent-network noise suppressor, BSD licence)
for Hark's front end: the shared library built by the `pyrnnoise` wheel on
PyPI (Debian has no package of it), pinned by version and SHA-256.

  scripts/install-rnnoise.py [DEST]

DEST defaults to /usr/local/lib/hark/librnnoise.so as root, else
~/.local/lib/hark/librnnoise.so -- the places Hark looks (after
$HARK_RNNOISE_LIBRARY). Does nothing when DEST already holds the pinned
library. Uses only Python's standard library.
"""
import hashlib
import html
import io
import os
import platform
import re
import sys
import time
import urllib.parse
import urllib.request
import zipfile

VERSION = "0.4.5"
# The wheel and the library inside it, per machine.
PINNED = {
    "x86_64": ("pyrnnoise-0.4.5-py3-none-manylinux1_x86_64.whl",
               "c095114532f9fa21f621084c879d72c93aaa0c9dbe38b662a63577bada2c214e",
               "de5120abce147a72ba343296744ae7cc0a97298e19307c7d3f01cce8c34b18ff"),
    # 64-bit Arm (a Raspberry Pi 4/5 on a 64-bit OS); hashes from
    # `pip download --no-deps --platform manylinux2014_aarch64 --only-binary=:all: pyrnnoise==0.4.5`.
    "aarch64": ("pyrnnoise-0.4.5-py3-none-manylinux2014_aarch64.whl",
                "4b382d39b4963d38c8fe2f61639f634a5de0dd7dc731aca7ff1df48f9b1424cf",
                "c7f34a5944f385721f89b7be21b9ae8eb67e3085da2571260a46e1c9fc61d90a"),
}
MEMBER = f"pyrnnoise-{VERSION}.data/purelib/pyrnnoise/librnnoise.so"


def fetch(url, timeout):
    """The bytes at url, trying three times (a dropped connection is not a reason to fail set-up)."""
    for attempt in range(3):
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                return response.read()
        except OSError as error:
            if attempt == 2:
                sys.exit(f"install-rnnoise: cannot fetch {url} ({error}); check the network, or run Hark with --denoise off")
            time.sleep(5 * (attempt + 1))


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def main():
    default = "/usr/local/lib/hark/librnnoise.so" if os.geteuid() == 0 else os.path.expanduser("~/.local/lib/hark/librnnoise.so")
    dest = sys.argv[1] if len(sys.argv) > 1 else default
    machine = platform.machine()
    if machine not in PINNED:
        # Not fatal: Hark's default, --denoise auto, runs without it (and says so once).
        print(f"install-rnnoise: no pinned RNNoise build for {machine}; Hark will run without noise suppression. "
              f"To have it, build xiph/rnnoise as {dest} (or set HARK_RNNOISE_LIBRARY)", file=sys.stderr)
        return
    wheel, wheel_hash, library_hash = PINNED[machine]
    if os.path.exists(dest):
        with open(dest, "rb") as f:
            if sha256(f.read()) == library_hash:
                return
    # PyPI's simple index (PEP 503), the one pip reads: a link per file.
    index = fetch("https://pypi.org/simple/pyrnnoise/", 60).decode()
    links = [urllib.parse.urljoin("https://pypi.org/simple/pyrnnoise/", html.unescape(h)) for h in re.findall(r'href="([^"]+)"', index)]
    url = next((u for u in links if urllib.parse.urlparse(u).path.endswith("/" + wheel)), None)
    if url is None:
        sys.exit(f"install-rnnoise: PyPI has no {wheel}")
    print(f"install-rnnoise: downloading {wheel}", file=sys.stderr)
    data = fetch(url, 300)
    if sha256(data) != wheel_hash:
        sys.exit(f"install-rnnoise: {wheel} does not have the pinned SHA-256 {wheel_hash}; not installed")
    library = zipfile.ZipFile(io.BytesIO(data)).read(MEMBER)
    if sha256(library) != library_hash:
        sys.exit(f"install-rnnoise: {MEMBER} does not have the pinned SHA-256; not installed")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    temporary = dest + ".partial"
    with open(temporary, "wb") as f:
        f.write(library)
    os.chmod(temporary, 0o644)
    os.replace(temporary, dest)
    print(f"install-rnnoise: installed {dest}", file=sys.stderr)


if __name__ == "__main__":
    main()
