import Foundation
import CPocketSphinx
import HarkAudio
import HarkGrammar
@testable import HarkRecognition
import Testing

private let messaging = """
slot recipients: contacts
slot content: text
list contacts:
    bobo
    bobo the great
    little bobo
rule app = monkey chat
intent INSendMessageIntent:
    send [a] message to {recipients} [on <app>] [saying {content}]
    send a text to {recipients} [on <app>] [saying {content}]
"""

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func samples(_ path: String) throws -> [Int16] {
    try WAVReader.read(contentsOf: path).audio.toRecognitionFormat().int16Samples()
}

private func grammar(rejecting: Bool = true) throws -> DecoderGrammar {
    let file = try GrammarParser.parse(messaging, path: "messaging.hark")
    let graph = try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)])
    return DecoderGrammar(graph: graph, dictation: DictationVocabulary(), rejectsOutOfGrammar: rejecting)
}

/// A question's answer grammar: yes or nope.
private func answerGrammar() throws -> DecoderGrammar {
    let file = try GrammarParser.parse("""
        slot answer: choices
        list choices:
            yes
            nope
        intent Answer:
            {answer}
        """, path: "answer.hark")
    return DecoderGrammar(graph: try GrammarCompiler.compile([GrammarInstance(app: "Hark", grammar: file)]), dictation: DictationVocabulary())
}

/// A decoder of its own that built the main grammar's search, then a
/// question's answer grammar's beside it; the main grammar's search name.
private func decoderHoldingBoth() throws -> (PocketSphinxDecoder, main: DecoderGrammar, answer: DecoderGrammar, mainSearch: String) {
    let d = try PocketSphinxDecoder(model: AcousticModel())
    let main = try grammar()
    let answer = try answerGrammar()
    try d.prepare(main)
    let mainSearch = try #require(d.heldSearches.first)
    try d.prepare(answer)
    return (d, main, answer, mainSearch)
}

/// One decoder for the suite: loading the model is the slow part.
private let decoder = Result { try PocketSphinxDecoder(model: AcousticModel()) }

