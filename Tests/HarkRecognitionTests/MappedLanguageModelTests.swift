import CPocketSphinx
import Foundation
@testable import HarkRecognition
import Testing

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let pruned = repository.appendingPathComponent("models/dictation/language-model.lm.bin").path

/// An n-gram pass's decoder as pocketsphinx makes it from a model file.
private final class NGramDecoder {
    let decoder: OpaquePointer
    let dictionary: InMemoryFile
    init(model: AcousticModel, languageModel: String) throws {
        dictionary = try InMemoryFile(named: "probe", contents: "sil SIL\nbananas B AH N AE N AH Z\n")
        decoder = try PocketSphinxDecoder.makeDecoder(["-hmm": model.acousticModel, "-dict": dictionary.path, "-lm": languageModel],
                                                      modelPath: model.acousticModel)
    }
    deinit { ps_free(decoder) }

    /// Every trigram, bigram and unigram score over `words` (ids of the model).
    func scores(_ words: [Int32]) throws -> [Int32] {
        let model = try #require(PocketSphinxDecoder.languageModel(of: decoder))
        var out: [Int32] = []
        var used: Int32 = 0
        for (i, w) in words.enumerated() {
            let h1 = words[(i + 1) % words.count], h2 = words[(i + 7) % words.count]
            out.append(ngram_tg_score(model, w, h1, h2, &used))
            out.append(ngram_bg_score(model, w, h1, &used))
            out.append(ngram_tg_score(model, w, w, w, &used))
        }
        return out
    }
}

/// The n-gram pass reads its bigrams and trigrams from one mapping of the
/// model's file, shared by every decoder in the process, instead of from a
/// copy of them each.
@Suite struct MappedLanguageModelTests {
    @Test func scoresEveryNGramAsFromItsOwnCopy() throws {
        try #require(FileManager.default.fileExists(atPath: pruned), "no \(pruned): scripts/setup.sh runs scripts/prune-lm.py")
        let model = try AcousticModel()
        let first = try NGramDecoder(model: model, languageModel: pruned)
        let second = try NGramDecoder(model: model, languageModel: pruned)
        let lm = try #require(PocketSphinxDecoder.languageModel(of: first.decoder))
        let vocabulary = Int32(try #require(ngram_model_get_counts(lm))[0])
        // Frequent and rare words alike: every 97th of the model's, and pairs that are n-grams.
        var words = stride(from: Int32(1), to: vocabulary, by: 97).map { $0 }
        for text in ["please", "send", "more", "bananas", "the", "of", "to", "see", "you", "soon"] {
            let id = ngram_wid(lm, text)
            if id != NGRAM_INVALID_WID { words.append(id) }
        }
        let before = try first.scores(words)
        #expect(Set(before).count > 100, "scores that differ word by word")

        let mapped = try #require(MappedLanguageModel.map(first.decoder, file: pruned))
        #expect(mapped.bytes > 10_000_000)
        // The quantisation tables too: a probability and a back-off table of 2^16 floats for bigrams, probabilities for trigrams.
        #expect(mapped.quantisationBytes == 3 << 18)
        #expect(try first.scores(words) == before)

        // A second decoder reads the same mapping.
        let again = try #require(MappedLanguageModel.map(second.decoder, file: pruned))
        #expect(again.address == mapped.address)
        #expect(try second.scores(words) == before)
        again.unmap()
        mapped.unmap()
    }

    @Test func leavesAModelNotReadFromTheFileAsItIs() throws {
        try #require(FileManager.default.fileExists(atPath: pruned), "no \(pruned): scripts/setup.sh runs scripts/prune-lm.py")
        let model = try AcousticModel()
        let decoder = try NGramDecoder(model: model, languageModel: pruned)
        // Another file than the one the model was read from: the n-grams are not in it.
        let other = repository.appendingPathComponent("models/dictation/words.txt").path
        #expect(MappedLanguageModel.map(decoder.decoder, file: other) == nil)
        #expect(MappedLanguageModel.map(decoder.decoder, file: "/nonexistent/language-model.lm.bin") == nil)
    }
}
