#!/usr/bin/env python3
"""What each sentence of the domain grammars costs and gives.

For every sentence line of every intent in models/domains/*.hark, the
grammars are copied without that one line and measured twice:
  - cost: the lexicon-tree HMM nodes of the grammar search (pocketsphinx's
    "HMM nodes in lextree", from `hark replay` with HARK_POCKETSPHINX_LOG),
    which is what `hark listen` holds in memory for the grammar (about
    0.15 MB per 1,000 nodes);
  - gain: how many requests of the typed development sets (models/dev/*.jsonl)
    stop reading exactly right, and how many sentences for nobody start
    being acted on, without it.

A sentence that costs much and reads nothing no other sentence reads is a
candidate to rewrite or drop; the typed sets only say what was written
down, so read the sentence before dropping it. And a typed request the
grammar no longer reads whole may still be read from a run of its words
(`Assistant.request(inside:)`): "In ListOMat show the grocery list" read
as "ListOMat show the grocery list" when its sentence was dropped, while
the recognizer, which has no such run, then heard it worse in noise
(`hark bench audio-fixtures/manifest.jsonl --noise ... --snr 12`). Check
a drop on the fixtures too.

    python3 scripts/grammar-costs.py --out /tmp/grammar-costs.tsv [--jobs 2]
    python3 scripts/grammar-costs.py --file notes.hark      # one file's sentences

Output: a TSV, one row per sentence: file, line, node saving, requests
lost, false actions gained, the sentence; sorted by node saving.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WAV = os.path.join(ROOT, "audio-fixtures/espeak-us/balance.wav")


def sentence_lines(path):
    """(line index, text) of every sentence inside an `intent` block."""
    lines = open(path).read().split("\n")
    inside = False
    for i, line in enumerate(lines):
        if line.startswith("intent "):
            inside = True
            continue
        if line and not line[0].isspace():
            inside = False
            continue
        if inside and line.strip() and not line.strip().startswith("#"):
            yield i, line


def measure(binary, domains, typed_file):
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as scratch:
        log = os.path.join(scratch, "ps.log")
        env["HARK_POCKETSPHINX_LOG"] = log
        env["HARK_DATA_DIR"] = os.path.join(scratch, "data")
        subprocess.run([binary, "replay", WAV, "--domains", domains], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        nodes = None
        if os.path.exists(log):
            m = re.search(r"(\d+) HMM nodes in lextree", open(log, errors="replace").read())
            nodes = int(m.group(1)) if m else None
        out = subprocess.run([binary, "bench", "--typed", typed_file, "--domains", domains], env=env,
                             capture_output=True, text=True).stdout
    right = re.search(r"read exactly right \(app, intent, values\) \| ([\d.]+)% of (\d+)", out)
    false = re.search(r"false actions or \"Which app\?\" \| ([\d.]+)% of (\d+)", out)
    if nodes is None or not right or not false:
        return None
    return (nodes, round(float(right.group(1)) * int(right.group(2)) / 100),
            round(float(false.group(1)) * int(false.group(2)) / 100))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/release/hark"))
    parser.add_argument("--domains", default=os.path.join(ROOT, "models/domains"))
    parser.add_argument("--file", help="only this grammar file's sentences (e.g. notes.hark)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="hark-grammar-costs-")
    typed = os.path.join(work, "typed.jsonl")
    with open(typed, "w") as out:
        for path in sorted(glob.glob(os.path.join(ROOT, "models/dev/*.jsonl"))):
            for line in open(path):
                if line.strip() and not line.startswith("#"):
                    json.loads(line)
                    out.write(line if line.endswith("\n") else line + "\n")
    base = measure(args.bin, args.domains, typed)
    if base is None:
        sys.exit("grammar-costs: the grammars as they are did not measure; is the release build there?")
    print(f"as they are: {base[0]} nodes, {base[1]} requests right, {base[2]} false actions", file=sys.stderr)

    tasks = []
    for path in sorted(glob.glob(os.path.join(args.domains, "*.hark"))):
        name = os.path.basename(path)
        if args.file and name != args.file:
            continue
        for index, text in sentence_lines(path):
            tasks.append((name, index, text))

    def run(task):
        name, index, text = task
        copy = tempfile.mkdtemp(dir=work)
        for path in glob.glob(os.path.join(args.domains, "*.hark")):
            shutil.copy(path, copy)
        target = os.path.join(copy, name)
        lines = open(target).read().split("\n")
        del lines[index]
        open(target, "w").write("\n".join(lines))
        result = measure(args.bin, copy, typed)
        shutil.rmtree(copy, ignore_errors=True)
        return task, result

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for done, (task, result) in enumerate(pool.map(run, tasks), 1):
            name, index, text = task
            if result is None:
                rows.append((name, index + 1, None, None, None, text.strip()))
            else:
                rows.append((name, index + 1, base[0] - result[0], base[1] - result[1], result[2] - base[2], text.strip()))
            print(f"\r{done}/{len(tasks)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    rows.sort(key=lambda r: -(r[2] or 0))
    with open(args.out, "w") as out:
        out.write("file\tline\tnodes_saved\trequests_lost\tfalse_actions_gained\tsentence\n")
        for row in rows:
            out.write("\t".join("error" if v is None else str(v) for v in row) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    print(f"grammar-costs: {len(rows)} sentences → {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
