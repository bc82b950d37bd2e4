import Foundation
import HarkAudio
import Synchronization

/// Noise suppression as a stage in front of any recognizer: utterances
/// whose estimated signal-to-noise ratio is under
/// ``NoiseSuppressor/bypassSNR`` go through RNNoise before the recognizer
/// hears them; clean ones go as they are (RNNoise only cost them accuracy).
///
/// Streams: audio is passed on as it comes once it is known to be clean
/// (the estimate over what came so far at or above the bypass, checked
/// every quarter second from the first half second; it only rises as
/// louder speech comes); until then it is kept, and audio never found
/// clean is denoised and recognised whole at the end, as
/// ``recognize(_:grammar:)`` does (RNNoise's measured gains were on whole
/// utterances). The recognizer behind it knows nothing of noise.
public final class DenoisingRecognizer: SpeechRecognizer {
    /// The recognizer that hears the (denoised) audio.
    public let recognizer: any SpeechRecognizer
    public let suppressor: NoiseSuppressor
    /// How surely someone must have spoken in a noisy utterance
    /// (``NoiseSuppressor/Enhancement/speechPresence(window:)``, RNNoise's
    /// own voice probability) for the recognizer to hear it at all. Below
    /// it the utterance is rejected undecoded: nobody spoke, so nothing was
    /// said, whatever the grammar could be made to fit (kitchen clatter was
    /// heard as "set that a done", confidence 0.94).
    public let minimumSpeechPresence: Double

    /// ``minimumSpeechPresence``'s default. Measured with Hark's own reading
    /// (`hark audio-info --speech-presence`, `scripts/speech-presence.py`;
    /// docs/measurements.md, "Out-of-grammar rejection"): barista-dev's orders score
    /// 0.99 and more in kitchen noise down to 6 dB SNR; one- and two-word
    /// answers in kitchen noise 0.95 and more but for 5 of 243 (at 6 dB);
    /// stretches of the kitchen noise with nobody talking in them 0.26-0.88,
    /// synthetic white, pink and brown noise at most 0.50. (Where the
    /// kitchen's own chatter is heard, that is speech, and left to the
    /// grammar to reject.)
    public static let defaultMinimumSpeechPresence = 0.95

    public init(_ recognizer: any SpeechRecognizer, suppressor: NoiseSuppressor,
                minimumSpeechPresence: Double = DenoisingRecognizer.defaultMinimumSpeechPresence) {
        self.recognizer = recognizer
        self.suppressor = suppressor
        self.minimumSpeechPresence = minimumSpeechPresence
    }

    public func recognize(_ samples: [Int16], grammar: DecoderGrammar) async throws -> Recognition {
        let started = ContinuousClock.now
        let enhanced: NoiseSuppressor.Enhancement?
        do { enhanced = try suppressor.enhanceIfNoisy(samples) } catch { throw RecognitionError("\(error)") }
        let denoising = started.secondsElapsed
        guard let enhanced else {
            var recognition = try await recognizer.recognize(samples, grammar: grammar)
            recognition.decodeSeconds += denoising
            return recognition
        }
        let presence = enhanced.speechPresence()
        guard presence >= minimumSpeechPresence else {
            var nobody = Recognition(text: "", words: [], confidence: 0,
                                     audioSeconds: Double(samples.count) / Double(PCMAudio.recognitionRate), decodeSeconds: denoising)
            nobody.rejection = Rejection(.noSpeech(presence: presence, minimum: minimumSpeechPresence))
            return nobody
        }
        var recognition = try await recognizer.recognize(enhanced.samples, grammar: grammar)
        recognition.decodeSeconds += denoising
        return recognition
    }

    public func startStream(grammar: DecoderGrammar) async throws -> any RecognitionStream {
        DenoisingStream(self, grammar: grammar)
    }

    public func spot(_ phrase: String, in samples: [Int16], threshold: Double) async throws -> Int? {
        try await recognizer.spot(phrase, in: samples, threshold: threshold)
    }

