#!/usr/bin/env python3
"""Writes Tests/Malformed/: hostile or broken inputs, each with the exact
error `hark` must give (Tests/Malformed/cases.tsv, checked by
HarkTests.MalformedInputTests).

  wav/*.wav            read by `hark audio-info FILE`
  apps-*/<App>/...     an apps folder with one broken app, read by `hark apps list --apps DIR`
  grammar-*/<App>/...  an app whose grammar is broken, compiled by `hark export jsgf --apps DIR`

Usage: scripts/make-malformed.py   (then review cases.tsv's expected errors)
"""
import os
import plistlib
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Malformed")


def wav(name, channels=1, rate=16000, bits=16, tag=1, block_align=None, data=b"\0\0" * 50, data_size=None, riff_size=None, extra=b""):
    block_align = block_align if block_align is not None else channels * bits // 8
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block_align, block_align, bits) + extra
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(data) if data_size is None else data_size) + data
    riff = b"RIFF" + struct.pack("<I", len(body) if riff_size is None else riff_size) + body
    write(f"wav/{name}.wav", riff)


def write(rel, data):
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def app(folder, info, vocabulary=None, grammar=None, strings=None, name="Broken"):
    write(f"{folder}/{name}/Info.plist", plistlib.dumps(info) if isinstance(info, dict) else info)
    if strings is not None:
        write(f"{folder}/{name}/en.lproj/InfoPlist.strings", strings)
    if vocabulary is not None:
        write(f"{folder}/{name}/en.lproj/AppIntentVocabulary.plist", plistlib.dumps(vocabulary))
    if grammar is not None:
        write(f"{folder}/{name}/{name}.hark", grammar)


def binary_set_plist():
    """A binary plist whose top object is a set (marker 0xC1) of one string:
    legal in the format, never written by Xcode, and enough to crash
    Foundation's NSSet bridging on Linux if it ever reaches it."""
    objects = [b"\xc1\x01", b"\x51x"]
    offsets, body = [], b""
    for o in objects:
        offsets.append(8 + len(body))
        body += o
    table = bytes(offsets)
    trailer = b"\0" * 6 + bytes([1, 1]) + struct.pack(">QQQ", len(objects), 0, 8 + len(body))
    return b"bplist00" + body + table + trailer


GOOD = {"CFBundleName": "Broken", "IntentsSupported": ["INSendMessageIntent"]}


def main():
    # WAV
    write("wav/truncated-header.wav", b"RIFF\x24\x00")
    wav("data-past-end", data=b"\0" * 100, data_size=128)
    wav("zero-channels", channels=0)
    wav("65535-channels", channels=65535, block_align=2, data=b"\0" * 64)
    wav("odd-block-align", block_align=3)
    wav("adpcm", tag=2, bits=4, block_align=256)
    wav("mp3-in-wav", tag=0x55, bits=0, block_align=1)
    # 0xFFFFFFFF is what streaming writers put when they cannot seek back: read to the end.
    wav("4gb-data-claim-streaming", data_size=0xFFFFFFFF, riff_size=0xFFFFFFFF)
    wav("3gb-data-claim", data_size=0xC0000000, riff_size=0xC0000024)
    # plists
    app("apps-wrong-type", dict(GOOD, CFBundleName=42))
    app("apps-missing-name", {"IntentsSupported": ["INSendMessageIntent"]})
    app("apps-four-names", dict(GOOD, INAlternativeAppNames=[{"INAlternativeAppName": n} for n in ["One", "Two", "Three", "Four"]]))
    app("apps-unknown-parameter", GOOD, vocabulary={"ParameterVocabularies": [{
        "ParameterNames": ["INSendMessageIntent.flavour"],
        "ParameterVocabulary": [{"VocabularyItemIdentifier": "x", "VocabularyItemSynonyms": [{"VocabularyItemPhrase": "banana"}]}]}]})
    app("apps-huge-name", dict(GOOD, CFBundleDisplayName="Monkey" * 100_000))
    app("apps-not-a-plist", b"\x00\x01garbage")
    # The bundle name names the app's files: it may not climb out of the data folder.
    app("apps-path-name", dict(GOOD, CFBundleName="../../x"))
    # A localised-names file compiled to a binary plist, holding a set instead of a dictionary.
    app("apps-strings-set", GOOD, strings=binary_set_plist())
    # grammars
    app("grammar-unbalanced", GOOD, grammar="intent INSendMessageIntent:\n    send (a | the message\n")
    app("grammar-undefined-rule", GOOD, grammar="intent INSendMessageIntent:\n    send <nope>\n")
    app("grammar-recursive-rule", GOOD, grammar="rule a = x <b>\nrule b = y <a>\nintent INSendMessageIntent:\n    send <a>\n")
    app("grammar-empty-alternative", GOOD, grammar="intent INSendMessageIntent:\n    send (a | ) message\n")
    app("grammar-slot-without-values", GOOD, grammar="slot size: sizes\nlist sizes:\nintent INSendMessageIntent:\n    send a {size} message\n")


if __name__ == "__main__":
    main()
