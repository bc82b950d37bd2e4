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

    public init(_ recognizer: any SpeechRecognizer, suppressor: NoiseSuppressor) {
        self.recognizer = recognizer
        self.suppressor = suppressor
    }

    public func recognize(_ samples: [Int16], grammar: DecoderGrammar) async throws -> Recognition {
        let started = ContinuousClock.now
        let heard = try denoisedIfNoisy(samples)
        let denoising = started.secondsElapsed
        var recognition = try await recognizer.recognize(heard, grammar: grammar)
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

    func denoisedIfNoisy(_ samples: [Int16]) throws -> [Int16] {
        do { return try suppressor.suppressIfNoisy(samples) } catch { throw RecognitionError("\(error)") }
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
            guard NoiseSuppressor.estimatedSNR(heard) >= NoiseSuppressor.bypassSNR else { return }
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
        guard let inner = state.withLock({ $0.inner }) else { return PartialRecognition(text: "", sentence: .incomplete) }
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
