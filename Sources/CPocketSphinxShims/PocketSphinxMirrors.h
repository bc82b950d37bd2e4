#ifndef HARK_POCKETSPHINX_MIRRORS_H
#define HARK_POCKETSPHINX_MIRRORS_H

#include <pocketsphinx.h>
#include <stdint.h>
#include <string.h>

// Mirrors of pocketsphinx 0.8+5prealpha's private structures every shim
// that reaches into a decoder's search starts from
// (pocketsphinx_internal.h: ps_decoder_s, ps_searchfuncs_s, ps_search_s;
// blkarray_list.h: blkarray_list_s, the searches' lists of history).
// Each shim checks them against the public API before it changes anything.

typedef struct searchfuncs_s {
    int (*start)(void *search);
    int (*step)(void *search, int frame_idx);
    int (*finish)(void *search);
    int (*reinit)(void *search, void *dict, void *d2p);
    void (*free)(void *search);
    void *(*lattice)(void *search);
    char const *(*hyp)(void *search, int32_t *out_score);
    int32_t (*prob)(void *search);
    void *(*seg_iter)(void *search);
} searchfuncs_t;

typedef struct search_s {
    searchfuncs_t *vt;
    char *type;
    char *name;
    void *pls;
    cmd_ln_t *config;
    void *acmod;
} search_t;

typedef struct decoder_s {
    cmd_ln_t *config;
    int refcount;
    void *acmod;
    void *dict;
    void *d2p;
    void *lmath;
    void *searches;
    search_t *search;
} decoder_t;

// The decoder's current search when it is the decoder's own (its
// configuration and acoustic model) and of `type` ("fsg", "ngram",
// "allphone"), else NULL: where every shim's layout checks start.
static inline search_t *hark_current_search(void *decoder, const char *type) {
    decoder_t *d = decoder;
    if (!d || !d->config) return NULL;
    search_t *search = d->search;
    if (!search || search->config != d->config || search->acmod != d->acmod || !search->type || !search->name
        || strcmp(search->type, type) != 0)
        return NULL;
    return search;
}

// ps_search_s in full: vt, type, name, pls, config, acmod, dict, d2p,
// hyp_str, dag, last_link, then post, n_words, start_wid, silence_wid,
// finish_wid.
typedef struct search_full_s {
    void *pointers[11];
    int32_t ints[5];
} search_full_t;

// blkarray_list_s: blocks of pointers to entries.
typedef struct blkarray_s {
    void ***ptr;
    int32_t maxblks;
    int32_t blksize;
    int32_t n_valid;
    int32_t cur_row;
    int32_t cur_row_free;
} blkarray_t;

#endif