    public func phones(of word: String) -> [String]? { recognizer.phones(of: word) }

    public func prepare(_ grammar: DecoderGrammar) throws { try recognizer.prepare(grammar) }

    public func release(_ grammar: DecoderGrammar) { recognizer.release(grammar) }

    public func resetAdaptation() async { await recognizer.resetAdaptation() }

    /// Adapts the recognizer to `samples` as it would hear them: denoised when noisy.
    public func adaptListening(to samples: [Int16]) async throws {
        let enhanced: NoiseSuppressor.Enhancement?
        do { enhanced = try suppressor.enhanceIfNoisy(samples) } catch { throw RecognitionError("\(error)") }
        try await recognizer.adaptListening(to: enhanced?.samples ?? samples)
    }
}

/// ``DenoisingRecognizer``'s stream: the recognizer's own stream once the
/// audio is known clean, else one whole denoised recognition at the end.
final class DenoisingStream: RecognitionStream {
    let owner: DenoisingRecognizer
    let grammar: DecoderGrammar

    private struct State {
        var samples: [Int16] = []
        /// The recognizer's stream, from when the audio was found clean.
        var inner: (any RecognitionStream)?
        /// When (in samples) to estimate the noise again, while undecided.
        var nextCheck = DenoisingStream.decisionSamples
        var ended = false
    }
    private let state = Mutex(State())

    /// Audio heard before first deciding whether it is noisy: the
    /// endpointer's leading padding and the first words.
    static let decisionSamples = PCMAudio.recognitionRate / 2
    /// How often the noise is estimated again until the audio is known clean.
    static let checkInterval = PCMAudio.recognitionRate / 4

    init(_ owner: DenoisingRecognizer, grammar: DecoderGrammar) {
        self.owner = owner
        self.grammar = grammar
    }

    var samples: [Int16] { state.withLock { $0.samples } }

    func feed(_ samples: [Int16]) async throws {
        // Feeds come one after another (RecognitionStream's contract); the
        // lock keeps the state whole for `samples` read meanwhile.
        enum Next { case pass(any RecognitionStream), check([Int16]), keep }
        let next = try state.withLock { (s: inout State) throws -> Next in
            guard !s.ended else { throw RecognitionError("the stream was already ended") }
            s.samples += samples
            if let inner = s.inner { return .pass(inner) }
            guard s.samples.count >= s.nextCheck else { return .keep }
            s.nextCheck = s.samples.count + Self.checkInterval
            return .check(s.samples)
        }
        switch next {
        case .keep:
            return
        case .pass(let inner):
            try await inner.feed(samples)
        case .check(let heard):
            guard !NoiseSuppressor.isNoisy(estimatedSNR: NoiseSuppressor.estimatedSNR(heard)) else { return }
            // Clean: the recognizer streams from here, given all kept so far.
            let inner = try await owner.recognizer.startStream(grammar: grammar)
            state.withLock { $0.inner = inner }
            do {
                try await inner.feed(heard)
            } catch {
                await inner.cancel()
                state.withLock { $0.inner = nil; $0.ended = true }
                throw error
            }
        }
    }

    func partial() async throws -> PartialRecognition {
        guard let inner = state.withLock({ $0.inner }) else { return PartialRecognition(text: "", sentence: .notASentence) }
        return try await inner.partial()
    }

    func finish() async throws -> Recognition {
        let (inner, heard, ended) = state.withLock { s in
            defer { s.ended = true }
            return (s.inner, s.samples, s.ended)
        }
        guard !ended else { throw RecognitionError("the stream was already ended") }
        if let inner { return try await inner.finish() }
        // Never found clean: denoised (if noisy after all) and recognised whole now.
        return try await owner.recognize(heard, grammar: grammar)
    }

    func cancel() async {
        let inner = state.withLock { s in
            defer { s.ended = true; s.inner = nil }
            return s.ended ? nil : s.inner
        }
        await inner?.cancel()
    }
}
