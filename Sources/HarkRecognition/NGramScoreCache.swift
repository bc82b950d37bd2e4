import CPocketSphinx
import CPocketSphinxShims

/// A cache in front of an n-gram model's scoring: the confidence's phone
/// model, which the allphone search asks for about 50,000 different phone
/// trigrams in a five-second utterance, 1,500 a frame, and the same ones in
/// the next (sphinxbase looked each up in its trie every time: on barista-dev
/// on one core, a real-time factor of 0.046 with it, 0.038 without).
///
/// Only a small vocabulary (a phone model's: at most 64 words) is cached,
/// in dense tables of every n-gram up to trigrams (about 400 KB for en-us's
/// 43 phones, resident where asked). The scores are the model's own: the
/// first question asks the model and keeps the answer; changing the model's weights or vocabulary empties the cache,
/// and freeing the model frees it (see the `CPocketSphinxShims` header).
/// The model's table of functions is private to sphinxbase 5prealpha (the
/// `hark_ngram_model_t` mirror in the `CPocketSphinx` shim): the mirror is
/// checked against the public API first, and the cache against the model's
/// own scores once installed.
enum NGramScoreCache {
    /// Puts a cache in front of `model`'s scoring (a model read with
    /// `ngram_model_read` and `logmath`); false, with nothing changed,
    /// unless the private layout holds and the vocabulary is small.
    static func install(on model: OpaquePointer, logmath: OpaquePointer) -> Bool {
        let m = UnsafeMutableRawPointer(model).assumingMemoryBound(to: hark_ngram_model_t.self)
        guard let counts = ngram_model_get_counts(model), m.pointee.n_counts == counts,
              Int32(m.pointee.n) == ngram_model_get_size(model), m.pointee.n >= 1, m.pointee.n <= 6,
              m.pointee.lmath == logmath, m.pointee.funcs != nil,
              m.pointee.n_words > 0, Int(m.pointee.n_words) >= Int(counts[0])
        else { return false }
        // The model's answers to some questions, to compare with the cache's.
        let words = Int32(counts[0])
        let probes: [(Int32, Int32, Int32)] = (0..<64).map { i in
            let i = Int32(i)
            return ((i * 7) % words, (i * 13 + 1) % words, (i * 29 + 2) % words)
        }
        let before = probes.map { score(model, $0) }
        let installed = withUnsafeMutablePointer(to: &m.pointee.funcs) { hark_ngram_score_cache_install(UnsafeMutableRawPointer(model), $0, m.pointee.n_words) }
        guard installed == 0 else { return false }
        // Asked twice: the first answer is the model's, the second the cache's.
        precondition(probes.map { score(model, $0) } == before && probes.map { score(model, $0) } == before,
                     "the n-gram score cache answered differently from its model")
        return true
    }

    /// `model`'s trigram score of `words.0` after `words.1`, `words.2`, and the n-gram length used.
    private static func score(_ model: OpaquePointer, _ words: (Int32, Int32, Int32)) -> [Int32] {
        var used: Int32 = 0
        let score = ngram_tg_score(model, words.0, words.1, words.2, &used)
        return [score, used]
    }

    /// Asks the model every n-gram the cache has a place for (the cache must
    /// be installed): from then on the model's own tables are not read,
    /// unless its weights or vocabulary change.
    static func fill(_ model: OpaquePointer) {
        hark_ngram_score_cache_fill(UnsafeMutableRawPointer(model))
    }

    /// Scores the cache answered and scores the model computed (the cache must be installed).
    static func counts(of model: OpaquePointer) -> (hits: Int, misses: Int) {
        var hits: UInt64 = 0, misses: UInt64 = 0
        hark_ngram_score_cache_counts(UnsafeMutableRawPointer(model), &hits, &misses)
        return (Int(hits), Int(misses))
    }
}
