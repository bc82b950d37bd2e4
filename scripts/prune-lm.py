#!/usr/bin/env python3
"""Prunes the n-gram language model that reads free text (dictation).

  scripts/prune-lm.py [--threshold T] [--vocabulary-size N] [--force] [SOURCE [DEST]]

SOURCE defaults to Debian's /usr/share/pocketsphinx/model/en-us/en-us.lm.bin
(72,547 words, 2,051,547 bigrams, 1,669,625 trigrams: 27 MB of Hark's
memory once loaded); DEST to models/dictation/language-model.lm.bin, where
Hark looks for the dictation's language model before the acoustic model's
own. Does nothing when DEST is newer than SOURCE and this script.

Bigrams and trigrams are pruned by relative entropy (Stolcke, "Entropy-based
pruning of backoff language models", 1998): an n-gram goes when removing it
alone -- its history's backoff weight renormalised -- changes the model's
distribution by less than T (its history's marginal probability times the
n-gram's own term and the backoff weight's change over every word already
backed off). Unigrams all stay in this step. A bigram
that is the history of a kept trigram stays. The threshold, 3.5e-8, was
chosen on the audio fixtures (docs/measurements.md, "Memory"): 1,315,153 bigrams and
1,015,516 trigrams are kept (18 MB instead of 27), and every fixture reads as
with the whole model; at 5e-8 (15 MB) "pears" became "pairs".

Then the model keeps only the words the n-gram pass can read free text as
(``--vocabulary-size``, 31,000: DictationVocabulary.defaultReadingVocabulary-
Size): the first N of models/dictation/reading-words.txt, the dictation words
of models/dictation/words.txt, and the sentence markers. A word outside them
is never in the n-gram decoder's dictionary, so its unigram, and every
n-gram it takes part in, only took memory: the unigram table and the word
hash tables sphinxbase builds over every unigram (twice, for the model and
its class set). What stays keeps its probability and backoff weight, so the
pass reads every word it knows as before. A grammar word outside them (a
rare name an app reports) is added by Hark as a class word, as a word
Debian's model lacks always was. --vocabulary-size 0 keeps every word.

sphinxbase reads and writes this trie format, but cannot write it back out
as ARPA (ngram_model_trie_write_arpa asserts on Debian's model: the trie
holds the history bigrams it inserted for trigrams whose history the ARPA
file lacked), and the pruning needs the n-grams themselves; so the trie is
read here (lm_trie.c's layout: KenLM's bit-packed trie with 16-bit
quantised weights), the pruned model written as ARPA, and sphinxbase
(through ctypes) turns the ARPA file into its binary trie.

Python's standard library only; about half a minute.
"""
import argparse
import ctypes
import ctypes.util
import math
import os
import struct
import sys
import tempfile

HEADER = b"Trie Language Model"
LN10 = math.log(10)
# Weights are sphinxbase log-math values, base 1.0001.
LOG_BASE = math.log(1.0001)
# The relative-entropy threshold, chosen on the audio fixtures (above).
THRESHOLD = 3.5e-8
# How many of the reading words the n-gram pass knows: Hark's
# DictationVocabulary.defaultReadingVocabularySize (a test checks they agree).
VOCABULARY_SIZE = 31_000


def required_bits(max_value):
    """lm_trie's bitarr_required_bits: bits to hold 0...max_value."""
    if max_value == 0:
        return 0
    bits = 0
    while max_value:
        bits += 1
        max_value >>= 1
    return bits


