#!/usr/bin/env python3
"""Writes Tests/Malformed/: hostile or broken inputs, each with the exact
error `hark` must give (Tests/Malformed/cases.tsv, checked by
HarkTests.MalformedInputTests).

  wav/*.wav            read by `hark audio-info FILE`
  apps-*/<App>/...     an apps folder with one broken app, read by `hark apps list --apps DIR`
  grammar-*/<App>/...  an app whose grammar is broken, compiled by `hark export jsgf --apps DIR`
  replay/*.wav         a turn `hark replay FILE` must refuse before decoding it
  rhino/*.yaml         a Rhino context `hark import rhino FILE --out DIR` must refuse

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


def binary_plist(objects, top=0):
    """A binary plist of pre-encoded objects (1-byte offsets and refs)."""
    offsets, body = [], b""
    for o in objects:
        offsets.append(8 + len(body))
        body += o
    size = 1 if 8 + len(body) < 256 else 2
    table = b"".join(o.to_bytes(size, "big") for o in offsets)
    trailer = b"\0" * 6 + bytes([size, 1]) + struct.pack(">QQQ", len(objects), top, 8 + len(body))
    return b"bplist00" + body + table + trailer


def deep_binary_plist(depth):
    """{CFBundleName: Deep, X: [[[...[]...]]]} nested `depth` arrays deep."""
    # 0: dict, 1: key CFBundleName, 2: "Deep", 3: key X, 4..: arrays, each holding the next.
    objects = [b"\xd2\x01\x03\x02\x04", b"\x5cCFBundleName", b"\x54Deep", b"\x51X"]
    for i in range(depth):
        last = i == depth - 1
        objects.append(b"\xa0" if last else b"\xa1" + bytes([4 + i + 1]))
    assert len(objects) < 256
    return binary_plist(objects)


def cyclic_binary_plist():
    """{CFBundleName: Loop, X: [<itself>]}: an array that contains itself."""
    objects = [b"\xd2\x01\x03\x02\x04", b"\x5cCFBundleName", b"\x54Loop", b"\x51X", b"\xa1\x04"]
    return binary_plist(objects)


def huge_length_binary_plist():
    """{CFBundleName: Huge, X: a dictionary declaring 2^63-1 key-value pairs}:
    the length, doubled into references, overflowed the nesting check
    (found by the plist fuzzer)."""
    objects = [b"\xd2\x01\x03\x02\x04", b"\x5cCFBundleName", b"\x54Huge", b"\x51X",
               b"\xdf\x13" + (2**63 - 1).to_bytes(8, "big")]
    return binary_plist(objects)


def doubling_grammar(levels):
    """Rules that each use the next twice: 2^levels sentences from a few hundred bytes."""
    lines = [f"rule d{i} = <d{i + 1}> <d{i + 1}>" for i in range(levels)] + [f"rule d{levels} = yes | no"]
    return "\n".join(lines) + "\nintent INSendMessageIntent:\n    send <d0>\n"


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

    # Round two (issue 18): inputs that are small but explode, or that reach the terminal.
    app("apps-deep-xml-plist", b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>CFBundleName</key><string>Deep</string><key>X</key>'
        + b"<array>" * 10_000 + b"</array>" * 10_000 + b"</dict></plist>\n")
    app("apps-deep-binary-plist", deep_binary_plist(200))
    app("apps-cyclic-binary-plist", cyclic_binary_plist())
    app("apps-huge-length-binary-plist", huge_length_binary_plist())
    app("apps-deep-strings", GOOD, strings="\"CFBundleDisplayName\" = " + "(" * 10_000 + ")" * 10_000 + ";\n")
    app("apps-bidi-display-name", dict(GOOD, CFBundleDisplayName="Monkey\u202ePay"))
    app("apps-zero-width-alternative-name", dict(GOOD, INAlternativeAppNames=[{"INAlternativeAppName": "Monkey\u200bPay"}]))
    # XML cannot hold these characters; a binary plist can.
    app("apps-escape-display-name", plistlib.dumps(dict(GOOD, CFBundleDisplayName="x\x1b]0;pwned\x07\nhark: error: forged"), fmt=plistlib.FMT_BINARY))
    app("apps-escape-localized-name", GOOD, strings='"CFBundleDisplayName" = "Clear\\U001b[2J";\n')
    app("apps-control-vocabulary", GOOD, vocabulary={"ParameterVocabularies": [{
        "ParameterNames": ["INSendMessageIntent.recipients"],
        "ParameterVocabulary": [{"VocabularyItemIdentifier": "x", "VocabularyItemSynonyms": [{"VocabularyItemPhrase": "Bo\u202ebo"}]}]}]})
    # A second app taking the first one's name as its display name.
    app("apps-same-display-name", dict(GOOD, CFBundleName="MonkeyPay"), name="MonkeyPay")
    app("apps-same-display-name", dict(GOOD, CFBundleName="Impostor", CFBundleDisplayName="MonkeyPay"), name="Impostor")
    app("grammar-doubling-22-levels", GOOD, grammar=doubling_grammar(22))
    app("grammar-doubling-40-levels", GOOD, grammar=doubling_grammar(40))
    # Six any-order parts, each a list of 2,000 values used twice: lists × any order.
    big = " | ".join(f"w{i}" for i in range(2000))
    app("grammar-any-order-lists", GOOD, grammar=f"rule v = {big}\nrule p = <v> <v>\nintent INSendMessageIntent:\n    send (<p> & <p> & <p> & <p> & <p> & <p>)\n")
    app("grammar-rule-chain-60", GOOD, grammar="".join(f"rule r{i} = <r{i + 1}>\n" for i in range(60)) + "rule r60 = end\nintent INSendMessageIntent:\n    send <r0>\n")
    app("grammar-crlf-error", GOOD, grammar="intent INSendMessageIntent:\r\n    send a message\r\n    send (a | the message\r\n")
    app("grammar-escape-in-error", GOOD, grammar="intent INSendMessageIntent:\n    send \x1b[2J message\n")
    write("grammar-directory/Broken/Info.plist", plistlib.dumps(GOOD))
    write("grammar-directory/Broken/Broken.hark/README", "A folder whose name ends in .hark, where a grammar file is expected.\n")
    # WAV: a missing pad byte after an odd chunk; turns replay must refuse from the header.
    fmt = struct.pack("<HHIIHH", 1, 1, 16000, 32000, 2, 16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt + b"LIST" + struct.pack("<I", 3) + b"abc" + b"data" + struct.pack("<I", 100) + b"\0" * 100
    write("wav/missing-pad-byte.wav", b"RIFF" + struct.pack("<I", len(body)) + body)
    wav("../replay/63-hz", rate=63, data=b"\1\0" * 20_000)
    wav("../replay/1-mhz", rate=1_000_000, data=b"\0\0" * 100)
    wav("../replay/500-khz", rate=500_000, data=b"\0\0" * 100)
    # Rhino contexts.
    lines = ["context:", "  expressions:", '    grow: ["go @d0"]', "  macros:"]
    lines += [f'    d{i}: ["@d{i + 1} @d{i + 1}"]' for i in range(40)] + ["    d40: [a, b]"]
    write("rhino/doubling-macros.yaml", "\n".join(lines) + "\n")
    laughs = ["context:", "  macros:", "    a: &a [x, x, x, x, x, x, x, x, x, x]"]
    laughs += [f"    {chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 10) + "]" for i in range(1, 9)]
    write("rhino/billion-laughs.yaml", "\n".join(laughs) + "\n  expressions:\n    go: [go]\n")
    write("rhino/deep-nesting.yaml", "context: " + "[" * 10_000 + "]" * 10_000 + "\n")
    write("rhino/unknown-builtin.yaml", 'context:\n  expressions:\n    paint:\n      - "paint it $pv.Colour:colour"\n')
    write("rhino/escape-in-error.yaml", "context:\n  expressions:\n    go:\n      - \"go \x1b[2J\"\n")


if __name__ == "__main__":
    main()
