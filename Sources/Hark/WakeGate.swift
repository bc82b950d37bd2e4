import HarkAudio
import HarkRecognition

/// Hands-free listening: utterances are ignored until one holds the wake
/// phrase ("hey hark"), found with pocketsphinx's keyword spotting. What
/// follows the phrase in the same utterance is the request; a wake phrase
/// alone makes the next utterance the request. While the assistant is
/// asking a question, answers need no wake phrase.
public struct WakeGate: Sendable {
    /// What to do with one utterance.
    public enum Decision: Sendable, Equatable {
        /// No wake phrase: not for Hark.
        case ignored
        /// The wake phrase alone: acknowledge, and take the next utterance.
        case woke
        /// A request: these samples go to the assistant.
        case request([Int16])
    }

    /// The words to spot.
    public let phrase: String
    /// pocketsphinx's `-kws_threshold` (lower spots more, and falsely more).
    public let threshold: Double
    /// The wake phrase was said alone; the next utterance is the request.
    public private(set) var awake = false

    /// Less speech than this after the phrase is no request (a breath, a click).
    static let minimumRequestSamples = PCMAudio.recognitionRate / 2

    public init(phrase: String, threshold: Double = 1e-20) {
        self.phrase = phrase
        self.threshold = threshold
    }

    /// Decides what `samples` (one utterance, 16 kHz mono) are.
    ///
    /// - Throws: ``RecognitionError`` when the phrase cannot be spotted.
    public mutating func admit(_ samples: [Int16], assistant: Assistant, decoder: any SpeechRecognizer) async throws -> Decision {
        let asking = await assistant.isAsking
        if awake || asking {
            awake = false
            return .request(samples)
        }
        guard let end = try await decoder.spot(phrase, in: samples, threshold: threshold) else { return .ignored }
        let rest = Array(samples[end...])
        let audio = PCMAudio(int16: rest, sampleRate: PCMAudio.recognitionRate)
        if rest.count >= Self.minimumRequestSamples, let speech = try? Endpointer.trim(audio), speech.samples.count >= Self.minimumRequestSamples {
            return .request(rest)
        }
        awake = true
        return .woke
    }
}

extension Turn {
    /// What to say when a card shows the details (push-to-talk and
    /// terminal use, as Siri after the Home button): questions and failures
    /// in full, a finished request's first sentence only.
    public var briefSpeech: String {
        guard code == "success", !prompt else { return speech }
        guard let end = speech.firstIndex(where: { ".!?".contains($0) }) else { return speech }
        return String(speech[...end])
    }
}
