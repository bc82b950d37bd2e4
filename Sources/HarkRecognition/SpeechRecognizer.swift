// The recognizer seam: what the assistant, the wake gate, the live loop and
// the benchmarks ask of a speech recognizer, with no engine's types in it.
// pocketsphinx (``PocketSphinxDecoder``) is one engine; another conforms to
// these two protocols and plugs in without the assistant changing.

/// One recognised word with its place in the audio (in a turn's JSON as
/// `{"word", "start", "end", "confidence", "free_text"}`).
public struct RecognizedWord: Sendable, Equatable, Codable {
    public var word: String
    /// Seconds from the start of the utterance.
    public var start: Double
    public var end: Double
    /// How sure the recognizer is of the word, 0...1: for a grammar word,
    /// how well it explains its audio next to unconstrained phones; for a
    /// free-text word, its posterior in the n-gram pass.
    public var confidence: Double
    /// Whether the word was heard in a free-text run (dictation) rather
    /// than as a word the grammar names.
    public var isFreeText: Bool

    public init(word: String, start: Double, end: Double, confidence: Double, isFreeText: Bool = false) {
        self.word = word
        self.start = start
        self.end = end
        self.confidence = confidence
        self.isFreeText = isFreeText
    }

    enum CodingKeys: String, CodingKey {
        case word, start, end, confidence
        case isFreeText = "free_text"
    }
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
    /// Why the speech was judged no sentence of the grammar (out-of-grammar
    /// speech, reported as not understood), and what the grammar's reading
    /// was; nil when it was heard.
    public var rejection: Rejection?

    /// Whether the speech was judged no sentence of the grammar (``rejection``).
    public var rejected: Bool { rejection != nil }

    /// Decoding time over audio time.
    public var realTimeFactor: Double { audioSeconds > 0 ? decodeSeconds / audioSeconds : 0 }
}

/// Why a recognizer judged speech to be no sentence of its grammar, with
/// the reading it cleared: the developer reads both in the log.
public struct Rejection: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The grammar's best path went through the garbage loop.
        case outOfGrammar
        /// Nobody spoke: the denoised audio holds too little speech.
        case noSpeech(presence: Double, minimum: Double)
        /// The reading was heard less surely than its floor.
        case unsure(confidence: Double, floor: Double)
        /// The app's name was pieced together from sounds this far apart.
        case pauseInAppName(seconds: Double, limit: Double)
        /// The grammar's words squeezed into sounds they are unlike (``ForcedReading``).
        case forced
        /// Free words explain the audio this much better, in nats per frame, than the reading.
        case outscoredByDictation(lead: Double, limit: Double)
    }

    public var reason: Reason
    /// The grammar's reading that was cleared ("" when there was none).
    public var reading: String

    public init(_ reason: Reason, reading: String = "") {
        self.reason = reason
        self.reading = reading
    }

    /// The reason's name, as in logs and turn JSON.
    public var name: String {
        switch reason {
        case .outOfGrammar: "outOfGrammar"
        case .noSpeech: "noSpeech"
        case .unsure: "unsure"
        case .pauseInAppName: "pauseInAppName"
        case .forced: "forced"
        case .outscoredByDictation: "outscoredByDictation"
        }
    }

    public var description: String {
        let why: String
        switch reason {
        case .outOfGrammar: why = "speech outside the grammar (the garbage loop)"
        case .noSpeech(let presence, let minimum):
            why = "no speech in the denoised audio (presence \(Self.format(presence)) under \(Self.format(minimum)))"
        case .unsure(let confidence, let floor):
            why = "heard unsurely (confidence \(Self.format(confidence)) under its floor \(Self.format(floor)))"
        case .pauseInAppName(let seconds, let limit):
            why = "an app's name pieced from sounds \(Self.format(seconds)) s apart (limit \(Self.format(limit)) s)"
        case .forced: why = "the grammar's words forced onto sounds they are unlike"
        case .outscoredByDictation(let lead, let limit):
            why = "free words explain the audio better by \(Self.format(lead)) nats per frame (limit \(Self.format(limit)))"
        }
        return reading.isEmpty ? why : "\(why): '\(reading)'"
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}

