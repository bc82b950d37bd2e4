#include "CPocketSphinxShims.h"
#include "MixtureModelFunctions.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// A model's functions with the frame evaluation replaced: the model's
// table pointer points at `functions`, the first field.
typedef struct hook_s {
    mgau_functions_t functions;
    mgau_functions_t *original;
    void *mgau;
    hark_senone_share_t *share;
} hook_t;

#define HOOK_OF(mgau) ((hook_t *)(*(mgau_functions_t **)(mgau)))

// Frames kept: the reader follows the owner within a piece of a stream
// (a tenth of a second) or, decoding a whole utterance beside it, a few
// frames; a frame overwritten before the reader came is evaluated again.
enum { RING = 512 };
// How long a reader waits for a frame the owner said it would publish.
static const long WAIT_NS = 1000000000L;

struct hark_senone_share_s {
    hook_t owner, reader;
    int32_t senones, ci;
    int32_t streams;
    int32_t *lengths;

    pthread_mutex_t lock;
    pthread_cond_t published_cond;
    int publishing;      // between begin and end
    int32_t published;   // the owner's frames so far in this utterance
    int waiting;         // readers blocked on published_cond
    int64_t frames[RING];
    uint64_t hashes[RING];
    int16_t *scores;     // RING x ci
    uint64_t shared, evaluated;

    uint8_t *merged;     // the owner's list of active senones (its thread only)
    int32_t *ids;        // the reader's active senones (its thread only)
};

static uint64_t feature_hash(hark_senone_share_t *s, float **feat) {
    uint64_t h = 1469598103934665603ULL;
    for (int32_t f = 0; f < s->streams; ++f) {
        const unsigned char *bytes = (const unsigned char *)feat[f];
        size_t n = (size_t)s->lengths[f] * sizeof(float);
        for (size_t i = 0; i < n; ++i) {
            h ^= bytes[i];
            h *= 1099511628211ULL;
        }
    }
    return h;
}

static int owner_eval(void *mgau, int16_t *senscr, uint8_t *active, int32_t n_active,
                      float **feat, int32_t frame, int32_t compallsen) {
    hook_t *hook = HOOK_OF(mgau);
    hark_senone_share_t *s = hook->share;
    pthread_mutex_lock(&s->lock);
    int publishing = s->publishing;
    pthread_mutex_unlock(&s->lock);
    if (!publishing || frame < 0)
        return hook->original->frame_eval(mgau, senscr, active, n_active, feat, frame, compallsen);

    int rv;
    if (compallsen) {
        rv = hook->original->frame_eval(mgau, senscr, active, n_active, feat, frame, compallsen);
    } else {
        // The context-independent senones (the first ci), then the active
        // ones after them, as deltas (acmod_flags2list's encoding: a gap
        // over 255 is bridged by steps of 255, each one more senone).
        int32_t n = 0, last = 0, sen = 0;
        for (int32_t i = 0; i < s->ci; ++i) s->merged[n++] = i == 0 ? 0 : 1;
        last = s->ci - 1;
        for (int32_t i = 0; i < n_active; ++i) {
            sen += active[i];
            if (sen < s->ci) continue;
            int32_t delta = sen - last;
            while (delta > 255) { s->merged[n++] = 255; delta -= 255; }
            s->merged[n++] = (uint8_t)delta;
            last = sen;
        }
        rv = hook->original->frame_eval(mgau, senscr, s->merged, n, feat, frame, compallsen);
    }

    uint64_t hash = feature_hash(s, feat);
    pthread_mutex_lock(&s->lock);
    int slot = frame % RING;
    s->frames[slot] = frame;
    s->hashes[slot] = hash;
    memcpy(s->scores + (size_t)slot * s->ci, senscr, (size_t)s->ci * sizeof(int16_t));
    s->published = frame + 1;
    if (s->waiting) pthread_cond_broadcast(&s->published_cond);
    pthread_mutex_unlock(&s->lock);

    if (!compallsen && n_active > 0) {
        // The owner's own scores as they were: against the best of its
        // own active senones (the merged list's best may be one it did not ask for).
        int32_t best = INT32_MAX, sen = 0;
        for (int32_t i = 0; i < n_active; ++i) {
            sen += active[i];
            if (senscr[sen] < best) best = senscr[sen];
        }
        if (best != 0) {
            sen = 0;
            for (int32_t i = 0; i < n_active; ++i) {
                sen += active[i];
                senscr[sen] = (int16_t)(senscr[sen] - best);
            }
        }
    }
    return rv;
}

static void deadline_after(struct timespec *t, long ns) {
    clock_gettime(CLOCK_REALTIME, t);
    t->tv_nsec += ns % 1000000000L;
    t->tv_sec += ns / 1000000000L + t->tv_nsec / 1000000000L;
    t->tv_nsec %= 1000000000L;
}