class Trie:
    """A sphinxbase trie model, read whole: weights as natural logs, words by id."""

    def __init__(self, path):
        data = open(path, "rb").read()
        if not data.startswith(HEADER):
            raise SystemExit(f"prune-lm: {path} is not a sphinxbase trie language model (no '{HEADER.decode()}' header)")
        at = len(HEADER)
        self.order = data[at]
        at += 1
        if self.order != 3:
            raise SystemExit(f"prune-lm: {path} is a {self.order}-gram model; only trigram models are pruned")
        self.counts = list(struct.unpack_from("<3I", data, at))
        at += 12
        at += 4  # the quantiser's unused int
        table = 1 << 16
        quant = struct.unpack_from(f"<{3 * table}f", data, at)
        at += 3 * table * 4
        bigram_probs, bigram_backoffs, trigram_probs = quant[:table], quant[table:2 * table], quant[2 * table:]
        n1, n2, n3 = self.counts
        unigrams = struct.unpack_from(f"<{3 * (n1 + 1)}f", data, at)
        raw = struct.unpack_from(f"<{3 * (n1 + 1)}I", data, at)
        at += 12 * (n1 + 1)
        self.uni_prob = [unigrams[3 * i] * LOG_BASE for i in range(n1)]
        self.uni_bo = [unigrams[3 * i + 1] * LOG_BASE for i in range(n1)]
        uni_next = [raw[3 * i + 2] for i in range(n1 + 1)]

        word_bits = required_bits(n1)
        next_bits = required_bits(n3)
        middle_bits = word_bits + 32 + next_bits
        middle_size = ((1 + n2) * middle_bits + 7) // 8 + 8
        longest_bits = word_bits + 16
        longest_size = ((1 + n3) * longest_bits + 7) // 8 + 8
        middle = data[at:at + middle_size]
        at += middle_size
        longest = data[at:at + longest_size]
        at += longest_size

        (length,) = struct.unpack_from("<i", data, at)
        at += 4
        self.words = data[at:at + length].decode("utf-8", "replace").split("\0")[:n1]
        if len(self.words) != n1:
            raise SystemExit(f"prune-lm: {path}: {len(self.words)} word strings for {n1} unigrams")

        def field(buffer, bit, width):
            chunk = int.from_bytes(buffer[bit >> 3:(bit >> 3) + 8], "little")
            return (chunk >> (bit & 7)) & ((1 << width) - 1)

        word_mask = (1 << word_bits) - 1
        # The trie is KenLM's, reversed: under each word the words before
        # it, under those the words before them. Bigrams are kept as
        # (w1, w2) -> [ln prob, ln backoff], trigrams (w1, w2, w3) -> ln prob.
        self.bigrams = {}
        self.trigrams = {}
        for w1 in range(n1):
            for b in range(uni_next[w1], uni_next[w1 + 1]):
                bit = b * middle_bits
                chunk = int.from_bytes(middle[bit >> 3:(bit >> 3) + 16], "little") >> (bit & 7)
                w2 = chunk & word_mask
                q = (chunk >> word_bits) & 0xFFFFFFFF
                begin = (chunk >> (word_bits + 32)) & ((1 << next_bits) - 1)
                end = field(middle, (b + 1) * middle_bits + word_bits + 32, next_bits)
                self.bigrams[(w2, w1)] = [bigram_probs[q >> 16] * LOG_BASE, bigram_backoffs[q & 0xFFFF] * LOG_BASE]
                for t in range(begin, end):
                    tbit = t * longest_bits
                    chunk = int.from_bytes(longest[tbit >> 3:(tbit >> 3) + 8], "little") >> (tbit & 7)
                    w3 = chunk & word_mask
                    self.trigrams[(w3, w2, w1)] = trigram_probs[(chunk >> word_bits) & 0xFFFF] * LOG_BASE


def prune(trie, threshold):
    """Drops n-grams whose relative-entropy cost is under `threshold`;
    renormalises the backoff weights of the histories that lost some."""
    p1 = [math.exp(p) for p in trie.uni_prob]
    # The marginal of a history: <s> is never predicted (its unigram is
    # 10^-99), yet starts every sentence, as often as </s> ends one.
    marginal = list(p1)
    if "<s>" in trie.words and "</s>" in trie.words:
        marginal[trie.words.index("<s>")] = p1[trie.words.index("</s>")]

    def backed_off_bigram(w1, w2):
        return lower_prob(trie.bigrams, trie.uni_bo, trie.uni_prob, w1, w2)

    # Trigrams first: their histories' bigrams must then stay.
    kept_trigrams = {}
    by_history = {}
    for (w1, w2, w3), lp in trie.trigrams.items():
        by_history.setdefault((w1, w2), []).append((w3, lp))
    for (w1, w2), successors in by_history.items():
        history = trie.bigrams.get((w1, w2))
        p_history = marginal[w1] * math.exp(backed_off_bigram(w1, w2))
        bo = history[1] if history else 0.0
        lowers = [backed_off_bigram(w2, w3) for w3, _ in successors]
        judge = cost_of_removing(p_history, bo, lowers)
        for (w3, lp), lower in zip(successors, lowers):
            if judge(lp, lower) >= threshold:
                kept_trigrams[(w1, w2, w3)] = lp
    histories = {(w1, w2) for (w1, w2, _) in kept_trigrams}

    kept_bigrams = {}
    by_first = {}
    for (w1, w2), weights in trie.bigrams.items():
        by_first.setdefault(w1, []).append((w2, weights))
    for w1, successors in by_first.items():
        judge = cost_of_removing(marginal[w1], trie.uni_bo[w1], [trie.uni_prob[w2] for w2, _ in successors])
        for w2, (lp, bo) in successors:
            if (w1, w2) in histories or judge(lp, trie.uni_prob[w2]) >= threshold:
                kept_bigrams[(w1, w2)] = [lp, bo]

    # Backoff weights: what a history leaves to the lower order grows by
    # the probability of the n-grams pruned from it, and is shared over the
    # words the lower order now gives it. Taken as a change to the model's
    # own weight (its weights are quantised and not exactly normalised, so
    # recomputing them whole would move every history, pruned or not).
    uni_bo = list(trie.uni_bo)
    for w1, successors in by_first.items():
        removed = [(w2, lp) for w2, (lp, _) in successors if (w1, w2) not in kept_bigrams]
        if removed:
            every = [w2 for w2, _ in successors]
            kept = [w2 for w2, _ in successors if (w1, w2) in kept_bigrams]
            uni_bo[w1] = renormalised(trie.uni_bo[w1], removed, [p1[w] for w in every], [p1[w] for w in kept])
    for (w1, w2), weights in kept_bigrams.items():
        successors = by_history.get((w1, w2), [])
        removed = [(w3, lp) for w3, lp in successors if (w1, w2, w3) not in kept_trigrams]
        if not removed:
            continue
        every = [math.exp(backed_off_bigram(w2, w3)) for w3, _ in successors]
        kept = [math.exp(lower_prob(kept_bigrams, uni_bo, trie.uni_prob, w2, w3))
                for w3, _ in successors if (w1, w2, w3) in kept_trigrams]
        weights[1] = renormalised(weights[1], removed, every, kept)
    return uni_bo, kept_bigrams, kept_trigrams


