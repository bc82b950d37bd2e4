#ifndef C_POCKETSPHINX_SHIMS_H
#define C_POCKETSPHINX_SHIMS_H

#include <stdint.h>

/// One decoder's scores of the context-independent senones handed to
/// another decoder hearing the same audio, so that the Gaussians of a frame
/// are evaluated once: HarkRecognition's SharedSenoneScores (the grammar
/// pass the owner, the confidence's phone pass the reader).
///
/// Both arguments are pocketsphinx 0.8+5prealpha phonetically-tied mixture
/// models (`ptm_mgau_t`, reached through the `hark_*` mirrors of the
/// CPocketSphinx shim and checked by the caller). Installing replaces each
/// one's table of functions with a copy whose frame evaluation is Hark's:
///
/// - The owner's, while publishing (between `begin` and `end`), evaluates
///   the context-independent senones (the first `ci_senones`) beside its own
///   active ones, keeps their scores and a hash of the frame's features,
///   and gives its own search the scores it would have had (normalised
///   against the best of its own active senones, as pocketsphinx does).
/// - The reader's, when every active senone is context-independent, waits
///   for the owner's frame while the owner publishes, and takes its scores
///   when the owner heard the same features in that frame (normalised
///   against the best of the reader's active senones); otherwise it
///   evaluates the frame itself, as before.
///
/// Written in C because pocketsphinx calls the frame evaluation through a
/// function pointer on its decoding thread.
typedef struct hark_senone_share_s hark_senone_share_t;

/// Installs the share; NULL (nothing changed) when memory runs out or a
/// count is out of range.
hark_senone_share_t *hark_senone_share_install(void *owner_mgau, void *reader_mgau,
                                               int32_t senones, int32_t ci_senones,
                                               int32_t streams, const int32_t *stream_lengths);

/// Puts both models' own functions back and frees the share. Call before
/// either decoder is freed.
void hark_senone_share_uninstall(hark_senone_share_t *share);

/// The owner publishes the frames it evaluates from now on (an utterance
/// the reader hears too starts).
void hark_senone_share_begin(hark_senone_share_t *share);

/// The owner stops publishing; a reader waiting for a frame evaluates it
/// itself.
void hark_senone_share_end(hark_senone_share_t *share);

/// Frames the reader took from the owner, and frames it evaluated itself
/// (while installed).
void hark_senone_share_counts(hark_senone_share_t *share, uint64_t *shared, uint64_t *evaluated);

/// Frees, as a grammar (FSG) search goes, the entries of its word-exit
/// history that no path it still follows can reach: pocketsphinx keeps
/// every word exit of the utterance (1.2 million, 57 MB, in 4 s of noisy
/// speech with every sample app), of which 5,000-14,000 are reachable at any
/// time: the histories of the active HMMs, the latest frame's exits, and
/// what they descend from. Every 50 frames, when 20,000 entries came since
/// the last time; what is heard is unchanged (HarkRecognition's
/// HistoryCollectorTests decode with and without it).
///
/// `decoder` is a pocketsphinx 0.8+5prealpha `ps_decoder_t` whose current
/// search is the FSG search of `fsg` (`ps_get_fsg`), `config` its
/// `ps_get_config`. Installing wraps the search's table of functions: its
/// frame step, and its start, reinit and free, which empty the freed
/// entries' slots before pocketsphinx frees the table (free also puts the
/// table back). Returns 1 when
/// installed (or already), -1 when the search is not such a search or its
/// structures are not laid out as expected (nothing changed).
int hark_fsg_history_collector_install(void *decoder, const void *config, const void *fsg);

/// History entries the collector of the decoder's current search has freed
/// (0 without one).
uint64_t hark_fsg_history_collected(void *decoder);

/// Frees every word exit of the decoder's grammar search once the ended
/// utterance's words have been read (`ps_seg_iter`, `ps_get_hyp`): what
/// pocketsphinx would otherwise keep until the next utterance starts
/// (1-6 MB in noisy speech with every sample app), held while the answer
/// is found and spoken. After it the utterance has no hypothesis or
/// segments left to read; the next utterance starts as it would anyway.
/// 0 when freed, -1 unless the history collector is installed on the
/// current search (nothing changed).
int hark_fsg_history_release(void *decoder);

/// Lets go of what the decoder's n-gram search kept of the utterance it
/// ended, once its words are read (`ps_seg_iter`, `ps_get_hyp`): the word
/// lattice built to read them, and the pages of its backpointer and
/// right-context score tables. pocketsphinx grows those tables by doubling
/// as a long or noisy utterance adds word exits and never shrinks them
/// (about 3 MB after noisy speech with the dictation's 40,000 words), so
/// they would stay resident until the next utterance, beside what the
/// answer needs. The tables keep their size; their pages are given
/// back (`MADV_DONTNEED`) and read again as zeros when the next utterance
/// writes them from the first entry. After it the search reads as an
/// utterance of no frames: no hypothesis, no segments, no lattice.
///
/// `decoder` is a pocketsphinx 0.8+5prealpha `ps_decoder_t`. Returns 0, or
/// -1 (nothing changed) unless its current search is an n-gram search laid
/// out as expected (checked against `ps_get_lm`, `-latsize` and the
/// tables' allocations) whose utterance has ended.
int hark_ngram_search_release(void *decoder);

/// The bytes of the decoder's n-gram search's backpointer and score
/// tables, and how many of them are resident (whole pages, `mincore`).
/// Returns 0, or -1 unless the current search is such a search.
int hark_ngram_search_tables(void *decoder, int64_t *bytes, int64_t *resident_bytes);

