/// Whether the grammar pass's reading was forced onto speech it does not
/// fit, judged by its words' length and confidence.
///
/// The grammar search must end in a sentence of the grammar, and a sentence
/// ending in free text takes any words after a short carrier: a remark
/// about an app, a request to an app that is not installed ("send twenty
/// dollars to Bobo on Venmo" heard as "… to bobo for on the go"), or talk
/// in the room can be read as a request whose carrier was never said. Two
/// marks of such a reading, measured on the spoken development sets
/// (docs/measurements.md, "Forced readings"):
///
/// - **A squeezed carrier.** The grammar word just before free text lasts
///   no longer than its phones can (three 10 ms frames each, one frame
///   more allowed) and is far less like the audio than free phones are
///   ("add" 0.06 s, confidence 0.00, in "add is there a way to share …"). A
///   carrier the person said takes its time: of the 812 requests read right,
///   5 had one.
/// - **Mostly unlike.** More than 40% of the grammar's words of three
///   phones or more are each far less like the audio than free phones
///   (confidence under 0.1): the sentence as a whole does not fit, though a
///   few of its words do ("hi monkey fit track an forty eight mile inside
///   bananarific" for "My MonkeyFit streak is at forty days now"). Shorter
///   words are left out: "a", "with", "like" are unlike the audio in
///   sentences said right too ("i'd like a latte with brown sugar", as
///   said, has four of its seven words under 0.1, two of its five long
///   ones).
public enum ForcedReading {
    /// A word of the reading: a grammar word, or a run of free text.
    public struct Word: Sendable, Equatable {
        /// 10 ms frames the word takes (0 for free text).
        public var frames: Int
        /// Phones of the pronunciation heard (0 when unknown, and for free text).
        public var phones: Int
        /// The word's confidence, 0...1.
        public var confidence: Double
        public var isFreeText: Bool

        public init(frames: Int, phones: Int, confidence: Double, isFreeText: Bool) {
            self.frames = frames
            self.phones = phones
            self.confidence = confidence
            self.isFreeText = isFreeText
        }
    }

    /// A carrier of at least this many phones may be squeezed ("a" is at
    /// its shortest whenever said quickly)...
    public static let squeezeMinimumPhones = 2
    /// ...when at most this many frames longer than its phones' shortest
    /// (three frames a phone).
    public static let squeezeSlackFrames = 1
    /// A squeezed carrier is forced when its confidence is under this.
    public static let squeezedCarrierConfidence = 0.05
    /// A grammar word is unlike the audio under this confidence...
    public static let unlikeConfidence = 0.1
    /// ...and a reading is forced when more than this share of its grammar
    /// words...
    public static let unlikeShare = 0.4
    /// ...of at least this many phones are.
    public static let unlikeMinimumPhones = 3

    public static func isForced(_ words: [Word]) -> Bool {
        hasSqueezedCarrier(words) || isMostlyUnlike(words)
    }

    /// A grammar word of two phones or more, just before free text, at its
    /// shortest and unlike the audio.
    public static func hasSqueezedCarrier(_ words: [Word]) -> Bool {
        zip(words, words.dropFirst()).contains { word, next in
            next.isFreeText && isSqueezed(word)
        }
    }

    /// A grammar word of two phones or more at its shortest and unlike the audio.
    public static func isSqueezed(_ word: Word) -> Bool {
        !word.isFreeText && word.phones >= squeezeMinimumPhones
            && word.frames <= 3 * word.phones + squeezeSlackFrames
            && word.confidence < squeezedCarrierConfidence
    }

    /// More than ``unlikeShare`` of the grammar words of
    /// ``unlikeMinimumPhones`` or more under ``unlikeConfidence``.
    public static func isMostlyUnlike(_ words: [Word]) -> Bool {
        let grammar = words.filter { !$0.isFreeText && $0.phones >= unlikeMinimumPhones }
        guard !grammar.isEmpty else { return false }
        let unlike = grammar.filter { $0.confidence < unlikeConfidence }.count
        return Double(unlike) > unlikeShare * Double(grammar.count)
    }
}