static int reader_eval(void *mgau, int16_t *senscr, uint8_t *active, int32_t n_active,
                       float **feat, int32_t frame, int32_t compallsen) {
    hook_t *hook = HOOK_OF(mgau);
    hark_senone_share_t *s = hook->share;
    int usable = !compallsen && n_active > 0 && frame >= 0;
    int32_t sen = 0;
    for (int32_t i = 0; usable && i < n_active; ++i) {
        sen += active[i];
        if (sen >= s->ci) usable = 0;
        else s->ids[i] = sen;
    }
    if (!usable) {
        pthread_mutex_lock(&s->lock);
        s->evaluated++;
        pthread_mutex_unlock(&s->lock);
        return hook->original->frame_eval(mgau, senscr, active, n_active, feat, frame, compallsen);
    }
    uint64_t hash = feature_hash(s, feat);

    pthread_mutex_lock(&s->lock);
    if (s->publishing && s->published <= frame) {
        struct timespec deadline;
        deadline_after(&deadline, WAIT_NS);
        s->waiting++;
        while (s->publishing && s->published <= frame) {
            if (pthread_cond_timedwait(&s->published_cond, &s->lock, &deadline) == ETIMEDOUT) {
                // The owner stopped without saying so (a failed decode):
                // nobody waits for it again until it begins anew.
                s->publishing = 0;
                break;
            }
        }
        s->waiting--;
    }
    int slot = frame % RING;
    int found = s->frames[slot] == frame && s->hashes[slot] == hash;
    if (found) {
        const int16_t *scores = s->scores + (size_t)slot * s->ci;
        int32_t best = INT32_MAX;
        for (int32_t i = 0; i < n_active; ++i)
            if (scores[s->ids[i]] < best) best = scores[s->ids[i]];
        for (int32_t i = 0; i < n_active; ++i)
            senscr[s->ids[i]] = (int16_t)(scores[s->ids[i]] - best);
        s->shared++;
    } else {
        s->evaluated++;
    }
    pthread_mutex_unlock(&s->lock);
    if (!found)
        return hook->original->frame_eval(mgau, senscr, active, n_active, feat, frame, compallsen);
    return 0;
}

static void hook_install(hook_t *hook, void *mgau, hark_senone_share_t *s,
                         int (*eval)(void *, int16_t *, uint8_t *, int32_t, float **, int32_t, int32_t)) {
    mgau_functions_t **table = (mgau_functions_t **)mgau;
    hook->original = *table;
    hook->functions = **table;
    hook->functions.frame_eval = eval;
    hook->mgau = mgau;
    hook->share = s;
    *table = &hook->functions;
}

static void share_free(hark_senone_share_t *s) {
    free(s->lengths);
    free(s->scores);
    free(s->merged);
    free(s->ids);
    pthread_cond_destroy(&s->published_cond);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

hark_senone_share_t *hark_senone_share_install(void *owner_mgau, void *reader_mgau,
                                               int32_t senones, int32_t ci_senones,
                                               int32_t streams, const int32_t *stream_lengths) {
    if (!owner_mgau || !reader_mgau || owner_mgau == reader_mgau || senones <= 0 || ci_senones <= 0
        || ci_senones > senones || streams <= 0 || streams > 16 || !stream_lengths)
        return NULL;
    for (int32_t f = 0; f < streams; ++f)
        if (stream_lengths[f] <= 0 || stream_lengths[f] > 1024) return NULL;
    hark_senone_share_t *s = calloc(1, sizeof(*s));
    if (!s) return NULL;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->published_cond, NULL);
    s->senones = senones;
    s->ci = ci_senones;
    s->streams = streams;
    s->lengths = malloc((size_t)streams * sizeof(int32_t));
    s->scores = malloc((size_t)RING * (size_t)ci_senones * sizeof(int16_t));
    // At most every senone once, each gap bridged by steps of 255.
    s->merged = malloc((size_t)senones * 2 + 256);
    s->ids = malloc(((size_t)senones * 2 + 256) * sizeof(int32_t));
    if (!s->lengths || !s->scores || !s->merged || !s->ids) {
        share_free(s);
        return NULL;
    }
    memcpy(s->lengths, stream_lengths, (size_t)streams * sizeof(int32_t));
    for (int i = 0; i < RING; ++i) s->frames[i] = -1;
    hook_install(&s->owner, owner_mgau, s, owner_eval);
    hook_install(&s->reader, reader_mgau, s, reader_eval);
    return s;
}

void hark_senone_share_uninstall(hark_senone_share_t *s) {
    if (!s) return;
    *(mgau_functions_t **)s->owner.mgau = s->owner.original;
    *(mgau_functions_t **)s->reader.mgau = s->reader.original;
    share_free(s);
}

void hark_senone_share_begin(hark_senone_share_t *s) {
    pthread_mutex_lock(&s->lock);
    s->publishing = 1;
    s->published = 0;
    pthread_mutex_unlock(&s->lock);
}

void hark_senone_share_end(hark_senone_share_t *s) {
    pthread_mutex_lock(&s->lock);
    s->publishing = 0;
    if (s->waiting) pthread_cond_broadcast(&s->published_cond);
    pthread_mutex_unlock(&s->lock);
}

void hark_senone_share_counts(hark_senone_share_t *s, uint64_t *shared, uint64_t *evaluated) {
    pthread_mutex_lock(&s->lock);
    if (shared) *shared = s->shared;
    if (evaluated) *evaluated = s->evaluated;
    pthread_mutex_unlock(&s->lock);
}
