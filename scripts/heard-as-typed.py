#!/usr/bin/env python3
"""A spoken bench's heard texts as a typed development set.

    python3 scripts/heard-as-typed.py [--rejected] REPORT.json OUT.jsonl
    hark bench --typed OUT.jsonl --report DIR

Reads the `results` of a `hark bench` report on recordings (e.g. the
spoken development sets, scripts/make-spoken-requests.py) and writes each
distinct heard text once, labelled with what the recording was meant to
be: its intent and values, or `out-of-domain` for a sentence meant for
nobody. `hark bench --typed` then reads the texts through the same text
stage a recognition's text goes through, without the recognizer: a change
to how text is read (the grammars' text parser, the assistant's rules) is
measured on what was heard in seconds instead of decoding every recording
again. Recognition itself does not change, so compare two binaries on the
same OUT.jsonl. (The app is left out: a report on recordings does not keep
it; a reading is compared on its intent and values.)

With --rejected, the texts are instead the readings the recognizer cleared
(each result's `rejection.reading`), and each line's `set` is the reason
("unsure", "forced", ..., with "nobody: " before it for a sentence meant for
nobody): what taking back each kind of rejection would let through, in
requests read right and sentences for nobody acted on.
"""
import json
import sys


def main():
    args = sys.argv[1:]
    rejected = "--rejected" in args
    args = [a for a in args if a != "--rejected"]
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    source, target = args
    try:
        results = json.load(open(source))["results"]
    except (OSError, ValueError, KeyError) as error:
        sys.exit(f"heard-as-typed: cannot read a bench report's results from {source}: {error}")
    seen = set()
    with open(target, "w") as out:
        for result in results:
            intent = result.get("expected_intent")
            if rejected:
                rejection = result.get("rejection") or {}
                heard, reason = rejection.get("reading"), rejection.get("reason", "")
                group = reason if intent else "nobody: " + reason
            else:
                heard, group = result.get("heard"), "requests" if intent else "out-of-domain"
            if not heard or (heard, intent) in seen:
                continue
            seen.add((heard, intent))
            out.write(json.dumps({"text": heard, "app": None, "intent": intent, "slots": result.get("expected_slots") or {},
                                  "set": group}) + "\n")
    what = "rejected readings" if rejected else "heard texts"
    print(f"heard-as-typed: {len(seen)} distinct {what} of {len(results)} results in {target}")


if __name__ == "__main__":
    main()