/// Whether words heard so far make a sentence of the grammar.
public enum SentenceReading: Sendable, Equatable {
    /// No sentence of the grammar: nothing heard yet, or words of the
    /// garbage loop (speech the grammar does not cover).
    case notASentence
    /// The beginning of a sentence of the grammar, not yet a whole one
    /// ("send a message to", "cancel my"), or one whose free text has
    /// hardly begun (a phone or three): the person cannot be done, and a
    /// pause here is a pause inside the sentence.
    case unfinished
    /// A whole sentence; `extendable` when the grammar has longer
    /// sentences that begin with it ("an americano" → "an americano with milk").
    case complete(extendable: Bool)
    /// A whole sentence if the free-text run at its end is finished, which
    /// the grammar cannot tell ("… saying I'll be" may go on "there at
    /// two"). `likelyEnded` when the words dictated so far read as the end
    /// of a sentence (the dictation's language model gives the sentence's
    /// end after them at least ``DecoderOptions/freeTextEndProbability``).
    case endsInFreeText(likelyEnded: Bool)

    /// Whether the utterance may end here: a whole sentence, or one whose
    /// free text at its end reads as finished.
    public var isWhole: Bool {
        switch self {
        case .complete, .endsInFreeText(likelyEnded: true): true
        case .notASentence, .unfinished, .endsInFreeText(likelyEnded: false): false
        }
    }
}

/// What a recognition stream has heard so far, while the person speaks.
public struct PartialRecognition: Sendable, Equatable {
    /// The words of the best path so far (free text as it is searched, not transcribed).
    public var text: String
    /// Whether the best path so far is a whole sentence of the grammar
    /// (it ends in a final state): the utterance may end here, and a short
    /// silence is enough to say it did.
    public var sentence: SentenceReading
    /// When ``sentence`` is ``SentenceReading/unfinished`` only because of
    /// the last word or two of the path (a grammar word, a phone of free
    /// text): where they begin and what the path reads as without them. If
    /// they began after the speech ended, they are the trailing silence's
    /// noise read as words, and the sentence before them is what was said.
    public var ending: Ending?
    /// Seconds from the start of the stream to the end of the path's last
    /// spoken token (a grammar word or a phone of free text; silence and
    /// fillers not counted); nil when unknown or nothing was said. Speech
    /// well after it is speech the path has not placed yet: a word that
    /// may begin the rest of the sentence ("show my messages | from …").
    public var spokenEnd: Double?
    /// For a whole sentence, how sure the recognizer is of it so far
    /// (0...1, as ``Recognition/confidence``); nil when not judged.
    public var confidence: Double?
    /// The confidence the sentence would have to reach, were the utterance
    /// to end now, not to be rejected as heard unsurely; nil when none.
    public var confidenceFloor: Double?

    /// Whether the sentence so far would be rejected as heard unsurely:
    /// likely the first half of a longer request, pieced into a sentence
    /// of its own ("add on the banana stash" for "add peel the bananas to
    /// … my ideas note"), or speech for no app.
    public var isUnsure: Bool {
        guard let confidence, let confidenceFloor else { return false }
        return confidence < confidenceFloor
    }

    /// The last words of a partial path and the sentence before them.
    public struct Ending: Sendable, Equatable {
        /// Seconds from the start of the stream to the first of the words.
        public var start: Double
        /// What the path reads as without them.
        public var sentence: SentenceReading

        public init(start: Double, sentence: SentenceReading) {
            self.start = start
            self.sentence = sentence
        }
    }

    public init(text: String, sentence: SentenceReading, ending: Ending? = nil, spokenEnd: Double? = nil) {
        self.text = text
        self.sentence = sentence
        self.ending = ending
        self.spokenEnd = spokenEnd
    }
}

