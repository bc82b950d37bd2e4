#include "CPocketSphinxShims.h"
#include "MixtureModelFunctions.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Exactly the arithmetic pocketsphinx's compiled code does: one rounding
// per operation, never a fused multiply-add.
#pragma clang fp contract(off)

// pocketsphinx 0.8+5prealpha's phonetically-tied mixture model (ptm_mgau_s
// in ptm_mgau.h, gauden_t in ms_gauden.h). The caller (HarkRecognition's
// FastGaussians) checks the layout against the public API before installing.

typedef struct {
    float ****mean;
    float ****var;
    float ***det;
    void *lmath;
    int32_t n_mgau;
    int32_t n_feat;
    int32_t n_density;
    int32_t *featlen;
} gaussians_t;

typedef struct { int32_t cw, score; } topn_t;
typedef struct { topn_t ***topn; uint32_t *mgau_active; } fast_eval_t;

typedef struct {
    mgau_functions_t *vt;
    int frame_idx;
    void *config;
    gaussians_t *g;
    int32_t n_sen;
    uint8_t *sen2cb;
    uint8_t ***mixw;
    void *sendump_mmap;
    uint8_t *mixw_cb;
    int16_t max_topn;
    int16_t ds_ratio;
    fast_eval_t *hist;
    fast_eval_t *f;
    int n_fast_hist;
} ptm_t;

enum { SENSCR_SHIFT = 10, MAX_NEG_ASCR = 96, MAX_DENSITIES = 1024 };
#define WORST_SCORE ((int)0xE0000000)

// Every ptm model shares pocketsphinx's one table of functions; Hark's copy
// differs in the frame evaluation alone.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mgau_functions_t original, fast;
static int ready;

typedef float v8 __attribute__((vector_size(32)));

// A codeword's score as eval_topn and eval_cb compute it, one dimension at
// a time in order, reading the block's transposed layout
// (dimension-major: block[j * n_density + cw]).
static float score_one(const float *mean, const float *var, float det, const float *z, int ceplen, int nd, int cw) {
    float d = det;
    for (int j = 0; j < ceplen; ++j) {
        float diff = z[j] - mean[j * nd + cw];
        float sq = diff * diff;
        d = d - sq * var[j * nd + cw];
    }
    return d;
}

static void insertion_sort_topn(topn_t *topn, int i, int32_t d) {
    topn[i].score = d;
    if (i == 0) return;
    topn_t tmp = topn[i];
    int j;
    for (j = i - 1; j >= 0 && d > topn[j].score; j--) topn[j + 1] = topn[j];
    topn[j + 1] = tmp;
}

static void insertion_sort_cb(topn_t **cur, topn_t *worst, topn_t *best, int cw, int32_t intd) {
    for (*cur = worst - 1; *cur >= best && intd >= (*cur)->score; --*cur) memcpy(*cur + 1, *cur, sizeof(**cur));
    ++*cur;
    (*cur)->cw = cw;
    (*cur)->score = intd;
}

static void eval_topn(ptm_t *s, int cb, int feat, const float *z) {
    topn_t *topn = s->f->topn[cb][feat];
    int ceplen = s->g->featlen[feat], nd = s->g->n_density;
    const float *mean = s->g->mean[cb][feat][0], *var = s->g->var[cb][feat][0];
    for (int i = 0; i < s->max_topn; i++) {
        int cw = topn[i].cw;
        float d = score_one(mean, var, s->g->det[cb][feat][cw], z, ceplen, nd, cw);
        insertion_sort_topn(topn, i, d < (float)INT_MIN ? INT_MIN : (int32_t)d);
    }
}

// eval_cb, the same result: every codeword's score computed whole, eight
// at a time, then offered to the top-N in codeword order. pocketsphinx
// stops a codeword's sum once it falls below the worst of the top-N; the
// sum only falls (each term is a square times a positive precision), so a
// codeword stopped early is one whose whole score is below it too.
static void eval_cb(ptm_t *s, int cb, int feat, const float *z) {
    topn_t *best = s->f->topn[cb][feat], *topn = best, *worst = topn + (s->max_topn - 1);
    int ceplen = s->g->featlen[feat], nd = s->g->n_density;
    const float *mean = s->g->mean[cb][feat][0], *var = s->g->var[cb][feat][0], *det = s->g->det[cb][feat];
    float scores[MAX_DENSITIES] __attribute__((aligned(32)));
    for (int k = 0; k < nd; k += 8) {
        v8 d;
        memcpy(&d, det + k, sizeof d);
        for (int j = 0; j < ceplen; ++j) {
            v8 m, v;
            memcpy(&m, mean + j * nd + k, sizeof m);
            memcpy(&v, var + j * nd + k, sizeof v);
            v8 diff = z[j] - m;
            v8 sq = diff * diff;
            d = d - sq * v;
        }
        memcpy(scores + k, &d, sizeof d);
    }
    for (int cw = 0; cw < nd; ++cw) {
        float d = scores[cw];
        float thresh = (float)worst->score;
        if (!(d >= thresh)) continue;
        int i;
        for (i = 0; i < s->max_topn; i++)
            if (topn[i].cw == cw) break;
        if (i < s->max_topn) continue;
        topn_t *cur;
        insertion_sort_cb(&cur, worst, best, cw, d < (float)INT_MIN ? INT_MIN : (int32_t)d);
    }
}

static int is_active(const uint32_t *v, int b) { return (v[b / 32] >> (b % 32)) & 1; }

