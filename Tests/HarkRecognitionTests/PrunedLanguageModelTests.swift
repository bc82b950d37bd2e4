import CPocketSphinx
import Foundation
import HarkGrammar
@testable import HarkRecognition
import Testing

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let pruned = repository.appendingPathComponent("models/dictation/language-model.lm.bin").path

/// An n-gram model read with sphinxbase, freed with the value.
private final class NGramModel {
    let model: OpaquePointer
    let logmath: OpaquePointer
    init(_ path: String) throws {
        logmath = logmath_init(1.0001, 0, 0)
        guard let model = ngram_model_read(nil, path, NGRAM_AUTO, logmath) else {
            logmath_free(logmath)
            throw RecognitionError("sphinxbase could not read \(path)")
        }
        self.model = model
    }
    deinit {
        ngram_model_free(model)
        logmath_free(logmath)
    }

    var counts: [Int] {
        let n = Int(ngram_model_get_size(model))
        guard let counts = ngram_model_get_counts(model) else { return [] }
        return (0..<n).map { Int(counts[$0]) }
    }

    /// The model's words, by id.
    var words: [String] {
        (0..<Int32(counts[0])).map { String(cString: ngram_word(model, $0)) }
    }

    /// The sum of P(w | history) over `words` (nil: every word the model
    /// has) but <s>: 1 over every word for a model whose backoff weights are right.
    func totalProbability(after history: [String], over words: [String]? = nil) -> Double {
        var ids = history.reversed().map { ngram_wid(model, $0) }
        let start = ngram_wid(model, "<s>")
        var total = 0.0
        let wids = words.map { $0.map { ngram_wid(model, $0) } } ?? Array(0..<Int32(counts[0]))
        for wid in wids where wid != start {
            var used: Int32 = 0
            let lp = ngram_ng_prob(model, wid, &ids, Int32(ids.count), &used)
            total += logmath_exp(logmath, lp)
        }
        return total
    }
}

@Suite("The pruned n-gram model that reads free text (scripts/prune-lm.py)")
struct PrunedLanguageModelTests {
    @Test("setup made it beside the dictation words, and it is a third smaller than Debian's")
    func made() throws {
        try #require(FileManager.default.fileExists(atPath: pruned), "no \(pruned): scripts/setup.sh runs scripts/prune-lm.py")
        let model = try AcousticModel()
        let debian = try NGramModel(try #require(model.languageModel))
        let small = try NGramModel(pruned)
        // Its words are those the n-gram pass knows: the first
        // readingVocabularySize reading words, the dictation words, and the
        // sentence markers; nothing else.
        let folder = repository.appendingPathComponent("models/dictation")
        var vocabulary = try DictationVocabulary(contentsOf: folder.appendingPathComponent("words.txt").path)
        try vocabulary.loadReadingWords(contentsOf: folder.appendingPathComponent("reading-words.txt").path)
        #expect(vocabulary.readingWords.count == DictationVocabulary.defaultReadingVocabularySize)
        let known = Set(vocabulary.readingWords).union(vocabulary.words)
        let words = small.words
        #expect(Set(words.filter { !$0.hasPrefix("<") }) == known.intersection(debian.words), "\(words.count) words against \(known.count)")
        #expect(words.contains("<s>") && words.contains("</s>"))
        #expect(words.count < 45_000 && debian.counts[0] > 70_000, "\(words.count) and \(debian.counts[0])")
        #expect(small.counts.count == 3)
        #expect(Double(small.counts[1]) < 0.7 * Double(debian.counts[1]), "\(small.counts) against \(debian.counts)")
        #expect(Double(small.counts[2]) < 0.7 * Double(debian.counts[2]), "\(small.counts) against \(debian.counts)")
        #expect(small.counts[1] > 500_000 && small.counts[2] > 500_000, "\(small.counts)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: pruned)[.size] as? Int)
        #expect(size < 20_000_000)
    }

    @Test("the backoff weights were renormalised: after any history the probabilities still sum to what Debian's do", arguments: [
        ["<s>"], ["the"], ["send", "more"], ["see", "you"], ["grocery"],
    ])
    func normalised(history: [String]) throws {
        try #require(FileManager.default.fileExists(atPath: pruned))
        let debian = try NGramModel(try #require(try AcousticModel().languageModel))
        let small = try NGramModel(pruned)
        #expect(abs(debian.totalProbability(after: history) - 1) < 0.05, "Debian's model after \(history)")
        // Over the words it kept: the words it dropped are never read, and
        // what stays keeps its weights.
        let words = small.words
        let before = debian.totalProbability(after: history, over: words), after = small.totalProbability(after: history)
        #expect(before > 0.9, "Debian's model after \(history), over the kept words: \(before)")
        #expect(abs(after - before) < 0.01, "after \(history): \(after) pruned, \(before) Debian's")
    }

    @Test("the n-gram pass reads free text with it, and still judges where a message ends")
    func usedForFreeText() throws {
        try #require(FileManager.default.fileExists(atPath: pruned))
        let grammarText = """
        slot recipients: contacts
        slot content: text
        list contacts:
            bobo
        intent INSendMessageIntent:
            send a message to {recipients} saying {content}
        """
        let file = try GrammarParser.parse(grammarText, path: "messaging.hark")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)])
        var dictation = DictationVocabulary()
        dictation.languageModel = pruned
        let decoder = try PocketSphinxDecoder(model: AcousticModel())
        _ = try decoder.recognize([Int16](repeating: 0, count: 16_000), grammar: DecoderGrammar(graph: graph, dictation: dictation))
        // The decoder's n-gram model is the pruned one (its bigram count).
        let counts = try decoder.state.withLock { state -> [Int] in
            let dictationDecoder = try #require(state?.dictation)
            let lm = try #require(PocketSphinxDecoder.languageModel(of: dictationDecoder))
            let counts = try #require(ngram_model_get_counts(lm))
            return [Int(counts[0]), Int(counts[1]), Int(counts[2])]
        }
        #expect(counts[1...] == (try NGramModel(pruned)).counts[1...])
        try expectMessageEndsJudged(by: decoder)
    }
}
