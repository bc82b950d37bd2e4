#include "CPocketSphinxShims.h"

#include <pocketsphinx.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "PocketSphinxMirrors.h"

// Mirrors of the leading fields of the private structures the grammar
// search keeps its history in (fsg_search_internal.h: fsg_search_s;
// fsg_lextree.h: fsg_pnode_s; hmm.h: hmm_s; fsg_history.h: fsg_history_s,
// fsg_hist_entry_s). Each is checked against the public API before the
// collector is installed.
typedef struct history_s {
    fsg_model_t *fsg;
    blkarray_t *entries;
    void *frame_entries;
    int n_ciphone;
} history_t;

typedef struct entry_s {
    void *fsglink;
    int32_t score;
    int32_t pred;
    int32_t frame;
    int16_t lc;
    uint32_t rc[4];
} entry_t;

enum { MAX_STATES = 5 };

typedef struct hmm_s {
    void *ctx;
    int32_t score[MAX_STATES];
    int32_t history[MAX_STATES];
    int32_t out_score;
    int32_t out_history;
    uint16_t ssid;
    uint16_t senid[MAX_STATES];
    int32_t bestscore;
    int16_t tmatid;
    int32_t frame;
    uint8_t mpx;
    uint8_t n_emit_state;
} hmm_t;

typedef struct pnode_s {
    void *next;
    void *alloc_next;
    void *sibling;
    int32_t logs2prob;
    uint32_t ctxt[4];
    uint16_t ci_ext;
    uint8_t ppos;
    uint8_t leaf;
    void *ctx;
    hmm_t hmm;
} pnode_t;

// fsg_search_s after its ps_search_s base (whose full size is given below).
typedef struct fsg_fields_s {
    void *hmmctx;
    fsg_model_t *fsg;
    void *lextree;
    history_t *history;
    glist_t pnode_active;
    glist_t pnode_active_next;
    int32_t beam_orig, pbeam_orig, wbeam_orig;
    float beam_factor;
    int32_t beam, pbeam, wbeam;
    int32_t lw, pip, wip;
    int32_t frame;
    uint8_t final;
    uint8_t bestpath;
    float ascale;
    int32_t bestscore;
    int32_t bpidx_start;
    int32_t ascr, lscr;
    int32_t n_hmm_eval;
    int32_t n_sen_eval;
} fsg_fields_t;

typedef struct fsg_search_mirror_s {
    search_full_t base;
    fsg_fields_t f;
} fsg_search_mirror_t;

// pocketsphinx's own accessors, exported by libpocketsphinx but not in its
// public headers.
extern void *fsg_history_entry_get(void *h, int32_t id);
extern int32_t fsg_history_n_entries(void *h);
extern void fsg_history_reset(void *h);

// A search's functions with the frame step wrapped: the search's table
// pointer points at `functions`, the first field.
typedef struct collector_s {
    searchfuncs_t functions;
    searchfuncs_t *original;
    int32_t collected_at;   // entries when last collected
    int32_t frames_since;
    int disabled;
    uint64_t freed;
    uint8_t *live;
    size_t live_size;
} collector_t;

enum { EVERY_FRAMES = 50, MIN_NEW_ENTRIES = 20000 };

// What a freed entry's slot points at until the history is reset: no word,
// no frame any search reads (pocketsphinx's exit search stops at an entry of
// another frame, or of no link), and no predecessor.
static entry_t tombstone = { .fsglink = NULL, .score = INT32_MIN, .pred = -1, .frame = -2 };

static int collector_step(void *search, int frame_idx);
static void collector_free(void *search);

// Where entry `i` of pocketsphinx's table of entries is kept.
static void **slot_at(blkarray_t *list, int32_t i) {
    return &list->ptr[i / list->blksize][i % list->blksize];
}

