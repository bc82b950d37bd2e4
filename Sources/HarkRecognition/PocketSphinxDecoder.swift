import CPocketSphinx
import Foundation
import HarkGrammar
import Synchronization

/// One recognised word with its place in the audio.
public struct RecognizedWord: Sendable, Equatable {
    public var word: String
    /// Seconds from the start of the utterance.
    public var start: Double
    public var end: Double
    /// Posterior probability of the word, 0...1.
    public var confidence: Double
}

/// What the recognizer heard in one utterance, with its timings.
public struct Recognition: Sendable, Equatable {
    /// The words, space separated; empty when nothing was recognised.
    public var text: String
    public var words: [RecognizedWord]
    /// Posterior probability of the whole hypothesis, 0...1.
    public var confidence: Double
    /// Length of the audio decoded.
    public var audioSeconds: Double
    /// Wall-clock time spent decoding.
    public var decodeSeconds: Double

    /// Decoding time over audio time.
    public var realTimeFactor: Double { audioSeconds > 0 ? decodeSeconds / audioSeconds : 0 }
}

/// pocketsphinx decoder settings. The defaults are pocketsphinx's own unless
/// a measurement chose otherwise.
public struct DecoderOptions: Sendable, Equatable {
    /// Extra `-name value` pairs passed to pocketsphinx as they are.
    public var arguments: [String: String]

    public init(arguments: [String: String] = [:]) {
        self.arguments = arguments
    }
}

/// A pocketsphinx decoder searching an ``IntentGraph`` as a finite-state
/// grammar.
///
/// The C decoder is not thread-safe; every call goes through one lock, and
/// the grammar can be swapped between utterances without reloading the
/// acoustic model.
public final class PocketSphinxDecoder: Sendable {
    struct State {
        let decoder: OpaquePointer
        var lexicon: Lexicon
        var knownWords: Set<String>
        /// The grammar the decoder's search was built from.
        var currentGrammar: Int?
        var searchSerial = 0
    }

    private let state: Mutex<State?>
    public let model: AcousticModel
    /// pocketsphinx's frame rate (frames per second).
    let frameRate: Double = 100

