// Only includes the real headers: pocketsphinx 0.8+5prealpha (Debian 12)
// and the sphinxbase pieces Hark calls directly (FSG building, logging,
// word classes of the n-gram model).
#include <pocketsphinx.h>
#include <sphinxbase/ckd_alloc.h>
#include <sphinxbase/err.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/hash_table.h>
#include <sphinxbase/jsgf.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/ngram_model.h>

// Mirrors of the leading fields of pocketsphinx 0.8+5prealpha's private
// structures that hold a decoder's Gaussian mixture model (ps_decoder_s in
// pocketsphinx_internal.h, acmod_s in acmod.h, ptm_mgau_s in ptm_mgau.h,
// gauden_t in ms_gauden.h, mmio_file_s in sphinxbase's mmio.c), read only
// by HarkRecognition's SharedModelParameters and SharedSenoneScores, which
// check each against the public API and the model's files before relying on it.
typedef struct hark_mmio_file_s {
    void *ptr;
    size_t mapsize;
} hark_mmio_file_t;

typedef struct hark_gauden_s {
    float ****mean;
    float ****var;
    float ***det;
    logmath_t *lmath;
    int32 n_mgau;
    int32 n_feat;
    int32 n_density;
    int32 *featlen;
} hark_gauden_t;

typedef struct hark_mgaufuncs_s {
    char const *name;
} hark_mgaufuncs_t;

typedef struct hark_ptm_mgau_s {
    hark_mgaufuncs_t *vt;
    int frame_idx;
    cmd_ln_t *config;
    hark_gauden_t *g;
    int32 n_sen;
    uint8 *sen2cb;
    uint8 ***mixw;
    hark_mmio_file_t *sendump_mmap;
    uint8 *mixw_cb;
    int16 max_topn;
    int16 ds_ratio;
} hark_ptm_mgau_t;

// bin_mdef_s in bin_mdef.h: the model definition's counts (the
// context-independent senones are the first n_ci_sen), read by
// SharedSenoneScores.
typedef struct hark_bin_mdef_s {
    int refcnt;
    int32 n_ciphone;
    int32 n_phone;
    int32 n_emit_state;
    int32 n_ci_sen;
    int32 n_sen;
} hark_bin_mdef_t;

typedef struct hark_acmod_s {
    cmd_ln_t *config;
    logmath_t *lmath;
    void *strings;
    fe_t *fe;
    feat_t *fcb;
    hark_bin_mdef_t *mdef;
    void *tmat;
    hark_ptm_mgau_t *mgau;
} hark_acmod_t;

// dictword_t and dict_t in dict.h: a dictionary's words and the table of
// their ids by spelling.
typedef struct hark_dictword_s {
    char *word;
    int16 *ciphone;
    int32 pronlen;
    int32 alt;
    int32 basewid;
} hark_dictword_t;

typedef struct hark_dict_s {
    int refcnt;
    hark_bin_mdef_t *mdef;
    hark_dictword_t *word;
    hash_table_t *ht;
    int32 max_words;
    int32 n_word;
} hark_dict_t;

typedef struct hark_ps_decoder_s {
    cmd_ln_t *config;
    int refcount;
    hark_acmod_t *acmod;
    hark_dict_t *dict;
} hark_ps_decoder_t;

// Mirrors of the leading fields of sphinxbase 5prealpha's private n-gram
// model structures (ngram_model_s in ngram_model_internal.h,
// ngram_model_trie_s in ngram_model_trie.h, lm_trie_s, base_s, middle_s and
// longest_s in lm_trie.h, the quantisation below), read only by HarkRecognition's
// MappedLanguageModel, which checks each against the public API and the
// model's file before it relies on it.
typedef struct hark_ngram_model_s {
    int refcount;
    uint32 *n_counts;
    int32 n_1g_alloc;
    int32 n_words;
    uint8 n;
    uint8 n_classes;
    uint8 writable;
    uint8 flags;
    logmath_t *lmath;
    float32 lw;
    int32 log_wip;
    int32 log_zero;
    char **word_str;
    hash_table_t *wid;
    int32 *tmp_wids;
    void **classes;
    void *funcs;
} hark_ngram_model_t;

typedef struct hark_lm_trie_base_s {
    uint8 word_bits;
    uint8 total_bits;
    uint32 word_mask;
    uint8 *base;
    uint32 insert_index;
    uint32 max_vocab;
} hark_lm_trie_base_t;

typedef struct hark_lm_trie_middle_s {
    hark_lm_trie_base_t base;
    uint8 next_mask_bits;
    uint32 next_mask;
    uint8 quant_bits;
    void *next_source;
} hark_lm_trie_middle_t;

typedef struct hark_lm_trie_longest_s {
    hark_lm_trie_base_t base;
    uint8 quant_bits;
} hark_lm_trie_longest_t;

// lm_trie_quant_s and bins_s in lm_trie_quant.c (NGRAM_MAX_ORDER is 5).
typedef struct hark_bins_s {
    float *begin;
    const float *end;
} hark_bins_t;

typedef struct hark_lm_trie_quant_s {
    hark_bins_t tables[4][2];
    hark_bins_t *longest;
    uint8 *mem;
    size_t mem_size;
    uint8 prob_bits;
    uint8 bo_bits;
    uint32 prob_mask;
    uint32 bo_mask;
} hark_lm_trie_quant_t;

typedef struct hark_lm_trie_s {
    uint8 *ngram_mem;
    size_t ngram_mem_size;
    void *unigrams;
    hark_lm_trie_middle_t *middle_begin;
    hark_lm_trie_middle_t *middle_end;
    hark_lm_trie_longest_t *longest;
    hark_lm_trie_quant_t *quant;
} hark_lm_trie_t;

typedef struct hark_ngram_model_trie_s {
    hark_ngram_model_t base;
    hark_lm_trie_t *trie;
} hark_ngram_model_trie_t;

// An anonymous file in memory (Linux's memfd_create, by its system call:
// Glibc declares the wrapper only for _GNU_SOURCE), for text pocketsphinx
// must read from a path: HarkRecognition's InMemoryFile. -1 where the
// kernel or the C library has no such call.
#include <unistd.h>
#include <sys/syscall.h>
static inline int hark_memfd_create(const char *name) {
#ifdef SYS_memfd_create
    return (int)syscall(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */);
#else
    (void)name;
    return -1;
#endif
}