/// A speech recognizer constrained by the assistant's grammars.
///
/// Samples are 16 kHz mono, 16-bit. Implementations are shared between
/// tasks; each call is one utterance (or one stream), and a recognizer may
/// serve one stream at a time.
public protocol SpeechRecognizer: AnyObject, Sendable {
    /// Decodes one whole utterance against `grammar`.
    func recognize(_ samples: [Int16], grammar: DecoderGrammar) async throws -> Recognition

    /// Starts an utterance whose audio arrives in pieces (``RecognitionStream/feed(_:)``),
    /// decoded as it comes, so that when the utterance ends only the final
    /// search is left.
    func startStream(grammar: DecoderGrammar) async throws -> any RecognitionStream

    /// Looks for a wake phrase in an utterance; the sample just after it, or nil.
    func spot(_ phrase: String, in samples: [Int16], threshold: Double) async throws -> Int?

    /// The phones the recognizer hears `word` by, or nil when it cannot pronounce it.
    func phones(of word: String) -> [String]?

    /// Checks that every word of `grammar` can be pronounced and builds its
    /// search, so problems show before the first utterance.
    func prepare(_ grammar: DecoderGrammar) throws

    /// Lets go of what was built to hear `grammar` (pocketsphinx: its
    /// search and lexicon tree, the largest thing a grammar costs), because
    /// it is about to be replaced: built while the old one was still held,
    /// the replacement made a change of vocabulary cost a grammar's worth of
    /// memory more than hearing anything did. Nothing is lost: a grammar
    /// released and heard again is built again. Never waits: a recognizer
    /// hearing an utterance keeps it.
    func release(_ grammar: DecoderGrammar)

    /// Forgets what the recognizer has learnt from the utterances it heard
    /// of the room, the microphone and the speaker (pocketsphinx: the
    /// running cepstral mean a stream normalises by), so that the next
    /// utterance is heard as by a recognizer just made. For the start of an
    /// unrelated conversation on a shared recognizer: a benchmark's next
    /// recording is another speaker on another microphone. Waits for an
    /// utterance being heard to end.
    func resetAdaptation() async

    /// Adapts to the speaker, microphone and room of `samples` as a session
    /// that had heard them speak before would be (pocketsphinx: the running
    /// cepstral mean becomes theirs). Waits for an utterance being heard to end.
    func adaptListening(to samples: [Int16]) async throws
}

extension SpeechRecognizer {
    /// A recognizer that learns nothing from what it heard has nothing to forget.
    public func resetAdaptation() async {}
    /// A recognizer that learns nothing from what it heard adapts to nothing.
    public func adaptListening(to samples: [Int16]) async throws {}
    /// A recognizer that builds nothing per grammar has nothing to let go of.
    public func release(_ grammar: DecoderGrammar) {}
}

/// One utterance being recognised while it is spoken.
///
/// Feed the audio in order, ask ``partial()`` whenever the endpointer sees
/// a pause, and end with ``finish()`` (or ``cancel()`` when the audio turned
/// out not to be an utterance). The recognizer serves no other utterance
/// until then.
public protocol RecognitionStream: AnyObject, Sendable {
    /// The grammar the stream is heard against.
    var grammar: DecoderGrammar { get }
    /// Decodes the next samples.
    func feed(_ samples: [Int16]) async throws
    /// What has been heard so far.
    func partial() async throws -> PartialRecognition
    /// Ends the utterance and returns what was heard: the same as
    /// ``SpeechRecognizer/recognize(_:grammar:)`` on all the samples fed.
    func finish() async throws -> Recognition
    /// Ends the utterance without a result and frees the recognizer.
    func cancel() async
    /// Every sample fed so far.
    var samples: [Int16] { get }
}

extension ContinuousClock.Instant {
    /// Wall-clock seconds from this instant to now (a recognition's
    /// `decodeSeconds`, the live loop's `finalizeSeconds`).
    public var secondsElapsed: Double {
        let elapsed = ContinuousClock.now - self
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