static void calc_cb_active(ptm_t *s, const uint8_t *active, int32_t n_active, int32_t compallsen) {
    size_t words = (size_t)(s->g->n_mgau + 31) / 32;
    if (compallsen) {
        memset(s->f->mgau_active, 0xff, words * sizeof(uint32_t));
        return;
    }
    memset(s->f->mgau_active, 0, words * sizeof(uint32_t));
    for (int32_t last = 0, i = 0; i < n_active; ++i) {
        int sen = active[i] + last;
        int cb = s->sen2cb[sen];
        s->f->mgau_active[cb / 32] |= 1u << (cb % 32);
        last = sen;
    }
}

static void codebook_norm(ptm_t *s) {
    for (int j = 0; j < s->g->n_feat; ++j) {
        int32_t norm = WORST_SCORE;
        for (int i = 0; i < s->g->n_mgau; ++i) {
            if (!is_active(s->f->mgau_active, i)) continue;
            if (norm < s->f->topn[i][j][0].score >> SENSCR_SHIFT) norm = s->f->topn[i][j][0].score >> SENSCR_SHIFT;
        }
        for (int i = 0; i < s->g->n_mgau; ++i) {
            if (!is_active(s->f->mgau_active, i)) continue;
            for (int k = 0; k < s->max_topn; ++k) {
                topn_t *t = &s->f->topn[i][j][k];
                t->score >>= SENSCR_SHIFT;
                t->score -= norm;
                t->score = -t->score;
                if (t->score > MAX_NEG_ASCR) t->score = MAX_NEG_ASCR;
            }
        }
    }
}

// ptm_mgau_frame_eval with Hark's codebook evaluation: the top-N of the
// frame found here, then pocketsphinx's own senone evaluation over them
// (asked as for a frame already evaluated, so it uses this top-N).
static int fast_eval(void *mgau, int16_t *senscr, uint8_t *active, int32_t n_active,
                     float **feat, int32_t frame, int32_t compallsen) {
    ptm_t *s = mgau;
    if (frame < s->frame_idx)
        return original.frame_eval(mgau, senscr, active, n_active, feat, frame, compallsen);
    int idx = frame % s->n_fast_hist;
    fast_eval_t *lastf = idx == 0 ? s->hist + s->n_fast_hist - 1 : s->hist + idx - 1;
    s->f = s->hist + idx;
    memcpy(s->f->topn[0][0], lastf->topn[0][0],
           (size_t)s->g->n_mgau * (size_t)s->g->n_feat * (size_t)s->max_topn * sizeof(topn_t));
    calc_cb_active(s, active, n_active, compallsen);
    for (int i = 0; i < s->g->n_mgau; ++i)
        for (int j = 0; j < s->g->n_feat; ++j) eval_topn(s, i, j, feat[j]);
    if (frame % s->ds_ratio == 0) {
        for (int i = 0; i < s->g->n_mgau; ++i) {
            if (!is_active(s->f->mgau_active, i)) continue;
            for (int j = 0; j < s->g->n_feat; ++j) eval_cb(s, i, j, feat[j]);
        }
    }
    codebook_norm(s);
    int saved = s->frame_idx;
    s->frame_idx = frame + 1;
    int rv = original.frame_eval(mgau, senscr, active, n_active, feat, frame, compallsen);
    s->frame_idx = saved;
    return rv;
}

// Each codebook's block of codewords for a stream, codeword-major
// (block[cw * len + j]), rewritten dimension-major (block[j * nd + cw]).
static void transpose(float ****table, const gaussians_t *g, float *scratch) {
    for (int i = 0; i < g->n_mgau; ++i)
        for (int j = 0; j < g->n_feat; ++j) {
            float *block = table[i][j][0];
            int len = g->featlen[j], nd = g->n_density;
            for (int cw = 0; cw < nd; ++cw)
                for (int d = 0; d < len; ++d) scratch[d * nd + cw] = block[cw * len + d];
            memcpy(block, scratch, (size_t)len * (size_t)nd * sizeof(float));
        }
}

int hark_fast_gaussians_install(void *mgau) {
    ptm_t *s = mgau;
    if (!s || !s->vt || !s->vt->name || strcmp(s->vt->name, "ptm") != 0 || !s->g) return 0;
    const gaussians_t *g = s->g;
    if (g->n_density <= 0 || g->n_density % 8 != 0 || g->n_density > MAX_DENSITIES || g->n_mgau <= 0
        || g->n_feat <= 0 || s->max_topn <= 0 || s->max_topn > g->n_density || s->ds_ratio <= 0
        || s->n_fast_hist <= 0 || !s->hist || !s->sen2cb)
        return 0;
    size_t largest = 0;
    for (int j = 0; j < g->n_feat; ++j) {
        if (g->featlen[j] <= 0) return 0;
        if ((size_t)g->featlen[j] > largest) largest = (size_t)g->featlen[j];
    }
    float *scratch = malloc(largest * (size_t)g->n_density * sizeof(float));
    if (!scratch) return 0;
    pthread_mutex_lock(&lock);
    if (!ready) {
        original = *s->vt;
        fast = original;
        fast.frame_eval = fast_eval;
        ready = 1;
    }
    // Only a model with pocketsphinx's own functions (not yet Hark's, nor another's).
    int ok = s->vt->frame_eval == original.frame_eval && s->vt->free == original.free;
    if (ok) {
        transpose(g->mean, g, scratch);
        transpose(g->var, g, scratch);
        s->vt = &fast;
    }
    pthread_mutex_unlock(&lock);
    free(scratch);
    return ok;
}

int hark_fast_gaussians_installed(void *mgau) {
    ptm_t *s = mgau;
    return s && s->vt == &fast;
}
