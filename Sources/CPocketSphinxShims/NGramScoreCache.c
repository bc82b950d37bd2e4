#include "CPocketSphinxShims.h"

#include <stdlib.h>
#include <sys/mman.h>

// sphinxbase 5prealpha's table of an n-gram model's functions
// (ngram_funcs_t in ngram_model_internal.h).
typedef struct ngram_functions_s {
    void (*free)(void *model);
    int (*apply_weights)(void *model, float lw, float wip);
    int32_t (*score)(void *model, int32_t wid, int32_t *history, int32_t n_hist, int32_t *n_used);
    int32_t (*raw_score)(void *model, int32_t wid, int32_t *history, int32_t n_hist, int32_t *n_used);
    int32_t (*add_ug)(void *model, int32_t wid, int32_t lweight);
    void (*flush)(void *model);
} ngram_functions_t;

// Every n-gram of up to three words of a vocabulary of at most MAX_WORDS
// (a phone model's 40-odd phones) has a place in one of three dense tables,
// filled as asked: the allphone search asks for tens of thousands of
// different phone trigrams in one utterance, the same ones in the next.
// The tables are an anonymous mapping, resident only where touched.
enum { MAX_WORDS = 64 };

typedef struct score_cache_s {
    ngram_functions_t functions;   // first: the model's table pointer points here
    ngram_functions_t *original;
    void **slot;                   // the model's pointer to its table
    int32_t words;
    size_t entries;                // words^3 + words^2 + words
    int32_t *scores;               // trigrams, then bigrams, then unigrams
    uint8_t *used;                 // the n-gram length the model used, plus one; 0: not asked yet
    size_t bytes;                  // of the mapping holding both
    uint64_t hits, misses;
} score_cache_t;

// Where a model's table pointer lies inside the model, set by the first
// install (every model has the same layout).
static long functions_offset = -1; // read and written with __atomic builtins

static score_cache_t *cache_of_model(void *model) {
    return *(score_cache_t **)((char *)model + __atomic_load_n(&functions_offset, __ATOMIC_RELAXED));
}

static void cache_clear(score_cache_t *c) {
    // Given back to the system, read again as zeros.
    madvise(c->scores, c->bytes, MADV_DONTNEED);
}

static int32_t cached_score(void *model, int32_t wid, int32_t *history, int32_t n_hist, int32_t *n_used) {
    score_cache_t *c = cache_of_model(model);
    int32_t w = c->words;
    size_t index;
    if (wid < 0 || wid >= w || n_hist < 0 || n_hist > 2)
        return c->original->score(model, wid, history, n_hist, n_used);
    if (n_hist == 2) {
        if (history[0] < 0 || history[0] >= w || history[1] < 0 || history[1] >= w)
            return c->original->score(model, wid, history, n_hist, n_used);
        // The allphone search asks for one word and history word, and every last word.
        index = ((size_t)wid * w + (size_t)history[0]) * w + (size_t)history[1];
    } else if (n_hist == 1) {
        if (history[0] < 0 || history[0] >= w)
            return c->original->score(model, wid, history, n_hist, n_used);
        index = (size_t)w * w * w + (size_t)wid * w + (size_t)history[0];
    } else {
        index = (size_t)w * w * w + (size_t)w * w + (size_t)wid;
    }
    if (c->used[index]) {
        c->hits++;
        if (n_used) *n_used = c->used[index] - 1;
        return c->scores[index];
    }
    int32_t used = 0;
    int32_t score = c->original->score(model, wid, history, n_hist, &used);
    c->misses++;
    if (used >= 0 && used < 255) {
        c->scores[index] = score;
        c->used[index] = (uint8_t)(used + 1);
    }
    if (n_used) *n_used = used;
    return score;
}

static int cached_apply_weights(void *model, float lw, float wip) {
    score_cache_t *c = cache_of_model(model);
    cache_clear(c);
    return c->original->apply_weights(model, lw, wip);
}

static int32_t cached_add_ug(void *model, int32_t wid, int32_t lweight) {
    score_cache_t *c = cache_of_model(model);
    cache_clear(c);
    return c->original->add_ug(model, wid, lweight);
}

static void cached_flush(void *model) {
    score_cache_t *c = cache_of_model(model);
    cache_clear(c);
    if (c->original->flush) c->original->flush(model);
}

static void cached_free(void *model) {
    score_cache_t *c = cache_of_model(model);
    *c->slot = c->original;
    if (c->original->free) c->original->free(model);
    munmap(c->scores, c->bytes);
    free(c);
}

int hark_ngram_score_cache_install(void *model, void **functions, int32_t words) {
    if (!model || !functions || !*functions || words <= 0 || words > MAX_WORDS) return -1;
    long offset = (long)((char *)functions - (char *)model);
    long known = __atomic_load_n(&functions_offset, __ATOMIC_RELAXED);
    if (offset <= 0 || (known >= 0 && known != offset)) return -1;
    ngram_functions_t *original = (ngram_functions_t *)*functions;
    if (!original->score) return -1;
    score_cache_t *c = calloc(1, sizeof(*c));
    if (!c) return -1;
    c->words = words;
    c->entries = (size_t)words * words * words + (size_t)words * words + (size_t)words;
    c->bytes = c->entries * (sizeof(int32_t) + 1);
    void *tables = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (tables == MAP_FAILED) {
        free(c);
        return -1;
    }
    c->scores = tables;
    c->used = (uint8_t *)(c->scores + c->entries);
    c->original = original;
    c->functions = *original;
    c->functions.score = cached_score;
    if (original->apply_weights) c->functions.apply_weights = cached_apply_weights;
    if (original->add_ug) c->functions.add_ug = cached_add_ug;
    c->functions.flush = cached_flush;
    c->functions.free = cached_free;
    c->slot = functions;
    __atomic_store_n(&functions_offset, offset, __ATOMIC_RELAXED);
    *functions = c;
    return 0;
}

void hark_ngram_score_cache_fill(void *model) {
    score_cache_t *c = cache_of_model(model);
    int32_t w = c->words, history[2], used;
    for (int32_t wid = 0; wid < w; ++wid) {
        cached_score(model, wid, history, 0, &used);
        for (history[0] = 0; history[0] < w; ++history[0]) {
            cached_score(model, wid, history, 1, &used);
            for (history[1] = 0; history[1] < w; ++history[1])
                cached_score(model, wid, history, 2, &used);
        }
    }
}

void hark_ngram_score_cache_counts(void *model, uint64_t *hits, uint64_t *misses) {
    score_cache_t *c = cache_of_model(model);
    if (hits) *hits = c->hits;
    if (misses) *misses = c->misses;
}