@Suite("Grammar pass, n-gram pass for free text, rejection")
struct TwoPassDecodingTests {
    @Test("the longest pause inside an app's name counts only the name's grammar words, said in order")
    func pauseInAppName() throws {
        let file = try GrammarParser.parse(messaging, path: "messaging.hark")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)])
        let g = DecoderGrammar(graph: graph, dictation: DictationVocabulary(),
                               appNames: [["monkey", "chat"], ["chat"]], appCount: 1)
        func words(_ spec: [(String, Double, Double, Bool)]) -> [RecognizedWord] {
            spec.map { RecognizedWord(word: $0.0, start: $0.1, end: $0.2, confidence: 0.5, isFreeText: $0.3) }
        }
        #expect(g.longestPauseInAppName(words([("send", 0, 0.3, false), ("monkey", 0.3, 0.6, false), ("chat", 0.6, 0.9, false)])) == 0)
        let apart = try #require(g.longestPauseInAppName(words([("on", 0, 0.2, false), ("monkey", 0.2, 0.5, false), ("chat", 0.8, 1.1, false)])))
        #expect(abs(apart - 0.3) < 1e-9)
        // Of two namings, the longer pause; a one-word name has none.
        let two = try #require(g.longestPauseInAppName(words([("monkey", 0, 0.3, false), ("chat", 0.35, 0.6, false),
                                                                 ("monkey", 1, 1.3, false), ("chat", 1.5, 1.8, false)])))
        #expect(abs(two - 0.2) < 1e-9)
        #expect(g.longestPauseInAppName(words([("chat", 0, 0.3, false)])) == nil)
        // Words of free text ("saying monkey chat") or out of order are no naming.
        #expect(g.longestPauseInAppName(words([("monkey", 0, 0.3, true), ("chat", 0.9, 1.2, true)])) == nil)
        #expect(g.longestPauseInAppName(words([("chat", 0, 0.3, false), ("monkey", 0.9, 1.2, false)])) == nil)
    }

    @Test("free text is read by the n-gram model between the grammar's words")
    func freeText() throws {
        let d = try decoder.get()
        let audio = try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path)
        let r = try d.recognize(audio, grammar: grammar())
        #expect(!r.rejected)
        #expect(r.text.hasPrefix("send a text to little bobo on monkey chat saying "), "\(r.text)")
        // The grammar pass alone has no words for "see you at the tree": they come from the n-gram model.
        let content = r.text.split(separator: " ").dropFirst(10).joined(separator: " ")
        // Measured: "a senior at the three" (flite's "see you at the tree").
        #expect(content.hasSuffix("at the three") || content.hasSuffix("at the tree"), "\(content)")
        // Word times stay in order and inside the audio.
        let ends = r.words.map(\.end)
        #expect(ends == ends.sorted() && (ends.last ?? 0) <= r.audioSeconds + 0.01)
        #expect(!r.words.contains { PhoneLoop.kind(of: $0.word) != nil })
    }

    @Test("an unfinished path whose last word or two follow a whole sentence says where they begin and what it reads as without them")
    func endingAfterWholeSentence() throws {
        let g = try grammar()
        let free = PhoneLoop.word("AH", .dictation)
        func path(_ tokens: [String]) -> [PocketSphinxDecoder.Segment] {
            tokens.enumerated().map { .init(token: $0.element, startFrame: $0.offset * 10, endFrame: $0.offset * 10 + 9, confidence: 1) }
        }
        let opening = "send a message to bobo on monkey chat".split(separator: " ").map(String.init)
        // "… monkey chat saying": the grammar word after the whole sentence.
        let saying = PocketSphinxDecoder.completeBeforeEnding(path(["<s>"] + opening + ["saying", "</s>"]), grammar: g, frameRate: 100)
        #expect(saying == PartialRecognition.Ending(start: 0.9, sentence: .complete(extendable: true)))
        // A phone of free text after it, and a silence: two spoken tokens, fillers not counted.
        let phone = PocketSphinxDecoder.completeBeforeEnding(path(opening + ["saying", "<sil>", free, "<sil>"]), grammar: g, frameRate: 100)
        #expect(phone == PartialRecognition.Ending(start: 0.8, sentence: .complete(extendable: true)))
        // Three are more than noise after a sentence: no ending.
        #expect(PocketSphinxDecoder.completeBeforeEnding(path(opening + ["saying", free, free]), grammar: g, frameRate: 100) == nil)
        // No whole sentence before the ending ("send a message to"): none.
        #expect(PocketSphinxDecoder.completeBeforeEnding(path(["send", "a", "message", "to"]), grammar: g, frameRate: 100) == nil)
    }

    @Test("a path that stops two words into an app's name, names its app again after free text, or reads the name's last sound as free text, is not a person pausing inside a sentence")
    func endingsNoOnePausesAt() throws {
        let file = try GrammarParser.parse("""
            slot recipients: contacts
            slot content: text
            list contacts:
                bobo
            rule app = monkey chat | monkey to do | you nee corn pay
            intent INSendMessageIntent:
                send a message to {recipients} [on <app>] [saying {content}] [in <app>]
                tell {recipients} [on <app>] [{content}]
            intent INSearchForMessagesIntent:
                show my messages on <app>
            """, path: "names.hark")
        let g = DecoderGrammar(graph: try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)]),
                               dictation: DictationVocabulary(), appNames: [["monkey", "chat"], ["monkey", "to", "do"], ["you", "nee", "corn", "pay"]], appCount: 3)
        func words(_ s: String) -> [String] { s.split(separator: " ").map(String.init) }
        // Two words of MonkeyTodo's name, which only "do" can end.
        #expect(g.reading(of: words("show my messages on monkey to")) == .unfinished)
        #expect(g.stopsInsideAppName(words("show my messages on monkey to") + ["<sil>"]))
        // One word of a name is not enough, even where only the name can
        // follow: "you" is a word people say ("show my … you" at a pause).
        #expect(g.reading(of: words("show my messages on you")) == .unfinished)
        #expect(!g.stopsInsideAppName(words("show my messages on you")))
        #expect(!g.stopsInsideAppName(words("show my messages on monkey")))
        #expect(!g.stopsInsideAppName(words("show my messages on")))
        #expect(!g.stopsInsideAppName(words("show my messages on monkey to do")))

        let free = PhoneLoop.word("AH", .dictation), message = [String](repeating: free, count: 6)
        // "… on monkey chat saying <free text> in": the app is named already, so "in" is the free text's last sound.
        let renamed = words("send a message to bobo on monkey chat saying") + message + ["in"]
        #expect(g.reading(of: renamed) == .unfinished)
        #expect(g.readingWithoutAppRenamed(renamed) == .endsInFreeText(likelyEnded: false))
        // Not named before the free text: "in" may begin the naming the sentence still needs.
        #expect(g.readingWithoutAppRenamed(words("send a message to bobo saying") + message + ["in"]) == nil)
        // "in monkey": two words after the free text, still a naming to finish.
        #expect(g.readingWithoutAppRenamed(words("send a message to bobo on monkey chat saying") + message + ["in", "monkey"]) == nil)

        // Two phones of free text right after the app's name: its last sound, not a message begun.
        let tail = words("tell bobo on monkey chat") + [free, "<sil>", free]
        #expect(g.reading(of: tail) == .unfinished)
        let nameTail = try #require(g.nameTail(tail))
        #expect(nameTail.start == 5 && nameTail.reading == .complete(extendable: true))
        // Four phones are a message; after a contact's name ("tell bobo | on"), a word not yet finished.
        #expect(g.nameTail(words("tell bobo on monkey chat") + [free, free, free, free]) == nil)
        #expect(g.nameTail(words("tell bobo") + [free, free]) == nil)
    }

    @Test("a sentence ending in free text is whole once the free text is; the language model judges whether its words end a sentence")
    func freeTextEnding() throws {
        let g = try grammar()
        let free = PhoneLoop.word("AH", .dictation)
        let opening = "send a message to bobo on monkey chat".split(separator: " ").map(String.init)
        #expect(g.reading(of: opening) == .complete(extendable: true))
        #expect(g.reading(of: opening + ["saying", free, free, free, free]) == .endsInFreeText(likelyEnded: false))
        // Free text of a phone or three has hardly begun: the sentence is not yet whole.
        #expect(g.reading(of: opening + ["saying", free, free, free]) == .unfinished)
        #expect(g.reading(of: opening + ["saying"]) == .unfinished)
        // A beginning of a sentence is unfinished; words no sentence begins
        // with, the garbage loop's, or nothing at all are no sentence.
        #expect(g.reading(of: ["send", "a", "message", "to"]) == .unfinished)
        #expect(g.reading(of: ["message", "send"]) == .notASentence)
        #expect(g.reading(of: ["send", PhoneLoop.word("AH", .garbage)]) == .notASentence)
        #expect(g.reading(of: []) == .notASentence)
        // The judgement needs the n-gram decoder, made by a grammar with free text.
        let d = try decoder.get()
        _ = try d.recognize([Int16](repeating: 0, count: 16_000), grammar: g)
        try expectMessageEndsJudged(by: d)
        // Fillers are not words of the sentence.
        func ending(_ text: String) throws -> Double {
            try #require(d.sentenceEndProbability(after: text.split(separator: " ").map(String.init)))
        }
        #expect(try ending("where are you <sil> [NOISE]") == ending("where are you"))
    }

    @Test("the n-gram pass is the tree search alone, without pocketsphinx's second flat-lexicon pass, unless an option asks for it", arguments: [
        [:], ["fwdflat": "yes"],
    ])
    func dictationWithoutFlatPass(options: [String: String]) throws {
        let d = try PocketSphinxDecoder(model: AcousticModel(), options: DecoderOptions(arguments: options))
        let audio = try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path)
        let r = try d.recognize(audio, grammar: grammar())
        #expect(r.text.hasPrefix("send a text to little bobo on monkey chat saying "), "\(r.text)")
        #expect(r.words.contains { $0.isFreeText }, "\(r.text)")
        let flat = try d.state.withLock { state -> Int in
            let dictation = try #require(state?.dictation)
            return cmd_ln_int_r(ps_get_config(dictation), "-fwdflat")
        }
        #expect(flat == (options.isEmpty ? 0 : 1))
    }

    @Test("hundreds of words the n-gram model lacks are read safely beside free text")
    func manyWordsOutsideTheLanguageModel() throws {
        // Contacts such as these are not in the n-gram model: added to it as
        // plain words they got ids past its trie's vocabulary, and its search
        // ran off its arrays looking them up (a segfault in CI). They go in
        // as a word class now; the same free text is read as with three contacts.
        let syllables = ["zor", "bax", "quil", "mip", "drev", "kol", "yun", "fesh", "glom", "trab",
                         "vosk", "plen", "wug", "snib", "jart", "hox", "brim", "klev", "dop", "zint"]
        let names = syllables.flatMap { a in syllables.map { b in a + b } }.filter { $0.count > 5 }
        #expect(names.count >= 300)
        let file = try GrammarParser.parse(messaging.replacingOccurrences(
            of: "    little bobo\n", with: "    little bobo\n" + names.map { "    \($0)\n" }.joined()), path: "messaging.hark")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)])
        let d = try PocketSphinxDecoder(model: AcousticModel())
        let audio = try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path)
        _ = try d.recognize(audio, grammar: grammar())
        let unigrams = try #require(d.dictationUnigramCount)
        for _ in 0..<3 {
            let r = try d.recognize(audio, grammar: DecoderGrammar(graph: graph, dictation: DictationVocabulary()))
            #expect(r.text.hasPrefix("send a text to little bobo on monkey chat saying "), "\(r.text)")
            #expect(r.text.hasSuffix("at the three") || r.text.hasSuffix("at the tree"), "\(r.text)")
        }
        // None of them went into the model's trie as a unigram.
        #expect(d.dictationUnigramCount == unigrams)
    }

    @Test("confidence is measured against a phone loop: high for the grammar's own sentence, low for speech forced onto it")
    func confidence() throws {
        let d = try decoder.get()
        let spoken = try d.recognize(try samples(repository.appendingPathComponent("audio-fixtures/flite-rms/monkeychat-send-bobo-bananas.wav").path),
                                     grammar: grammar())
        let other = try d.recognize(try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path),
                                    grammar: grammar())
        #expect(!spoken.rejected && spoken.confidence > 0.5 && spoken.confidence < 1, "\(spoken.confidence)")
        #expect(!other.rejected && other.confidence > 0.5 && other.confidence < 1, "\(other.confidence)")
        #expect(spoken.confidence != other.confidence, "a measured confidence, not a constant")
        // The grammar's words each have their own; free text keeps the n-gram pass's.
        let grammarWords = spoken.words.prefix(8)
        #expect(grammarWords.allSatisfy { $0.confidence > 0 && $0.confidence < 1 }, "\(grammarWords.map(\.confidence))")
        #expect(Set(grammarWords.map(\.confidence)).count > 1)
        // A sentence about lights, forced onto the messaging grammar (rejection off): far less sure.
        let forced = try d.recognize(try samples(repository.appendingPathComponent("audio-fixtures/espeak-us/oog-lights.wav").path),
                                     grammar: grammar(rejecting: false))
        #expect(!forced.text.isEmpty)
        #expect(forced.confidence < 0.5 && forced.confidence < min(spoken.confidence, other.confidence) - 0.3,
                "\(forced.text): \(forced.confidence) beside \(spoken.confidence), \(other.confidence)")
    }

    @Test("a reading with no grammar word: confidence from its free text, 0 when nothing was heard (not 1)")
    func confidenceWithoutGrammarWords() throws {
        func word(_ text: String, _ start: Double, _ end: Double, _ confidence: Double, free: Bool) -> RecognizedWord {
            RecognizedWord(word: text, start: start, end: end, confidence: confidence, isFreeText: free)
        }
        // Free text alone (an answer that is all message): its posteriors, weighted by length.
        let dictated = [word("see", 0, 0.5, 0.8, free: true), word("you", 0.5, 0.6, 0.2, free: true)]
        #expect(abs(PocketSphinxDecoder.freeTextConfidence(of: dictated) - 0.7) < 1e-12)
        #expect(PocketSphinxDecoder.freeTextConfidence(of: []) == 0)
        #expect(PocketSphinxDecoder.freeTextConfidence(of: [word("send", 0, 0.3, 0.9, free: false)]) == 0)
        // The free text's part of the words' time, which decides whether a
        // named request's carrier must be heard clearly.
        let named = [word("monkey", 0, 0.4, 0.9, free: false), word("add", 0.4, 0.6, 0.9, free: false)] + dictated
        #expect(abs(PocketSphinxDecoder.freeTextShare(of: named) - 0.6 / 1.2) < 1e-12)
        #expect(PocketSphinxDecoder.freeTextShare(of: dictated) == 1)
        #expect(PocketSphinxDecoder.freeTextShare(of: []) == 0)
        // Through the decoder: two seconds of near silence hold no word, and are heard with confidence 0.
        let d = try decoder.get()
        var state: UInt64 = 7
        let hush = (0..<32_000).map { _ -> Int16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int16(truncatingIfNeeded: Int(state >> 61) - 4)
        }
        let nothing = try d.recognize(hush, grammar: grammar(rejecting: false))
        #expect(nothing.text.isEmpty && nothing.words.isEmpty)
        #expect(nothing.confidence == 0, "\(nothing.confidence)")
    }

    @Test("speech outside the grammar is rejected, not read as the nearest sentence")
    func rejectsOutOfGrammar() throws {
        let d = try decoder.get()
        let clip = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0870.wav"
        let r = try d.recognize(try samples(clip), grammar: grammar())
        #expect(r.rejected)
        #expect(r.text.isEmpty)
        // With rejection off the same audio is forced onto some sentence.
        let forced = try d.recognize(try samples(clip), grammar: grammar(rejecting: false))
        #expect(!forced.rejected)
        #expect(forced.text.hasPrefix("send"), "\(forced.text)")
    }

    @Test("in-grammar speech is not rejected")
    func acceptsInGrammar() throws {
        let d = try decoder.get()
        let audio = try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-bobo-great.wav").path)
        let file = try GrammarParser.parse("""
            slot recipients: contacts
            slot content: text
            list contacts:
                bobo the great
            rule app = monkey chat
            intent INSendMessageIntent:
                tell {recipients} on <app> {content}
            """, path: "t.hark")
        let g = DecoderGrammar(graph: try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)]), dictation: DictationVocabulary())
        let r = try d.recognize(audio, grammar: g)
        #expect(!r.rejected)
        #expect(r.text.hasPrefix("tell bobo the great on monkey chat "), "\(r.text)")
    }

    @Test("the main grammar's search outlives a question's answer grammar; two main grammars are never held at once")
    func searchesHeld() throws {
        let (d, main, _, mainSearch) = try decoderHoldingBoth()
        #expect(d.heldSearches.count == 2 && d.heldSearches.last == mainSearch, "\(d.heldSearches)")
        // Back to the main grammar: the same search, not a rebuilt one, and it
        // still hears its sentences after the answer grammar's words were added.
        let audio = try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path)
        let r = try d.recognize(audio, grammar: main)
        #expect(d.heldSearches.first == mainSearch && d.heldSearches.count == 2, "\(d.heldSearches)")
        #expect(r.text.hasPrefix("send a text to little bobo on monkey chat saying "), "\(r.text)")
        // A new version of the main grammar (here: without rejection) replaces
        // both: the old main grammar's tree is freed before the new one is built.
        try d.prepare(grammar(rejecting: false))
        #expect(d.heldSearches.count == 1 && d.heldSearches.first != mainSearch, "\(d.heldSearches)")
    }

    @Test("a grammar released lets go of its search at once, unless an utterance is being heard; heard again, it is built again")
    func released() async throws {
        let (d, main, answer, mainSearch) = try decoderHoldingBoth()
        let answerSearch = try #require(d.heldSearches.first)
        #expect(d.heldSearches == [answerSearch, mainSearch])

        // While a stream holds the decoder, nothing is let go of.
        let stream = try await d.startStream(grammar: main)
        d.release(main)
        #expect(d.heldSearches.contains(mainSearch), "\(d.heldSearches)")
        await stream.cancel()

        d.release(main)
        #expect(d.heldSearches == [answerSearch], "only the grammar released goes")
        d.release(main)
        #expect(d.heldSearches == [answerSearch], "a grammar not held: nothing happens")

        let audio = try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path)
        let r = try await d.recognize(audio, grammar: main)
        #expect(r.text.hasPrefix("send a text to little bobo on monkey chat saying "), "\(r.text)")
        let rebuilt = try #require(d.heldSearches.first)
        #expect(rebuilt != mainSearch && d.heldSearches == [rebuilt, answerSearch], "\(d.heldSearches)")

        // Released while it is the current search: the next utterance is
        // heard by a search built again, not by none.
        d.release(main)
        d.release(answer)
        #expect(d.heldSearches.isEmpty)
        #expect(try await d.recognize(audio, grammar: main).text == r.text)
    }

    @Test("given the words the n-gram pass reads, free text is made of those, the dictation words and the grammar's only")
    func readingWords() throws {
        let d = try PocketSphinxDecoder(model: AcousticModel())
        let file = try GrammarParser.parse(messaging, path: "messaging.hark")
        var dictation = DictationVocabulary(logProbabilities: ["tree": -3])
        dictation.readingWords = ["see", "you", "at", "the"]
        let g = DecoderGrammar(graph: try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)]), dictation: dictation)
        let audio = try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path)
        let r = try d.recognize(audio, grammar: g)
        let allowed = Set(dictation.readingWords).union(dictation.words).union(g.graph.vocabulary)
        #expect(r.text.hasPrefix("send a text to little bobo on monkey chat saying "), "\(r.text)")
        #expect(r.words.count > 10 && r.words.allSatisfy { allowed.contains($0.word) }, "\(r.text)")
    }

    @Test("the n-gram pass knows the most frequent reading words up to its size (31,000 by default, as scripts/prune-lm.py prunes its model to), not the rest")
    func readingVocabularySize() throws {
        #expect(DictationVocabulary().readingVocabularySize == 31_000)
        // The script that keeps the model's n-grams of these words only must keep as many.
        let script = try String(contentsOf: repository.appendingPathComponent("scripts/prune-lm.py"), encoding: .utf8)
        let kept = script.split(separator: "\n").first { $0.hasPrefix("VOCABULARY_SIZE = ") }
            .flatMap { Int($0.dropFirst("VOCABULARY_SIZE = ".count).replacingOccurrences(of: "_", with: "")) }
        #expect(kept == DictationVocabulary.defaultReadingVocabularySize, "scripts/prune-lm.py keeps \(kept.map(String.init) ?? "no VOCABULARY_SIZE")")
        let d = try PocketSphinxDecoder(model: AcousticModel())
        let file = try GrammarParser.parse(messaging, path: "messaging.hark")
        var dictation = DictationVocabulary(logProbabilities: ["tree": -3])
        dictation.readingWords = ["see", "you", "at", "the", "more", "bananas", "please", "send"]
        dictation.readingVocabularySize = 2
        let g = DecoderGrammar(graph: try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)]), dictation: dictation)
        let audio = try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path)
        let r = try d.recognize(audio, grammar: g)
        let allowed = Set(dictation.readingWords.prefix(2)).union(dictation.words).union(g.graph.vocabulary)
        #expect(r.words.contains { $0.isFreeText } && r.words.allSatisfy { allowed.contains($0.word) }, "\(r.text)")
        #expect(!r.words.contains { ["at", "more", "bananas"].contains($0.word) && $0.isFreeText }, "\(r.text)")
    }

    @Test("the n-gram decoder made again at sphinxbase's word-class limit leaves nothing pointing at the freed one, and still reads free text")
    func dictationMadeAgain() async throws {
        let d = try PocketSphinxDecoder(model: AcousticModel())
        d.state.withLock { $0!.dictationClassLimit = 2 }
        var dictation = DictationVocabulary()
        dictation.readingWords = ["see", "you", "at", "the", "three", "tree"]
        // Each grammar brings a contact the n-gram model lacks: one word class each.
        func grammar(with contact: String) throws -> DecoderGrammar {
            let file = try GrammarParser.parse(messaging.replacingOccurrences(of: "    little bobo\n", with: "    little bobo\n    \(contact)\n"),
                                               path: "messaging.hark")
            return DecoderGrammar(graph: try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)]), dictation: dictation)
        }
        try d.prepare(grammar(with: "zorbax"))
        let first = try #require(d.state.withLock { $0!.dictation })
        #expect(d.state.withLock { $0!.dictationClasses } == 1)
        try d.prepare(grammar(with: "quilmip"))
        #expect(d.state.withLock { $0!.dictation } == first)
        #expect(d.state.withLock { $0!.dictationClasses } == 2)
        try d.prepare(grammar(with: "drevkol"))
        // Made again, it holds the third class alone. (Its address says
        // nothing: the allocator may hand the freed decoder's memory to the
        // new one, as jemalloc does.)
        #expect(d.state.withLock { $0!.dictationClasses } == 1, "the third class made the n-gram decoder again")
        // Resetting the running means wrote into the freed decoder's: each
        // kept mean is a live decoder's, and none is kept twice (the freed
        // one's and the new one's at the same address).
        let (kept, live) = d.state.withLock { state in
            (state!.initialMeans.map(\.decoder), Set([state!.decoder, state!.dictation, state!.phonesDecoder].compactMap { $0 }))
        }
        #expect(kept.allSatisfy(live.contains) && Set(kept).count == kept.count, "\(kept) \(live)")
        await d.resetAdaptation()
        let audio = try samples(repository.appendingPathComponent("audio-fixtures/flite-slt/monkeychat-little-bobo.wav").path)
        let r = try await d.recognize(audio, grammar: grammar(with: "drevkol"))
        #expect(r.text.hasPrefix("send a text to little bobo on monkey chat saying "), "\(r.text)")
        #expect(r.words.count > 10, "\(r.text)")
    }

    @Test("pocketsphinx's process-wide log is set once: a decoder made while others decode does not close the FILE they write to")
    func logSetOnce() throws {
        _ = try decoder.get()
        let log = err_get_logfp()
        let other = try PocketSphinxDecoder(model: AcousticModel())
        try other.prepare(grammar())
        #expect(err_get_logfp() == log)
    }
}

/// Five messages that end a sentence read as likely ended by `decoder`'s
/// n-gram model, five that stop mid-sentence do not (the decoder must have
/// made its n-gram decoder: it has decoded a grammar with free text).
func expectMessageEndsJudged(by decoder: PocketSphinxDecoder) throws {
    func ending(_ text: String) throws -> Double {
        try #require(decoder.sentenceEndProbability(after: text.split(separator: " ").map(String.init)))
    }
    let threshold = DecoderOptions.defaultFreeTextEndProbability
    for finished in ["please send more bananas", "i'm running late", "where are you", "the bananas are ripe", "see you tonight"] {
        #expect(try ending(finished) >= threshold, "\(finished)")
    }
    for unfinished in ["please send more", "i'll be", "meet me at the", "where are", "water the"] {
        #expect(try ending(unfinished) < threshold, "\(unfinished)")
    }
}
