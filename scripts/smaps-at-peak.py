#!/usr/bin/env python3
"""Where `hark listen`'s resident memory is at its peak, mapping by mapping.

    python3 scripts/smaps-at-peak.py AUDIO.raw [--hark .build/release/hark] [--top 40] [-- LISTEN OPTIONS]

Pipes AUDIO.raw (16 kHz mono 16-bit PCM; end it with 1.5 s of quiet so
the utterance ends) into `hark listen --device - --playback none --json`
with a fresh data folder, reads /proc/PID/smaps each time VmRSS rises to
a new high, and prints the Rss of that reading summed per mapped file
([anon] for the heap and other anonymous memory), largest first: which
libraries, model files and how much heap the peak holds. The peak found
by polling can miss the true one (VmHWM) by the last fraction of a
millisecond; `/usr/bin/time -f %M` gives that figure.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("audio", help="raw 16 kHz mono 16-bit PCM")
    parser.add_argument("--hark", default=".build/release/hark")
    parser.add_argument("--top", type=int, default=40, help="mappings to print")
    parser.add_argument("listen_options", nargs="*", help="more `hark listen` options, after --")
    args = parser.parse_args()
    try:
        audio = open(args.audio, "rb").read()
    except OSError as error:
        sys.exit(f"smaps-at-peak: cannot read {args.audio}: {error.strerror} (give raw 16 kHz mono 16-bit PCM, e.g. from sox)")
    if not os.access(args.hark, os.X_OK):
        sys.exit(f"smaps-at-peak: no hark at {args.hark} (run `make build`, or pass --hark PATH)")
    env = dict(os.environ, HARK_DATA_DIR=tempfile.mkdtemp(prefix="hark-smaps."))
    process = subprocess.Popen(
        [args.hark, "listen", "--device", "-", "--playback", "none", "--json", *args.listen_options],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)

    def feed():
        try:
            process.stdin.write(audio)
            process.stdin.close()
        except BrokenPipeError:
            pass

    threading.Thread(target=feed, daemon=True).start()
    best, snapshot = 0, None
    while process.poll() is None:
        try:
            status = open(f"/proc/{process.pid}/status").read()
            rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
            if rss > best:
                smaps = open(f"/proc/{process.pid}/smaps").read()
                best, snapshot = rss, smaps
        except (OSError, AttributeError):
            break
    error = process.stderr.read().decode(errors="replace")
    if process.wait() != 0 or snapshot is None:
        sys.exit(f"smaps-at-peak: hark listen failed (exit {process.returncode}): {error.strip()[-500:]}")
    totals, mapping = {}, None
    for line in snapshot.splitlines():
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            fields = line.split()
            mapping = fields[5] if len(fields) > 5 else "[anon]"
        elif line.startswith("Rss:"):
            totals[mapping] = totals.get(mapping, 0) + int(line.split()[1])
    print(f"peak seen: {best:,} KB resident")
    libraries = sum(kb for name, kb in totals.items() if name.startswith(("/usr/lib", "/lib")) and ".so" in name)
    count = sum(1 for name in totals if name.startswith(("/usr/lib", "/lib")) and ".so" in name)
    print(f"shared libraries: {libraries:,} KB in {count}")
    for name, kb in sorted(totals.items(), key=lambda item: -item[1])[:args.top]:
        print(f"{kb:>9,} KB  {name}")


if __name__ == "__main__":
    main()
