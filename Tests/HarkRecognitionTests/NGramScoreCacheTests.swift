import CPocketSphinx
import Foundation
@testable import HarkRecognition
import Testing

/// What reading an n-gram model file takes: a configuration and a
/// log-math object, freed with it (keep it alive while its models are used:
/// they score with its log-math object).
private final class ModelReader {
    let config: OpaquePointer
    let logmath: OpaquePointer

    init() throws {
        config = try #require(cmd_ln_parse_r(nil, ps_args(), 0, nil, 0))
        logmath = try #require(logmath_init(1.0001, 0, 0))
    }
    deinit {
        logmath_free(logmath)
        cmd_ln_free_r(config)
    }

    /// The model in `path` (the caller frees it).
    func read(_ path: String) throws -> OpaquePointer {
        try #require(ngram_model_read(config, path, NGRAM_AUTO, logmath))
    }

    /// The acoustic model's phone n-gram model file.
    static func phoneModel() throws -> String {
        try #require(try AcousticModel().phoneLanguageModel, "Debian's en-us has a phone n-gram model")
    }
}

/// The phone model's scores asked of a cache in front of it are the model's own.
@Suite struct NGramScoreCacheTests {
    /// Every trigram and bigram score over the model's words, and the n-gram length each used.
    private func scores(_ model: OpaquePointer) -> [Int32] {
        let words = Int32(ngram_model_get_counts(model)![0])
        var out: [Int32] = []
        var used: Int32 = 0
        for w in 0..<words {
            for h1 in 0..<words {
                out.append(ngram_bg_score(model, w, h1, &used)); out.append(used)
                for h2 in stride(from: Int32(0), to: words, by: 3) {
                    out.append(ngram_tg_score(model, w, h1, h2, &used)); out.append(used)
                }
            }
        }
        return out
    }

    @Test("a cached model scores every n-gram as the model does, after its weights change too")
    func sameScores() throws {
        let reader = try ModelReader(), path = try ModelReader.phoneModel()
        defer { withExtendedLifetime(reader) {} }
        let plain = try reader.read(path)
        defer { ngram_model_free(plain) }
        let cached = try reader.read(path)
        defer { ngram_model_free(cached) }

        let expected = scores(plain)
        #expect(Set(expected).count > 1_000, "scores that differ n-gram by n-gram")
        #expect(NGramScoreCache.install(on: cached, logmath: reader.logmath))
        #expect(scores(cached) == expected)
        #expect(scores(cached) == expected)
        let (hits, misses) = NGramScoreCache.counts(of: cached)
        #expect(hits > 0 && misses > 0)

        // New weights empty the cache: the scores follow the model.
        ngram_model_apply_weights(plain, 9.5, 0.5)
        ngram_model_apply_weights(cached, 9.5, 0.5)
        let reweighted = scores(plain)
        #expect(reweighted != expected)
        #expect(scores(cached) == reweighted)
    }

    @Test("filled, the cache answers every phone n-gram without the model, whose tables are read from the file and given back")
    func filledFromAMapping() throws {
        let reader = try ModelReader(), path = try ModelReader.phoneModel()
        defer { withExtendedLifetime(reader) {} }
        let plain = try reader.read(path)
        defer { ngram_model_free(plain) }
        let cached = try reader.read(path)
        let expected = scores(plain)

        #expect(NGramScoreCache.install(on: cached, logmath: reader.logmath))
        let mapped = try #require(MappedLanguageModel.map(cached, logmath: reader.logmath, file: path))
        #expect(mapped.bytes > 50_000 && mapped.quantisationBytes == 3 << 18)
        NGramScoreCache.fill(cached)
        let filled = NGramScoreCache.counts(of: cached)
        #expect(filled.misses == 43 * (1 + 43 + 43 * 43), "every phone n-gram asked once")
        mapped.releasePages()
        #expect(scores(cached) == expected)
        #expect(NGramScoreCache.counts(of: cached).misses == filled.misses, "nothing asked of the model again")
        ngram_model_free(cached)
        mapped.unmap()
    }

    @Test("a model whose layout is not sphinxbase 5prealpha's is left as it is")
    func wrongLogMath() throws {
        let reader = try ModelReader(), other = try ModelReader()
        defer { withExtendedLifetime((reader, other)) {} }
        let lm = try reader.read(try ModelReader.phoneModel())
        defer { ngram_model_free(lm) }
        // The log-math object is how the checks recognise the model's fields.
        #expect(!NGramScoreCache.install(on: lm, logmath: other.logmath))
    }

    @Test("a vocabulary larger than a phone model's is not cached")
    func largeVocabulary() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("models/dictation/language-model.lm.bin").path
        try #require(FileManager.default.fileExists(atPath: path), "no \(path): scripts/setup.sh runs scripts/prune-lm.py")
        let reader = try ModelReader()
        defer { withExtendedLifetime(reader) {} }
        let lm = try reader.read(path)
        defer { ngram_model_free(lm) }
        #expect(try #require(ngram_model_get_counts(lm))[0] > 10_000)
        #expect(!NGramScoreCache.install(on: lm, logmath: reader.logmath))
    }
}