def cost_of_removing(p_history, backoff, lowers):
    """For one history (its marginal probability, ln backoff weight, and
    the lower order's ln probabilities of the words it has n-grams for),
    a function of one n-gram (its ln probability, the lower order's) giving
    the relative entropy its removal costs: the n-gram's own term, and the
    change of the backoff weight over every word already backed off."""
    left = max(1 - sum(math.exp(x) for x in lowers), 1e-9)
    backed_off = math.exp(backoff) * left

    def judge(lp, lower):
        p = math.exp(lp)
        new_backoff = math.log((backed_off + p) / (left + math.exp(lower)))
        return p_history * (p * (lp - (new_backoff + lower)) + backed_off * (backoff - new_backoff))
    return judge


def lower_prob(bigrams, uni_bo, uni_prob, w1, w2):
    """ln P(w2 | w1) in a bigram model: its bigram, or w1's backoff weight
    times w2's unigram."""
    found = bigrams.get((w1, w2))
    return found[0] if found else uni_bo[w1] + uni_prob[w2]


def renormalised(old_backoff, removed, lower_before, lower_after):
    """The new ln backoff weight of a history: old_backoff (ln) times what
    the lower order left over before (1 - sum of lower_before, the lower
    order's probabilities of every word the history had), plus the
    probability of the `removed` n-grams, over what the lower order leaves
    over now (1 - sum of lower_after, for the words it kept)."""
    before = max(1 - sum(lower_before), 1e-9)
    after = max(1 - sum(lower_after), 1e-9)
    mass = math.exp(old_backoff) * before + sum(math.exp(lp) for _, lp in removed)
    return math.log(mass / after)


def reading_vocabulary(folder, size):
    """The words the n-gram pass can read free text as: the first `size` of
    reading-words.txt (most frequent first), the dictation words of
    words.txt (word<TAB>log10 probability), both in `folder`."""
    reading_path = os.path.join(folder, "reading-words.txt")
    dictation_path = os.path.join(folder, "words.txt")
    try:
        with open(reading_path, encoding="utf-8") as f:
            reading = [line.strip() for line in f if line.strip()]
        with open(dictation_path, encoding="utf-8") as f:
            dictation = [line.split("\t", 1)[0] for line in f if line.strip()]
    except OSError as error:
        raise SystemExit(f"prune-lm: {error.filename}: {error.strerror} (regenerate it with scripts/make-dictation-vocabulary.sh)")
    return set(reading[:size]) | set(dictation)


def restrict(trie, bigrams, trigrams, vocabulary):
    """Keeps the unigrams of `vocabulary` (and the sentence markers, every
    <...> token) and the n-grams made of them only, their weights as they
    are. Returns the kept word ids, in the model's order."""
    kept = [i for i, word in enumerate(trie.words) if word in vocabulary or word.startswith("<")]
    known = set(kept)
    bigrams = {key: value for key, value in bigrams.items() if key[0] in known and key[1] in known}
    trigrams = {key: value for key, value in trigrams.items() if all(w in known for w in key)}
    return kept, bigrams, trigrams