static void mark_hmm(const hmm_t *hmm, uint8_t *live, int32_t n) {
    int32_t states = hmm->n_emit_state < MAX_STATES ? hmm->n_emit_state : MAX_STATES;
    for (int32_t i = 0; i < states; ++i)
        if (hmm->history[i] >= 0 && hmm->history[i] < n) live[hmm->history[i]] = 1;
    if (hmm->out_history >= 0 && hmm->out_history < n) live[hmm->out_history] = 1;
}

// Frees the history entries no path the search still follows can reach.
// Reached: every entry of the latest frame with any (the next frame's word
// transitions and the hypothesis read them), the entries before the first
// frame (the start), the histories held by every active HMM, and every
// entry a reached one descends from. Nothing reads the others again: only
// a word lattice would (fsg_search_lattice reads every entry), and this
// version's grammar search never builds one (its `bestpath` flag is never
// set from the configuration; were it set, the collector would stay off).
// Their slots point at a tombstone until the history is reset.
static void collect(collector_t *c, fsg_search_mirror_t *s) {
    history_t *h = s->f.history;
    int32_t n = fsg_history_n_entries(h);
    if (n <= 1) return;
    if ((size_t)n > c->live_size) {
        uint8_t *grown = realloc(c->live, (size_t)n);
        if (!grown) return;
        c->live = grown;
        c->live_size = (size_t)n;
    }
    uint8_t *live = c->live;
    memset(live, 0, (size_t)n);
    // The start: entries of no frame.
    for (int32_t i = 0; i < n; ++i) {
        entry_t *e = fsg_history_entry_get(h, i);
        if (e == &tombstone || (e && e->frame >= 0)) break;
        live[i] = 1;
    }
    // The latest frame with entries.
    entry_t *last = fsg_history_entry_get(h, n - 1);
    if (!last || last == &tombstone) { c->disabled = 1; return; }
    // (and the entry before them, which pocketsphinx's exit search reads to
    // find where that frame's entries begin)
    for (int32_t i = n - 1; i >= 0; --i) {
        entry_t *e = fsg_history_entry_get(h, i);
        live[i] = 1;
        if (!e || e->frame != last->frame) break;
    }
    for (glist_t g = s->f.pnode_active; g; g = gnode_next(g)) {
        const pnode_t *p = gnode_ptr(g);
        if (p->hmm.n_emit_state == 0 || p->hmm.n_emit_state > MAX_STATES || p->hmm.mpx) { c->disabled = 1; return; }
        mark_hmm(&p->hmm, live, n);
    }
    for (int32_t i = n - 1; i > 0; --i) {
        if (!live[i]) continue;
        entry_t *e = fsg_history_entry_get(h, i);
        if (e && e != &tombstone && e->pred >= 0 && e->pred < i) live[e->pred] = 1;
    }
    blkarray_t *list = h->entries;
    for (int32_t i = 0; i < n; ++i) {
        if (live[i]) continue;
        void **slot = slot_at(list, i);
        if (*slot && *slot != &tombstone) {
            free(*slot);
            *slot = &tombstone;
            c->freed += 1;
        }
    }
}

// Empties the tombstones' slots before pocketsphinx frees every entry of
// the history (a new utterance, a new dictionary, the search freed): it
// frees NULL as nothing.
static void bury(fsg_search_mirror_t *s) {
    blkarray_t *list = s->f.history ? s->f.history->entries : NULL;
    if (!list || list->blksize <= 0) return;
    for (int32_t i = 0; i < list->n_valid; ++i) {
        void **slot = slot_at(list, i);
        if (*slot == &tombstone) *slot = NULL;
    }
}

// Readies the collector for a history about to be emptied: no tombstones
// left for pocketsphinx to free, nothing collected yet.
static void start_over(collector_t *c, fsg_search_mirror_t *s) {
    bury(s);
    c->collected_at = 0;
    c->frames_since = 0;
}

static int collector_start(void *search) {
    collector_t *c = *(collector_t **)search;
    start_over(c, search);
    return c->original->start(search);
}