/// Frees the history of the decoder's phone-loop (allphone) search once
/// the ended utterance's phones are read: an entry for every phone model
/// alive in every frame (about 40 a frame, 0.6 MB in 4.5 s), and the best
/// path's segments, which pocketsphinx would keep until the next utterance
/// starts. After it the search has no phones to read.
///
/// Returns 0, or -1 (nothing changed) unless the decoder's current search
/// is a pocketsphinx 0.8+5prealpha allphone search laid out as expected
/// (checked against the configuration and its history list's counts).
int hark_allphone_search_release(void *decoder);

/// The history entries the decoder's phone-loop search holds; -1 unless
/// its current search is such a search.
int32_t hark_allphone_search_held(void *decoder);

/// The word exits the decoder's grammar search holds now (freed ones
/// included, as pocketsphinx counts them); -1 unless the history
/// collector is installed on the current search.
int32_t hark_fsg_history_held(void *decoder);

/// The work of the decoder's grammar search in the utterance it last
/// heard (or is hearing): the phone models (HMMs) it evaluated, summed
/// over its frames (pocketsphinx's `n_hmm_eval`, which it logs at the end
/// of an utterance), and the frames. -1 unless the history collector is
/// installed on the current search (its layout checks hold).
int hark_fsg_search_work(void *decoder, int64_t *models, int32_t *frames);

/// Sets whether the decoder's grammar search reads its hypothesis and
/// segments (`ps_get_hyp`, `ps_seg_iter`) as at the end of an utterance,
/// from the best path that ends in the grammar's final state, or as
/// pocketsphinx does while the utterance goes on, from the best path of
/// any state. pocketsphinx sets it itself when an utterance starts (off)
/// and ends (on); the search's steps do not read it. Returns the previous
/// setting (0 or 1), or -1 unless the history collector is installed on
/// the current search (its layout checks hold; nothing changed).
int hark_fsg_search_final(void *decoder, int final);

#endif

#ifndef C_POCKETSPHINX_SHIMS_SCORE_CACHE
#define C_POCKETSPHINX_SHIMS_SCORE_CACHE

/// A cache of an n-gram model's scores in front of its own scoring:
/// HarkRecognition's NGramScoreCache, for the confidence's phone model,
/// which the allphone search asks for tens of thousands of phone trigrams in
/// an utterance, the same in the next (sphinxbase looks each up in its trie
/// every time).
///
/// `functions` is the address of `model`'s pointer to its table of
/// functions (`ngram_model_s.funcs`, reached through the CPocketSphinx
/// shim's mirror and checked by the caller); the table is replaced with a copy whose
/// scoring asks the cache first. Changing the model's weights, adding a
/// word or flushing it empties the cache; freeing the model frees it.
/// One thread at a time may score with the model, as with sphinxbase's own.
/// `words` is the model's vocabulary: every n-gram of up to three of them
/// has its place in dense tables (`words`^3 entries of 5 bytes, resident
/// only where asked), so only small vocabularies (64 words at most).
/// Returns 0, or -1 with nothing changed (a larger vocabulary, no memory).
int hark_ngram_score_cache_install(void *model, void **functions, int32_t words);

/// Scores the cache answered, and scores the model computed, since installed.
/// Asks the model every n-gram the cache has a place for, so that it is
/// never asked again (`model` must have the cache installed).
void hark_ngram_score_cache_fill(void *model);

/// `model` must have the cache installed.
void hark_ngram_score_cache_counts(void *model, uint64_t *hits, uint64_t *misses);

#endif

#ifndef C_POCKETSPHINX_SHIMS_FAST_GAUSSIANS
#define C_POCKETSPHINX_SHIMS_FAST_GAUSSIANS

/// pocketsphinx 0.8+5prealpha's phonetically-tied mixture model (`ptm`,
/// Debian's en-us) evaluated with the same arithmetic, eight codewords at a
/// time: HarkRecognition's FastGaussians.
///
/// pocketsphinx finds each frame's best codewords by scoring them one at a
/// time, dimension by dimension, stopping a codeword once it falls below
/// the worst kept. Installed, the model's means and variances are rewritten
/// dimension-major (each codebook's block in place), its frame evaluation
/// scores every codeword of an active codebook at once in vectors and then
/// keeps the best in codeword order, as pocketsphinx would have: each
/// codeword's score is summed in the same order with the same roundings,
/// and one pocketsphinx would have stopped early scores below the worst
/// kept in the end too (its sum only falls). pocketsphinx's own senone
/// evaluation then reads the best codewords as before.
///
/// Install on a decoder's model once, right after the decoder is made and
/// before its Gaussians are lent to or borrowed from another decoder: from
/// then on only the installed evaluation may read them. Returns 1 when
/// installed, 0 (nothing changed) when the model is not a ptm model with
/// pocketsphinx's own functions or its counts are out of range.
int hark_fast_gaussians_install(void *mgau);

/// Whether the model evaluates with Hark's codebook evaluation.
int hark_fast_gaussians_installed(void *mgau);

/// The grammar search's lexicon-tree nodes held in Hark's slabs
/// (LexTreeNodes.c) rather than one heap block each: how many are live, and
/// in how many 64 KiB slabs. Both 0 when the tool's definitions of
/// sphinxbase's `__ckd_calloc__` and `ckd_free` are not the ones
/// libpocketsphinx calls.
void hark_lextree_nodes_counts(uint64_t *nodes, uint64_t *slabs);

/// Whether `pointer` lies in the lexicon-tree nodes' slabs.
int hark_lextree_nodes_holds(const void *pointer);

#endif
