#!/usr/bin/env bash
# Regenerates models/dictation/words.txt: the most frequent words of Debian's
# en-us n-gram language model that the CMU dictionary can pronounce, one
# "word<TAB>log10 unigram probability" a line. Free-text slots (message
# content, note text) are recognised over this vocabulary, weighted by these
# probabilities, plus the apps' own words.
set -euo pipefail
count=${1:-3000}
model=/usr/share/pocketsphinx/model/en-us
out=$(dirname "$0")/../models/dictation/words.txt
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# sphinx_lm_convert asserts after writing the unigrams of this model; the
# unigram section is all this script reads.
sphinx_lm_convert -i "$model/en-us.lm.bin" -o "$tmp/lm.arpa" -ofmt arpa >/dev/null 2>&1 || true
cut -d' ' -f1 "$model/cmudict-en-us.dict" | sort -u > "$tmp/dict"
awk '/^\\1-grams:/{on=1;next} /^\\/{on=0} on && NF>=2 {print $1"\t"$2}' "$tmp/lm.arpa" \
  | grep -E $'^-?[0-9.]+\t[a-z][a-z\']*$' | sort -t$'\t' -k1,1 -g -r \
  | awk -F'\t' 'NR==FNR{d[$1]=1;next} d[$2] {print $2"\t"$1}' "$tmp/dict" - > "$tmp/ranked"
head -n "$count" "$tmp/ranked" | sort > "$out"
echo "wrote $(wc -l < "$out") words to $out"
cut -f1 "$tmp/ranked" > "$(dirname "$out")/reading-words.txt"
echo "wrote $(wc -l < "$(dirname "$out")/reading-words.txt") words to $(dirname "$out")/reading-words.txt"
