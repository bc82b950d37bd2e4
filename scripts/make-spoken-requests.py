#!/usr/bin/env python3
"""Speaks the natural-request development sets, for `hark bench`.

The typed sets (models/dev/*.jsonl) say how much of the way people talk the
grammars cover; this says how much of it the recognizer then hears. Every
request of the files given (every file in models/dev by default) is spoken
by one synthetic voice, the voices taken in turn within each file, and written with its
labels:

  <out>/<voice>/<file>-<line>.wav  and  <out>/manifest.jsonl

Requests meant for no app ("intent": null) are out-of-grammar clips: the
bench counts each one accepted as a false accept. All requests are kept,
including the few the grammars read only when typed (a "(typed: ...)" part,
such as "write to Bobo on MonkeyChat: ..."): the figure is what a person
saying these requests would get.

  scripts/make-spoken-requests.py [--out DIR] [--voices flite-slt,espeak-us,flite-rms] [FILE ...]
  hark bench DIR/manifest.jsonl --jobs 2 --report DIR/report

(any voice of scripts/make-fixtures.py; needs its synthesisers and sox)
"""
import argparse
import glob
import importlib.util
import json
import os
import tempfile

_spec = importlib.util.spec_from_file_location(
    "make_fixtures", os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-fixtures.py"))
fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fixtures)
VOICES = fixtures.VOICES
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "hark-spoken-requests"))
    parser.add_argument("--voices", default="flite-slt,espeak-us,flite-rms")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    voices = args.voices.split(",")
    for voice in voices:
        if voice not in VOICES:
            raise SystemExit(f"unknown voice {voice!r}: one of {', '.join(VOICES)}")
    files = args.files or sorted(glob.glob(os.path.join(REPO, "models", "dev", "*.jsonl")))

    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            stem = os.path.splitext(os.path.basename(path))[0]
            # The voices take turns within each file, so a batch added
            # later leaves every other recording's voice as it was.
            turn = 0
            with open(path) as f:
                for number, line in enumerate(f, 1):
                    if not line.strip() or line.startswith("#"):
                        continue
                    request = json.loads(line)
                    voice = voices[turn % len(voices)]
                    turn += 1
                    name = f"{voice}/{stem}-{number}.wav"
                    os.makedirs(os.path.join(args.out, voice), exist_ok=True)
                    # 0.4 s of silence either side, as a person leaves around a command.
                    fixtures.speak_trimmed(voice, request["text"], os.path.join(args.out, name), tmp, pad=0.4)
                    in_domain = request.get("intent") is not None
                    lines.append({
                        "app": request.get("app") if in_domain else None,
                        "audio": name,
                        "intent": request.get("intent"),
                        "set": stem if in_domain else "out-of-grammar",
                        "slots": request.get("slots", {}) if in_domain else {},
                        "text": request["text"],
                        "voice": voice,
                    })
    fixtures.write_manifest(os.path.join(args.out, "manifest.jsonl"), lines)
    print(f"{len(lines)} recordings in {args.out}")


if __name__ == "__main__":
    main()
