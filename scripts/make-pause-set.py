#!/usr/bin/env python3
"""Synthesises a pause test: requests spoken with a pause in the middle.

Grammar-aware endpointing ends an utterance after a short silence once what
was heard is a whole sentence. A person who stops to think in the middle of
a request ("send a message to ... Bobo") must not be cut off there. This
script takes every request of audio-fixtures/manifest.jsonl that Hark should
understand (one turn, not out of grammar), splits its text where people
hesitate (after "to", "a", "the", "my", "in", "on", "with", "for", "from",
"at", "of", "saying", "called", "and", nearest the middle, with at least
one word after it), speaks the two halves separately, and joins them with a
pause of each length given, 0.4 s of silence either side:

  <out>/<voice>/<id>-<pause ms>.wav  and  <out>/manifest.jsonl

with the original labels, so `hark bench <out>/manifest.jsonl --streaming`
reports how many were heard as more than one utterance (`cut`) and whether
the request was still understood.

Usage: scripts/make-pause-set.py [--out DIR] [--pauses 0.5,0.7,0.9] [--voices espeak-us,flite-slt]
(any voice of scripts/make-fixtures.py; needs its synthesisers and sox)
"""
import argparse
import importlib.util
import json
import os
import tempfile

# The fixtures' own voices and folder, from the script that makes them.
_spec = importlib.util.spec_from_file_location(
    "make_fixtures", os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-fixtures.py"))
fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fixtures)
ROOT, VOICES = fixtures.ROOT, fixtures.VOICES
HESITATE_AFTER = {"to", "a", "the", "my", "in", "on", "with", "for", "from", "at", "of", "saying", "called", "and"}


def split_point(words):
    """The word index after which a person would pause, nearest the middle; None if none."""
    places = [i for i, w in enumerate(words[:-1]) if w.lower().strip(",.?!") in HESITATE_AFTER and i >= 1]
    if not places:
        return None
    middle = (len(words) - 1) / 2
    return min(places, key=lambda i: abs(i - middle))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "hark-pause-set"))
    parser.add_argument("--pauses", default="0.5,0.7,0.9", help="pause lengths in seconds, comma separated")
    parser.add_argument("--voices", default="espeak-us,flite-slt")
    args = parser.parse_args()
    pauses = [float(p) for p in args.pauses.split(",")]
    voices = args.voices.split(",")
    for voice in voices:
        if voice not in VOICES:
            raise SystemExit(f"unknown voice {voice!r}: one of {', '.join(VOICES)}")

    seen, requests = set(), []
    with open(os.path.join(ROOT, "manifest.jsonl")) as manifest:
        for line in manifest:
            case = json.loads(line)
            if case.get("intent") is None or "conversation" in case or case["text"] in seen:
                continue
            seen.add(case["text"])
            requests.append(case)

    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in requests:
            words = case["text"].split()
            at = split_point(words)
            if at is None:
                continue
            first, second = " ".join(words[:at + 1]), " ".join(words[at + 1:])
            case_id = os.path.splitext(os.path.basename(case["audio"]))[0]
            for voice in voices:
                os.makedirs(os.path.join(args.out, voice), exist_ok=True)
                a, b = os.path.join(tmp, "a.wav"), os.path.join(tmp, "b.wav")
                fixtures.speak_trimmed(voice, first, a, tmp)
                fixtures.speak_trimmed(voice, second, b, tmp)
                for pause in pauses:
                    name = f"{voice}/{case_id}-{round(pause * 1000)}.wav"
                    fixtures.join_with_pause(a, pause, b, os.path.join(args.out, name), tmp)
                    label = {k: case[k] for k in ("app", "intent", "slots", "text") if k in case}
                    label.update({"audio": name, "voice": voice, "set": "pause", "pause": pause, "pause_after": first})
                    lines.append(label)
    fixtures.write_manifest(os.path.join(args.out, "manifest.jsonl"), lines)
    print(f"{len(lines)} recordings in {args.out}")


if __name__ == "__main__":
    main()
