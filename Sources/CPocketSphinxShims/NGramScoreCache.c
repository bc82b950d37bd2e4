#include "CPocketSphinxShims.h"

#include <stdlib.h>

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

// Direct-mapped: a frame's questions are a few hundred trigrams, much the
// same from one frame to the next.
enum { ENTRIES = 8192 };

typedef struct score_cache_s {
    ngram_functions_t functions;   // first: the model's table pointer points here
    ngram_functions_t *original;
    void **slot;                   // the model's pointer to its table
    uint64_t keys[ENTRIES];        // 0: empty
    int32_t scores[ENTRIES];
    int32_t used[ENTRIES];
    uint64_t hits, misses;
} score_cache_t;

// Where a model's table pointer lies inside the model, set by the first
// install (every model has the same layout).
static long functions_offset = -1; // read and written with __atomic builtins

static score_cache_t *cache_of_model(void *model) {
    return *(score_cache_t **)((char *)model + __atomic_load_n(&functions_offset, __ATOMIC_RELAXED));
}

static void cache_clear(score_cache_t *c) {
    for (int i = 0; i < ENTRIES; ++i) c->keys[i] = 0;
}

static int32_t cached_score(void *model, int32_t wid, int32_t *history, int32_t n_hist, int32_t *n_used) {
    score_cache_t *c = cache_of_model(model);
    int32_t h0 = n_hist > 0 ? history[0] : 0, h1 = n_hist > 1 ? history[1] : 0;
    if (n_hist > 2 || wid < 0 || wid > 0xffff || h0 < 0 || h0 > 0xffff || h1 < 0 || h1 > 0xffff)
        return c->original->score(model, wid, history, n_hist, n_used);
    uint64_t key = (1ULL << 63) | ((uint64_t)n_hist << 48) | ((uint64_t)wid << 32) | ((uint64_t)h0 << 16) | (uint64_t)h1;
    uint32_t index = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 51) & (ENTRIES - 1);
    if (c->keys[index] == key) {
        c->hits++;
        if (n_used) *n_used = c->used[index];
        return c->scores[index];
    }
    int32_t used = 0;
    int32_t score = c->original->score(model, wid, history, n_hist, &used);
    c->misses++;
    c->keys[index] = key;
    c->scores[index] = score;
    c->used[index] = used;
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
    free(c);
}

int hark_ngram_score_cache_install(void *model, void **functions) {
    if (!model || !functions || !*functions) return -1;
    long offset = (long)((char *)functions - (char *)model);
    long known = __atomic_load_n(&functions_offset, __ATOMIC_RELAXED);
    if (offset <= 0 || (known >= 0 && known != offset)) return -1;
    ngram_functions_t *original = (ngram_functions_t *)*functions;
    if (!original->score) return -1;
    score_cache_t *c = calloc(1, sizeof(*c));
    if (!c) return -1;
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

void hark_ngram_score_cache_counts(void *model, uint64_t *hits, uint64_t *misses) {
    score_cache_t *c = cache_of_model(model);
    if (hits) *hits = c->hits;
    if (misses) *misses = c->misses;
}