    /// Loads the acoustic model.
    ///
    /// - Parameters:
    ///   - model: Where the model files are.
    ///   - lexicon: Pronunciations; the model's dictionary when nil.
    ///   - options: Decoder settings.
    /// - Throws: ``RecognitionError`` when the model cannot be loaded.
    public init(model: AcousticModel, lexicon: Lexicon? = nil, options: DecoderOptions = DecoderOptions()) throws {
        self.model = model
        let lexicon = try lexicon ?? LexiconCache.shared.lexicon(at: model.dictionary)
        // Start with an empty dictionary file: words are added as grammars need them,
        // which keeps start-up fast and the search's vocabulary exact.
        let emptyDict = FileManager.default.temporaryDirectory
            .appendingPathComponent("hark-empty-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).dict").path
        _ = FileManager.default.createFile(atPath: emptyDict, contents: Data("sil SIL\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: emptyDict) }

        var args: [String: String] = [
            "-hmm": model.acousticModel,
            "-dict": emptyDict,
            "-logfn": ProcessInfo.processInfo.environment["HARK_POCKETSPHINX_LOG"] ?? "/dev/null",
        ]
        for (k, v) in options.arguments { args[k.hasPrefix("-") ? k : "-" + k] = v }
        let decoder = try Self.makeDecoder(args, modelPath: model.acousticModel)
        state = Mutex(State(decoder: decoder, lexicon: lexicon, knownWords: ["sil"]))
    }

    deinit {
        state.withLock { state in
            if let d = state?.decoder { ps_free(d) }
            state = nil
        }
    }

    private static func makeDecoder(_ args: [String: String], modelPath: String) throws -> OpaquePointer {
        var argv: [UnsafeMutablePointer<CChar>?] = args.sorted { $0.key < $1.key }
            .flatMap { [strdup($0.key), strdup($0.value)] }
        defer { argv.forEach { free($0) } }
        let config: OpaquePointer? = argv.withUnsafeMutableBufferPointer { buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 0)
        }
        guard let config else {
            throw RecognitionError("pocketsphinx rejected the decoder options \(args.keys.sorted()) (set HARK_POCKETSPHINX_LOG=/tmp/ps.log to see why)")
        }
        defer { cmd_ln_free_r(config) }
        guard let decoder = ps_init(config) else {
            throw RecognitionError.missingModel(modelPath, "pocketsphinx could not load it (set HARK_POCKETSPHINX_LOG=/tmp/ps.log to see why)")
        }
        return decoder
    }

    /// Builds the decoder's search for `grammar` unless it is the current one.
    private static func activate(_ grammar: DecoderGrammar, in state: inout State) throws {
        guard state.currentGrammar != grammar.id else { return }
        let graph = grammar.graph
        let dictation = graph.hasFreeText ? grammar.dictation : DictationVocabulary()
        let needed = graph.vocabulary.union(dictation.words)
        let missing = needed.filter { !state.lexicon.contains($0) }.sorted()
        guard missing.isEmpty else {
            throw RecognitionError("no pronunciation for \(missing.map { "'\($0)'" }.joined(separator: ", ")); add a pronunciation hint for it in the app's vocabulary")
        }
        try addWords(needed, to: &state)
        let decoder = state.decoder
        state.searchSerial += 1
        let name = "hark\(state.searchSerial)"
        let fsg = try FSGBuilder.build(grammar.automaton, dictation: dictation.normalized(), name: name, decoder: decoder)
        defer { fsg_model_free(fsg) }
        guard ps_set_fsg(decoder, name, fsg) == 0, ps_set_search(decoder, name) == 0 else {
            throw RecognitionError("pocketsphinx rejected the grammar (\(graph.stateCount) states); set HARK_POCKETSPHINX_LOG=/tmp/ps.log to see why")
        }
        if state.searchSerial > 1 { ps_unset_search(decoder, "hark\(state.searchSerial - 1)") }
        state.currentGrammar = grammar.id
    }

    /// Checks that every word `grammar` needs can be pronounced, and builds
    /// its search, so problems show before the first utterance.
    ///
    /// - Throws: ``RecognitionError`` naming the words without pronunciation.
    public func prepare(_ grammar: DecoderGrammar) throws {
        try state.withLock { (state: inout State?) throws in
            guard state != nil else { throw RecognitionError("decoder is closed") }
            try Self.activate(grammar, in: &state!)
        }
    }

    private static func addWords(_ words: Set<String>, to state: inout State) throws {
        let new = words.subtracting(state.knownWords).sorted()
        var variants: [(String, [String])] = []
        for word in new {
            for (i, phones) in (state.lexicon.pronunciations(of: word) ?? []).enumerated() {
                variants.append((i == 0 ? word : "\(word)(\(i + 1))", phones))
            }
        }
        for (i, (word, phones)) in variants.enumerated() {
            // Rebuilding the search once, after the last word, keeps this fast.
            let update: Int32 = i == variants.count - 1 ? 1 : 0
            if ps_add_word(state.decoder, word, phones.joined(separator: " "), update) < 0 {
                throw RecognitionError("pocketsphinx rejected the pronunciation of '\(word)': \(phones.joined(separator: " ")) (are these phones of the acoustic model?)")
            }
        }
        state.knownWords.formUnion(new)
    }

    /// Decodes one utterance of 16 kHz mono samples against `grammar`.
    ///
    /// Several assistants may share one decoder: the grammar is switched
    /// under the same lock as the decoding.
    ///
    /// - Throws: ``RecognitionError`` when a word has no pronunciation or decoding fails.
    public func recognize(_ samples: [Int16], grammar: DecoderGrammar) throws -> Recognition {
        let started = ContinuousClock.now
        return try state.withLock { (state: inout State?) throws -> Recognition in
            guard let decoder = state?.decoder else { throw RecognitionError("decoder is closed") }
            try Self.activate(grammar, in: &state!)
            // A new stream resets the front end's noise and silence estimates,
            // so each utterance is decoded the same whatever came before it
            // (replays and benchmarks repeat; the whole utterance is here).
            guard ps_start_stream(decoder) >= 0, ps_start_utt(decoder) >= 0 else { throw RecognitionError("pocketsphinx could not start an utterance") }
            let processed = samples.withUnsafeBufferPointer { buffer in
                ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 1)
            }
            guard processed >= 0, ps_end_utt(decoder) >= 0 else {
                throw RecognitionError("pocketsphinx failed to decode \(samples.count) samples")
            }
            let lmath = ps_get_logmath(decoder)
            var score: Int32 = 0
            let hyp = ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
            let probability = hyp.isEmpty ? 0 : logmath_exp(lmath, ps_get_prob(decoder))
            var words: [RecognizedWord] = []
            var seg = ps_seg_iter(decoder)
            while let s = seg {
                var sf: Int32 = 0, ef: Int32 = 0, ascr: Int32 = 0, lscr: Int32 = 0, lback: Int32 = 0
                ps_seg_frames(s, &sf, &ef)
                let post = ps_seg_prob(s, &ascr, &lscr, &lback)
                if let w = ps_seg_word(s).map({ String(cString: $0) }), let word = Self.spokenWord(w) {
                    words.append(RecognizedWord(word: word, start: Double(sf) / frameRate, end: Double(ef + 1) / frameRate,
                                                confidence: min(1, logmath_exp(lmath, post))))
                }
                seg = ps_seg_next(s)
            }
            let text = hyp.split(separator: " ").compactMap { Self.spokenWord(String($0)) }.joined(separator: " ")
            let elapsed = ContinuousClock.now - started
            return Recognition(
                text: text, words: words, confidence: min(1, max(0, probability)),
                audioSeconds: Double(samples.count) / 16_000,
                decodeSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
    }

    /// The word as spoken: fillers and silences dropped, variant marks removed.
    static func spokenWord(_ token: String) -> String? {
        if token.hasPrefix("<") || token.hasPrefix("[") || token.hasPrefix("(") || token == "sil" { return nil }
        if token.hasSuffix(")"), let open = token.lastIndex(of: "(") { return String(token[..<open]) }
        return token
    }
}

/// A grammar ready for the decoder: the intent graph and the words its
/// free-text slots may take. Each instance is a distinct grammar to the
/// decoder; make a new one when the graph changes.
public final class DecoderGrammar: Sendable {
    private static let counter = Atomic<Int>(0)

    let id: Int
    public let graph: IntentGraph
    public let dictation: DictationVocabulary
    /// What the decoder searches: the graph's word language, minimised.
    let automaton: WordAutomaton

    public init(graph: IntentGraph, dictation: DictationVocabulary) {
        id = Self.counter.add(1, ordering: .relaxed).newValue
        self.graph = graph
        self.dictation = dictation
        automaton = WordAutomaton(minimizing: graph) ?? WordAutomaton(unminimized: graph)
    }

    /// States and transitions of the search (dictation counted once).
    public var searchSize: (states: Int, transitions: Int) {
        (automaton.stateCount, automaton.transitionCount)
    }
}

/// Loads each dictionary once per process: parsing 135,000 entries is the
/// slowest part of start-up.
final class LexiconCache: Sendable {
    static let shared = LexiconCache()
    private let cache = Mutex<[String: Lexicon]>([:])

    func lexicon(at path: String) throws -> Lexicon {
        if let cached = cache.withLock({ $0[path] }) { return cached }
        let lexicon = try Lexicon(contentsOf: path)
        cache.withLock { $0[path] = lexicon }
        return lexicon
    }
}
