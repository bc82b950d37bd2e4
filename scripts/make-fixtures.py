#!/usr/bin/env python3
"""Synthesises Hark's canonical audio fixtures and their manifest.

Each case is spoken by several voices (espeak-ng and flite, at more than one
rate) into audio-fixtures/<voice>/<id>.wav as 16 kHz mono 16-bit WAV, and
described by one line of audio-fixtures/manifest.jsonl:
  {"audio": path relative to the manifest, "text", "app", "intent", "slots"}
Conversations (several turns) list one line per turn with "conversation" and
"turn" keys; "slots" then describe the state after that turn.

Usage: scripts/make-fixtures.py   (needs espeak-ng, flite and sox)
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "audio-fixtures")

# Voices: (folder, synthesiser command builder). Text is passed as an
# argument list, never through a shell.
VOICES = {
    "espeak-us": lambda text, out: ["espeak-ng", "-v", "en-us", "-s", "160", "-w", out, text],
    "espeak-gb": lambda text, out: ["espeak-ng", "-v", "en-gb", "-s", "150", "-w", out, text],
    "flite-slt": lambda text, out: ["flite", "-voice", "slt", "-t", text, "-o", out],
    "flite-rms": lambda text, out: ["flite", "-voice", "rms", "-t", text, "-o", out],
}

MSG = "INSendMessageIntent"
CASES = [
    # id, text, app, intent, slots
    ("monkeychat-send-bobo-bananas",
     "Send a message to Bobo on MonkeyChat saying please send more bananas",
     "MonkeyChat", MSG, {"recipients": "Bobo", "content": "please send more bananas"}),
    ("monkeychat-verb-bobo-bananas",
     "MonkeyChat Bobo please send more bananas",
     "MonkeyChat", MSG, {"recipients": "Bobo", "content": "please send more bananas"}),
    ("monkeychat-little-bobo",
     "Send a text to Little Bobo on MonkeyChat saying see you at the tree",
     "MonkeyChat", MSG, {"recipients": "Little Bobo", "content": "see you at the tree"}),
    ("monkeychat-bobo-great",
     "Tell Bobo the Great on MonkeyChat that was a great banana",
     "MonkeyChat", MSG, {"recipients": "Bobo the Great", "content": "that was a great banana"}),
]

# Multi-turn conversations: (id, [(text, app, intent, slots after the turn, code)])
CONVERSATIONS = [
    ("monkeychat-ask-content", [
        ("Send a message to Bobo on MonkeyChat", "MonkeyChat", MSG, {"recipients": "Bobo"}, "prompt"),
        ("Please send more bananas", "MonkeyChat", MSG,
         {"recipients": "Bobo", "content": "please send more bananas"}, "success"),
    ]),
]


def synthesise(voice, text, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.wav")
        subprocess.run(VOICES[voice](text, raw), check=True, stdout=subprocess.DEVNULL)
        # 0.4 s of silence either side, as a person leaves around a command.
        subprocess.run(["sox", raw, "-r", "16000", "-c", "1", "-b", "16", path,
                        "pad", "0.4", "0.4"], check=True)


def main():
    lines = []
    for voice in VOICES:
        for case_id, text, app, intent, slots in CASES:
            rel = f"{voice}/{case_id}.wav"
            synthesise(voice, text, os.path.join(ROOT, rel))
            lines.append({"audio": rel, "text": text, "app": app, "intent": intent,
                          "slots": slots, "voice": voice})
        for conv_id, turns in CONVERSATIONS:
            for n, (text, app, intent, slots, code) in enumerate(turns, 1):
                rel = f"{voice}/{conv_id}-{n}.wav"
                synthesise(voice, text, os.path.join(ROOT, rel))
                lines.append({"audio": rel, "text": text, "app": app, "intent": intent, "slots": slots,
                              "voice": voice, "conversation": f"{voice}/{conv_id}", "turn": n, "code": code})
    with open(os.path.join(ROOT, "manifest.jsonl"), "w") as f:
        for line in lines:
            f.write(json.dumps(line, sort_keys=True) + "\n")
    print(f"wrote {len(lines)} fixtures to {os.path.normpath(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