def write_arpa(path, trie, uni_bo, bigrams, trigrams, unigrams=None):
    words = trie.words
    unigrams = range(len(words)) if unigrams is None else unigrams
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"\\data\\\nngram 1={len(unigrams)}\nngram 2={len(bigrams)}\nngram 3={len(trigrams)}\n\n\\1-grams:\n")
        for i in unigrams:
            out.write(f"{trie.uni_prob[i] / LN10:.4f}\t{words[i]}\t{uni_bo[i] / LN10:.4f}\n")
        out.write("\n\\2-grams:\n")
        for (w1, w2) in sorted(bigrams):
            lp, bo = bigrams[(w1, w2)]
            out.write(f"{lp / LN10:.4f}\t{words[w1]} {words[w2]}\t{bo / LN10:.4f}\n")
        out.write("\n\\3-grams:\n")
        for (w1, w2, w3) in sorted(trigrams):
            out.write(f"{trigrams[(w1, w2, w3)] / LN10:.4f}\t{words[w1]} {words[w2]} {words[w3]}\n")
        out.write("\n\\end\\\n")


def arpa_to_bin(arpa, dest):
    """sphinxbase reads the ARPA file and writes its binary trie."""
    name = ctypes.util.find_library("sphinxbase") or "libsphinxbase.so.3"
    try:
        lib = ctypes.CDLL(name)
    except OSError as error:
        raise SystemExit(f"prune-lm: cannot load sphinxbase ({error}); install libsphinxbase3 (scripts/setup.sh)")
    lib.logmath_init.restype = ctypes.c_void_p
    lib.logmath_init.argtypes = [ctypes.c_double, ctypes.c_int, ctypes.c_int]
    lib.ngram_model_read.restype = ctypes.c_void_p
    lib.ngram_model_read.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p]
    lib.ngram_model_write.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    lib.ngram_model_free.argtypes = [ctypes.c_void_p]
    lib.logmath_free.argtypes = [ctypes.c_void_p]
    lib.err_set_logfp.argtypes = [ctypes.c_void_p]
    lib.err_set_logfp(None)  # sphinxbase's INFO lines
    logmath = lib.logmath_init(1.0001, 0, 0)
    NGRAM_ARPA, NGRAM_BIN = 1, 2
    model = lib.ngram_model_read(None, arpa.encode(), NGRAM_ARPA, logmath)
    if not model:
        raise SystemExit(f"prune-lm: sphinxbase could not read the pruned model {arpa}")
    partial = dest + ".partial"
    if lib.ngram_model_write(model, partial.encode(), NGRAM_BIN) != 0:
        raise SystemExit(f"prune-lm: sphinxbase could not write {partial}")
    lib.ngram_model_free(model)
    lib.logmath_free(logmath)
    os.replace(partial, dest)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", default="/usr/share/pocketsphinx/model/en-us/en-us.lm.bin")
    parser.add_argument("dest", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "dictation", "language-model.lm.bin"))
    parser.add_argument("--threshold", type=float, default=THRESHOLD, help=f"relative-entropy threshold (default {THRESHOLD})")
    parser.add_argument("--vocabulary-size", type=int, default=VOCABULARY_SIZE,
                        help=f"keep the n-grams of the first N reading words and the dictation words only; 0: every word (default {VOCABULARY_SIZE})")
    parser.add_argument("--force", action="store_true", help="prune even when DEST is up to date")
    args = parser.parse_args()
    dest = os.path.normpath(args.dest)
    if not os.path.exists(args.source):
        raise SystemExit(f"prune-lm: {args.source} is missing (Debian's pocketsphinx-en-us: scripts/setup.sh)")
    words_folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "dictation")
    lists = [os.path.join(words_folder, name) for name in ("reading-words.txt", "words.txt")] if args.vocabulary_size > 0 else []
    newest_input = max([os.path.getmtime(args.source), os.path.getmtime(__file__)] + [os.path.getmtime(f) for f in lists if os.path.exists(f)])
    if not args.force and os.path.exists(dest) and os.path.getmtime(dest) >= newest_input:
        return
    trie = Trie(args.source)
    uni_bo, bigrams, trigrams = prune(trie, args.threshold)
    print(f"prune-lm: {len(trie.words)} words; bigrams {len(trie.bigrams)} -> {len(bigrams)}, "
          f"trigrams {len(trie.trigrams)} -> {len(trigrams)} (threshold {args.threshold:g})", file=sys.stderr)
    unigrams = None
    if args.vocabulary_size > 0:
        unigrams, bigrams, trigrams = restrict(trie, bigrams, trigrams, reading_vocabulary(words_folder, args.vocabulary_size))
        print(f"prune-lm: the n-gram pass's {len(unigrams)} words (the first {args.vocabulary_size} reading words and the dictation words): "
              f"bigrams {len(bigrams)}, trigrams {len(trigrams)}", file=sys.stderr)
    print(f"prune-lm: -> {dest}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as work:
        arpa = os.path.join(work, "pruned.arpa")
        write_arpa(arpa, trie, uni_bo, bigrams, trigrams, unigrams)
        arpa_to_bin(arpa, dest)


if __name__ == "__main__":
    main()
