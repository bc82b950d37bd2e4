#include "CPocketSphinxShims.h"

#include <malloc.h>
#include <sphinxbase/ckd_alloc.h>
#include <sphinxbase/glist.h>
#include <pocketsphinx.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "PocketSphinxMirrors.h"

// The n-gram search's fields up to its backpointer tables, as pocketsphinx
// 0.8+5prealpha lays them out (ngram_search.h: ngram_search_s; bptbl_s is
// 32 bytes). Checked against the public API and the configuration before
// anything is changed (`ngram_search_of`).
typedef struct ngram_search_mirror_s {
    search_full_t base;
    void *lmset;
    void *hmmctx;
    uint8_t fwdtree, fwdflat, bestpath, done;
    void *chan_alloc, *root_chan_alloc, *latnode_alloc;
    void *root_chan;
    int32_t n_root_chan_alloc, n_root_chan, n_nonroot_chan, max_nonroot_chan;
    void *rhmm_1ph;
    void *word_chan;
    void *word_active;
    int32_t *homophone_set;
    int32_t *single_phone_wid;
    int32_t n_1ph_words, n_1ph_LMwords;
    void *active_chan_list;
    int32_t n_active_chan[2];
    void *active_word_list;
    int32_t n_active_word[2];
    void *lastphn_cand;
    int32_t n_lastphn_cand;
    void *last_ltrans;
    int32_t cand_sf_alloc;
    void *cand_sf;
    void *bestbp_rc;
    void *bp_table;
    int32_t bpidx;
    int32_t bp_table_size;
    int32_t *bscore_stack;
    int32_t bss_head;
    int32_t bscore_stack_size;
    int32_t n_frame_alloc;
    int32_t n_frame;
    int32_t *bp_table_idx;
} ngram_search_mirror_t;

enum { BACKPOINTER_BYTES = 32, SCORES_PER_BACKPOINTER = 20 };

// ps_search_s's dag and last_link (pointers 9 and 10 of its eleven).
enum { SEARCH_DAG = 9, SEARCH_LAST_LINK = 10 };

// The decoder's current search if it is an n-gram search laid out as the
// mirror says, else NULL. Checked: the search is the decoder's, of type
// "ngram", its language model set is the one pocketsphinx's own accessor
// gives, and both tables are as large as their sizes say, sizes that
// pocketsphinx only ever doubles from `-latsize` (and twenty times that).
static ngram_search_mirror_t *ngram_search_of(void *decoder) {
    search_t *search = hark_current_search(decoder, "ngram");
    if (!search) return NULL;
    decoder_t *d = decoder;
    ngram_search_mirror_t *s = (ngram_search_mirror_t *)search;
    if (!s->lmset || s->lmset != (void *)ps_get_lm(decoder, search->name)) return NULL;
    long latsize = cmd_ln_int32_r(d->config, "-latsize");
    if (latsize <= 0 || !s->bp_table || !s->bscore_stack || !s->bp_table_idx) return NULL;
    if (s->bp_table_size < latsize || s->bp_table_size % latsize != 0) return NULL;
    long scores = latsize * SCORES_PER_BACKPOINTER;
    if (s->bscore_stack_size < scores || s->bscore_stack_size % scores != 0) return NULL;
    if (s->bpidx < 0 || s->bpidx > s->bp_table_size || s->bss_head < 0 || s->bss_head > s->bscore_stack_size
        || s->n_frame < 0 || s->n_frame > s->n_frame_alloc)
        return NULL;
    if (malloc_usable_size(s->bp_table) < (size_t)s->bp_table_size * BACKPOINTER_BYTES
        || malloc_usable_size(s->bscore_stack) < (size_t)s->bscore_stack_size * sizeof(int32_t))
        return NULL;
    return s;
}

// The whole pages inside [start, start + bytes).
static void inner_pages(void *start, size_t bytes, uintptr_t *from, uintptr_t *to) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    *from = ((uintptr_t)start + page - 1) & ~(page - 1);
    *to = ((uintptr_t)start + bytes) & ~(page - 1);
    if (*to < *from) *to = *from;
}

static void give_back(void *start, size_t bytes) {
    uintptr_t from, to;
    inner_pages(start, bytes, &from, &to);
    if (to > from) madvise((void *)from, to - from, MADV_DONTNEED);
}

static size_t resident(void *start, size_t bytes) {
    uintptr_t from, to;
    inner_pages(start, bytes, &from, &to);
    if (to <= from) return 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (to - from) / page, count = 0;
    unsigned char vector[256];
    for (size_t done = 0; done < pages;) {
        size_t n = pages - done < sizeof vector ? pages - done : sizeof vector;
        if (mincore((void *)(from + done * page), n * page, vector) != 0) return 0;
        for (size_t i = 0; i < n; ++i) count += vector[i] & 1;
        done += n;
    }
    return count * page;
}

