#ifndef HARK_MIXTURE_MODEL_FUNCTIONS_H
#define HARK_MIXTURE_MODEL_FUNCTIONS_H

#include <stdint.h>

// pocketsphinx 0.8+5prealpha's table of a mixture model's functions
// (ps_mgaufuncs_t in acmod.h); a model's first field points at it. mfcc_t
// is float in Debian's build (not FIXED_POINT). Read and replaced by the
// frame-evaluation hooks of this target (SenoneShare.c, FastGaussians.c).
typedef struct mgau_functions_s {
    char const *name;
    int (*frame_eval)(void *mgau, int16_t *senscr, uint8_t *senone_active, int32_t n_senone_active,
                      float **feat, int32_t frame, int32_t compallsen);
    int (*transform)(void *mgau, void *mllr);
    void (*free)(void *mgau);
} mgau_functions_t;

#endif