static int collector_reinit(void *search, void *dict, void *d2p) {
    collector_t *c = *(collector_t **)search;
    bury(search);
    c->collected_at = 0;
    return c->original->reinit(search, dict, d2p);
}

static int collector_step(void *search, int frame_idx) {
    collector_t *c = *(collector_t **)search;
    int result = c->original->step(search, frame_idx);
    fsg_search_mirror_t *s = search;
    if (c->disabled || s->f.bestpath) return result;
    c->frames_since += 1;
    if (c->frames_since < EVERY_FRAMES) return result;
    c->frames_since = 0;
    int32_t n = fsg_history_n_entries(s->f.history);
    if (n - c->collected_at < MIN_NEW_ENTRIES) return result;
    collect(c, s);   // frees entries, adds none
    c->collected_at = n;
    return result;
}

static void collector_free(void *search) {
    collector_t *c = *(collector_t **)search;
    bury(search);
    *(searchfuncs_t **)search = c->original;
    c->original->free(search);
    free(c->live);
    free(c);
}

int hark_fsg_history_collector_install(void *decoder, const void *config, const void *fsg) {
    decoder_t *d = decoder;
    if (!d || !config || !fsg || d->config != config) return -1;
    search_t *search = hark_current_search(decoder, "fsg");
    if (!search) return -1;
    if (search->vt && search->vt->step == collector_step) return 1;
    fsg_search_mirror_t *s = (fsg_search_mirror_t *)search;
    history_t *h = s->f.history;
    if (s->f.fsg != fsg || !h || h->fsg != fsg || !s->f.lextree || s->f.bestpath) return -1;
    blkarray_t *list = h->entries;
    if (!list || list->blksize <= 0 || list->n_valid != fsg_history_n_entries(h)) return -1;
    for (int32_t i = 0; i < list->n_valid && i < 4; ++i)
        if (*slot_at(list, i) != fsg_history_entry_get(h, i)) return -1;
    collector_t *c = calloc(1, sizeof *c);
    if (!c) return -1;
    c->original = search->vt;
    c->functions = *search->vt;
    c->functions.start = collector_start;
    c->functions.step = collector_step;
    c->functions.reinit = collector_reinit;
    c->functions.free = collector_free;
    search->vt = &c->functions;
    return 1;
}

// The decoder's current search if the collector is installed on it (its
// layout checks held), else NULL.
static search_t *collected_search(void *decoder) {
    decoder_t *d = decoder;
    if (!d || !d->search || !d->search->vt || d->search->vt->step != collector_step) return NULL;
    return d->search;
}

uint64_t hark_fsg_history_collected(void *decoder) {
    search_t *search = collected_search(decoder);
    return search ? ((collector_t *)search->vt)->freed : 0;
}

int hark_fsg_history_release(void *decoder) {
    search_t *search = collected_search(decoder);
    if (!search) return -1;
    fsg_search_mirror_t *s = (fsg_search_mirror_t *)search;
    if (!s->f.history) return -1;
    start_over((collector_t *)search->vt, s);
    fsg_history_reset(s->f.history);
    return 0;
}

int32_t hark_fsg_history_held(void *decoder) {
    search_t *search = collected_search(decoder);
    if (!search) return -1;
    fsg_search_mirror_t *s = (fsg_search_mirror_t *)search;
    return s->f.history ? fsg_history_n_entries(s->f.history) : -1;
}

int hark_fsg_search_work(void *decoder, int64_t *models, int32_t *frames) {
    search_t *search = collected_search(decoder);
    if (!search) return -1;
    fsg_search_mirror_t *s = (fsg_search_mirror_t *)search;
    if (models) *models = s->f.n_hmm_eval;
    if (frames) *frames = s->f.frame;
    return 0;
}

int hark_fsg_search_final(void *decoder, int final) {
    search_t *search = collected_search(decoder);
    if (!search) return -1;
    fsg_search_mirror_t *s = (fsg_search_mirror_t *)search;
    int previous = s->f.final;
    s->f.final = final ? 1 : 0;
    return previous;
}