int hark_ngram_search_release(void *decoder) {
    ngram_search_mirror_t *s = ngram_search_of(decoder);
    if (!s || !s->done) return -1;
    // The word lattice built from the tables to read the best path.
    ps_lattice_free(s->base.pointers[SEARCH_DAG]);
    s->base.pointers[SEARCH_DAG] = NULL;
    s->base.pointers[SEARCH_LAST_LINK] = NULL;
    // An utterance of no frames: no exit, no hypothesis, no lattice to build
    // (ngram_search_find_exit), until the next one starts and fills the
    // tables from their first entry.
    s->bpidx = 0;
    s->bss_head = 0;
    s->n_frame = 0;
    s->done = 0;
    give_back(s->bp_table, (size_t)s->bp_table_size * BACKPOINTER_BYTES);
    give_back(s->bscore_stack, (size_t)s->bscore_stack_size * sizeof(int32_t));
    return 0;
}

int hark_ngram_search_tables(void *decoder, int64_t *bytes, int64_t *resident_bytes) {
    ngram_search_mirror_t *s = ngram_search_of(decoder);
    if (!s) return -1;
    size_t table = (size_t)s->bp_table_size * BACKPOINTER_BYTES, scores = (size_t)s->bscore_stack_size * sizeof(int32_t);
    if (bytes) *bytes = (int64_t)(table + scores);
    if (resident_bytes) *resident_bytes = (int64_t)(resident(s->bp_table, table) + resident(s->bscore_stack, scores));
    return 0;
}

// The phone-loop search (allphone_search.h: allphone_search_s), as
// pocketsphinx 0.8+5prealpha lays it out.
typedef struct allphone_search_mirror_s {
    search_full_t base;
    void *hmmctx;
    void *lm;
    int32_t ci_only;
    void *ci_phmm;
    int32_t *ci2lmwid;
    int32_t beam, pbeam;
    int32_t lw, inspen;
    int32_t frame;
    float ascale;
    int32_t n_tot_frame;
    int32_t n_hmm_eval;
    int32_t n_sen_eval;
    blkarray_t *history;
    glist_t segments;
} allphone_search_mirror_t;

// pocketsphinx's own, exported by libpocketsphinx but not in its public
// headers.
extern void blkarray_list_reset(void *list);

// The decoder's current search if it is a phone-loop search laid out as
// the mirror says, else NULL. Checked: the search is the decoder's, of type
// "allphone", its beams are the configuration's (`-beam`, `-pbeam` in
// logmath units, as pocketsphinx stores them shifted for senone scores),
// and its history list is well formed.
static allphone_search_mirror_t *allphone_search_of(void *decoder) {
    search_t *search = hark_current_search(decoder, "allphone");
    if (!search) return NULL;
    allphone_search_mirror_t *s = (allphone_search_mirror_t *)search;
    if (!s->hmmctx || !s->ci_phmm || !s->ci2lmwid || (s->ci_only != 0 && s->ci_only != 1)) return NULL;
    if (s->frame < 0 || s->n_tot_frame < s->frame || s->beam > 0 || s->pbeam > 0) return NULL;
    blkarray_t *h = s->history;
    // (an empty list's current row is -1, its free count the block size)
    if (!h || h->blksize <= 0 || h->maxblks <= 0 || h->n_valid < 0 || h->cur_row < -1 || h->cur_row >= h->maxblks
        || h->cur_row_free < 0 || h->cur_row_free > h->blksize
        || (int64_t)h->n_valid != (int64_t)h->cur_row * h->blksize + h->cur_row_free)
        return NULL;
    return s;
}

int hark_allphone_search_release(void *decoder) {
    allphone_search_mirror_t *s = allphone_search_of(decoder);
    if (!s) return -1;
    // As allphone_clear_segments and allphone_search_start do: the best
    // path's phone segments, then every history entry. The search then has
    // no path to read (allphone_backtrace finds no entry).
    for (gnode_t *g = s->segments; g; g = gnode_next(g)) ckd_free(gnode_ptr(g));
    glist_free(s->segments);
    s->segments = NULL;
    blkarray_list_reset(s->history);
    return 0;
}

int32_t hark_allphone_search_held(void *decoder) {
    allphone_search_mirror_t *s = allphone_search_of(decoder);
    return s ? s->history->n_valid : -1;
}
