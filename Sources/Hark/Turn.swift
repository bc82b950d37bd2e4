import HarkRecognition

/// A recognised word and where it is in the turn's (trimmed) audio: the
/// recognizer's own word, kept whole in the turn.
public typealias TimedWord = RecognizedWord

/// One turn of a conversation, as shown and as printed with `--json`.
public struct Turn: Sendable, Codable, Equatable {
    /// What Hark heard (or read, for typed turns); empty for a late result.
    public var heard: String
    /// Recognition confidence, 0...1 (1 for typed turns).
    public var confidence: Double
    public var app: String?
    public var intent: String?
    /// Parameter name → value, as resolved so far.
    public var slots: [String: String]
    /// Parameter name → the words the request said for it, as read before
    /// the app resolved it ("twenty dollars" where ``slots`` has "20 USD";
    /// a list item by its name, "Bobo Jr." for "bobo junior"). Only on the
    /// turn that reads a request; empty on answers to Hark's questions.
    public var spokenSlots: [String: String] = [:]
    /// What Hark said.
    public var speech: String
    /// The response code (`success`, `failure`, `inProgress`, ...), `prompt`
    /// while asking, `notUnderstood` when nothing matched, `cancelled`,
    /// `refused` (app not authorized, or device locked), `help`.
    public var code: String
    /// Whether Hark is waiting for an answer.
    public var prompt: Bool
    /// Seconds of audio decoded (0 for typed turns).
    public var audioSeconds: Double
    /// Seconds spent decoding.
    public var decodeSeconds: Double
    /// The recognised words with their times (empty for typed turns).
    public var words: [TimedWord] = []
    /// Result fields the app returned (`balance`, `image`, ...).
    public var output: [String: String] = [:]
    /// The activity the app would open, for `failureRequiringAppLaunch`.
    public var userActivity: String?
    /// What the app's developer did wrong, when the failure is theirs.
    public var developerError: String?
    /// The app's own card for this intent (its `HarkCardTemplates`), filled in.
    public var card: String?
    /// The room or satellite the turn came from (`hark serve`), when known.
    public var site: String?
    /// Why the speech was heard as no request, when the recognizer judged
    /// it so (code `notUnderstood`, `heard` empty): the reason and the
    /// grammar's reading it cleared.
    public var rejection: HeardRejection?

    public init(heard: String, confidence: Double, app: String?, intent: String?, slots: [String: String],
                spokenSlots: [String: String] = [:],
                speech: String, code: String, prompt: Bool, audioSeconds: Double, decodeSeconds: Double) {
        self.heard = heard
        self.confidence = confidence
        self.app = app
        self.intent = intent
        self.slots = slots
        self.spokenSlots = spokenSlots
        self.speech = speech
        self.code = code
        self.prompt = prompt
        self.audioSeconds = audioSeconds
        self.decodeSeconds = decodeSeconds
    }

    enum CodingKeys: String, CodingKey {
        case heard, confidence, app, intent, slots, speech, code, prompt, words, output, card, site, rejection
        case audioSeconds = "audio_seconds"
        case decodeSeconds = "decode_seconds"
        case userActivity = "user_activity"
        case spokenSlots = "spoken_slots"
        case developerError = "developer_error"
    }
}

/// A recognizer's ``Rejection`` as a turn reports it.
public struct HeardRejection: Sendable, Codable, Equatable {
    /// The reason's name: `outOfGrammar`, `noSpeech`, `unsure`,
    /// `pauseInAppName`, `forced` or `outscoredByDictation` from the
    /// recognizer; `namesNoApp` from the assistant (a heard request naming
    /// no app while several apps are installed, ``Assistant/sayTheApp``).
    public var reason: String
    /// The grammar's reading that was cleared ("" when there was none).
    public var reading: String
    /// The reason in words, with its figures.
    public var detail: String

    public init(reason: String, reading: String, detail: String) {
        self.reason = reason
        self.reading = reading
        self.detail = detail
    }

    public init(_ rejection: Rejection) {
        reason = rejection.name
        reading = rejection.reading
        detail = rejection.description
    }
}
