import Foundation
import HarkAudio
import HarkGrammar
import HarkRecognition
import HarkTestSupport
import Testing

/// One pocketsphinx decoder for the suite, behind the noise-suppression stage.
private let inner = Result { try PocketSphinxDecoder(model: AcousticModel()) }

/// `samples` with white noise of the given RMS (fixed seed) added.
private func withNoise(_ samples: [Int16], rms: Double) -> [Int16] {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    return samples.map { sample in
        var sum = 0.0
        for _ in 0..<12 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            sum += Double(state >> 11) / Double(1 << 53)
        }
        return Int16(clamping: Int((Double(sample) + (sum - 6) * rms).rounded()))
    }
}

private func stream(_ samples: [Int16], through recognizer: any SpeechRecognizer, grammar: DecoderGrammar)
    async throws -> (partial: PartialRecognition, result: Recognition) {
    let stream = try await recognizer.startStream(grammar: grammar)
    try await stream.feed(samples, inPiecesOf: 320)
    let partial = try await stream.partial()
    return (partial, try await stream.finish())
}

/// The decoder, counting the utterances it is given.
private final class Counting: SpeechRecognizer, @unchecked Sendable {
    let inner: any SpeechRecognizer
    private let lock = NSLock()
    private var heard = 0
    var utterances: Int { lock.withLock { heard } }
    init(_ inner: any SpeechRecognizer) { self.inner = inner }
    func recognize(_ samples: [Int16], grammar: DecoderGrammar) async throws -> Recognition {
        lock.withLock { heard += 1 }
        return try await inner.recognize(samples, grammar: grammar)
    }
    func startStream(grammar: DecoderGrammar) async throws -> any RecognitionStream {
        lock.withLock { heard += 1 }
        return try await inner.startStream(grammar: grammar)
    }
    func spot(_ phrase: String, in samples: [Int16], threshold: Double) async throws -> Int? {
        try await inner.spot(phrase, in: samples, threshold: threshold)
    }
    func phones(of word: String) -> [String]? { inner.phones(of: word) }
    func prepare(_ grammar: DecoderGrammar) throws { try inner.prepare(grammar) }
}

/// Noise suppression as a stage in front of the recognizer (issue 16): the
/// recognizer knows nothing of noise; the stage decides, per utterance.
@Suite("Noise suppression in front of the recognizer", .serialized)
struct DenoisingRecognizerTests {
    @Test("clean speech goes to the recognizer untouched, and streams as it comes")
    func cleanPassesThrough() async throws {
        let decoder = try inner.get()
        let stage = DenoisingRecognizer(decoder, suppressor: try NoiseSuppressor())
        let grammar = try MessagingFixture.grammar()
        let audio = try MessagingFixture.speech()
        #expect(NoiseSuppressor.estimatedSNR(audio) >= NoiseSuppressor.bypassSNR)
        let direct = try await decoder.recognize(audio, grammar: grammar)
        let whole = try await stage.recognize(audio, grammar: grammar)
        #expect(whole.text == direct.text && whole.confidence == direct.confidence)
        #expect(whole.text.hasPrefix("send a text to little bobo"), "\(whole.text)")
        // Streamed: the recognizer heard it while it came (a partial before
        // the end), as it hears the same stream without the stage (each from
        // the model's starting mean, as a listener just started).
        await decoder.resetAdaptation()
        let streamed = try await stream(audio, through: stage, grammar: grammar)
        await decoder.resetAdaptation()
        let plain = try await stream(audio, through: decoder, grammar: grammar)
        #expect(streamed.partial.text.hasPrefix("send a text to little bobo"), "\(streamed.partial.text)")
        #expect(streamed.result.text.hasPrefix("send a text to little bobo"), "\(streamed.result.text)")
        #expect(streamed.result.text == plain.result.text && streamed.result.confidence == plain.result.confidence,
                "\(streamed.result.text) against \(plain.result.text)")
    }

    @Test("noisy speech is denoised and recognised whole at its end, streamed or not")
    func noisyIsDenoisedWhole() async throws {
        let decoder = try inner.get()
        let suppressor = try NoiseSuppressor()
        let stage = DenoisingRecognizer(decoder, suppressor: suppressor)
        let grammar = try MessagingFixture.grammar()
        let noisy = withNoise(try MessagingFixture.speech(), rms: 400)
        #expect(NoiseSuppressor.estimatedSNR(noisy) < NoiseSuppressor.bypassSNR)
        // Whole: what the recognizer hears is RNNoise's output.
        let denoised = try suppressor.suppress(noisy)
        let expected = try await decoder.recognize(denoised, grammar: grammar)
        let whole = try await stage.recognize(noisy, grammar: grammar)
        #expect(whole.text == expected.text && whole.confidence == expected.confidence, "\(whole.text) / \(expected.text)")
        #expect(whole.text.hasPrefix("send a text to"), "\(whole.text)")
        // Streamed: held back from the recognizer (no partial), then the same whole decode.
        let streamed = try await stream(noisy, through: stage, grammar: grammar)
        #expect(streamed.partial == PartialRecognition(text: "", sentence: .notASentence))
        #expect(streamed.result.text == expected.text && streamed.result.confidence == expected.confidence)
        // The stage is the only place noise is handled: the recognizer alone hears the noise.
        let raw = try await decoder.recognize(noisy, grammar: grammar)
        #expect(raw.confidence != expected.confidence)
    }

    @Test("noise with nobody speaking is not understood, and never reaches the recognizer, streamed or not")
    func nobodySpeaking() async throws {
        let counting = Counting(try inner.get())
        let stage = DenoisingRecognizer(counting, suppressor: try NoiseSuppressor())
        #expect(stage.minimumSpeechPresence == DenoisingRecognizer.defaultMinimumSpeechPresence)
        let grammar = try MessagingFixture.grammar()
        let noise = TestSignals.clatter()
        #expect(NoiseSuppressor.estimatedSNR(noise) < NoiseSuppressor.bypassSNR)
        let whole = try await stage.recognize(noise, grammar: grammar)
        #expect(whole.rejected && whole.text.isEmpty && whole.words.isEmpty && whole.confidence == 0)
        #expect(whole.audioSeconds == 3)
        let streamed = try await stream(noise, through: stage, grammar: grammar)
        #expect(streamed.result.rejected && streamed.result.text.isEmpty)
        #expect(counting.utterances == 0)
        // The same stage hears speech under noise as before, through the recognizer.
        let noisy = withNoise(try MessagingFixture.speech(), rms: 400)
        let heard = try await stage.recognize(noisy, grammar: grammar)
        #expect(!heard.rejected && heard.text.hasPrefix("send a text to"), "\(heard.text)")
        #expect(counting.utterances == 1)
        // With no presence asked for, the noise goes to the recognizer like speech.
        let everything = DenoisingRecognizer(counting, suppressor: try NoiseSuppressor(), minimumSpeechPresence: 0)
        _ = try await everything.recognize(noise, grammar: grammar)
        #expect(counting.utterances == 2)
    }
}
