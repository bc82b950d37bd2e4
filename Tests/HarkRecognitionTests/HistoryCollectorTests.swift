import CPocketSphinxShims
import Foundation
import HarkTestSupport
@testable import HarkRecognition
import Testing

/// The grammar search frees the word exits no path it follows can reach
/// (``PocketSphinxDecoder/collectHistory(of:)``), and hears exactly what it
/// heard keeping them all.
@Suite struct HistoryCollectorTests {
    /// The messaging fixture (5.2 s) with seeded uniform noise at a fifth of
    /// its RMS: the free-text loops and the garbage branch leave tens of
    /// thousands of word exits.
    private func noisySpeech(noiseLevel: Double) throws -> [Int16] {
        TestSignals.withWhiteNoise(try MessagingFixture.speech(), level: noiseLevel, seed: 0x9E37_79B9_7F4A_7C15)
    }

    private func held(by decoder: PocketSphinxDecoder) -> Int32 {
        decoder.state.withLock { state in state.map { hark_fsg_history_held(UnsafeMutableRawPointer($0.decoder)) } ?? -1 }
    }

    private func collected(by decoder: PocketSphinxDecoder) -> UInt64 {
        decoder.state.withLock { state in state.map { hark_fsg_history_collected(UnsafeMutableRawPointer($0.decoder)) } ?? 0 }
    }

    @Test("a noisy utterance frees the word exits no path reaches and is heard word for word as without freeing them")
    func sameReading() async throws {
        let audio = try noisySpeech(noiseLevel: 0.2)
        let grammar = try MessagingFixture.grammar()
        let collecting = try PocketSphinxDecoder(model: AcousticModel())
        let heard = try await collecting.recognize(audio, grammar: grammar)
        let freed = collected(by: collecting)
        var keepingAll = DecoderOptions()
        keepingAll.collectsSearchHistory = false
        let keeping = try PocketSphinxDecoder(model: AcousticModel(), options: keepingAll)
        let expected = try await keeping.recognize(audio, grammar: grammar)
        #expect(collected(by: keeping) == 0)
        #expect(freed > 10_000, "freed \(freed)")
        #expect(!heard.words.isEmpty)
        #expect(heard.text == expected.text)
        #expect(heard.words.map(\.word) == expected.words.map(\.word))
        #expect(heard.words.map(\.start) == expected.words.map(\.start))
        #expect(heard.words.map(\.end) == expected.words.map(\.end))
        #expect(heard.confidence == expected.confidence)

        // Streamed in 0.1 s pieces, the partial hypotheses read the history as it is freed.
        let stream = try await collecting.startStream(grammar: grammar)
        try await stream.feed(audio, inPiecesOf: 1_600)
        let streamed = try await stream.finish()
        #expect(collected(by: collecting) > freed)
        #expect(!streamed.words.isEmpty)
    }

    @Test("once an utterance's words are read its word exits are freed, and the next utterance is heard as the first was")
    func releasedAtTheEnd() async throws {
        let audio = try noisySpeech(noiseLevel: 0.2)
        let grammar = try MessagingFixture.grammar()
        let decoder = try PocketSphinxDecoder(model: AcousticModel())
        let first = try await decoder.recognize(audio, grammar: grammar)
        #expect(held(by: decoder) == 0)
        #expect(!first.words.isEmpty)

        // Streamed and ended, then streamed and cancelled: nothing held either way.
        let stream = try await decoder.startStream(grammar: grammar)
        try await stream.feed(audio[..<17_600], inPiecesOf: 1_600)
        #expect(held(by: decoder) > 0)
        try await stream.feed(audio[17_600...], inPiecesOf: 1_600)
        let streamed = try await stream.finish()
        #expect(held(by: decoder) == 0)
        #expect(!streamed.words.isEmpty)
        let cancelled = try await decoder.startStream(grammar: grammar)
        try await cancelled.feed(Array(audio[..<32_000]))
        #expect(held(by: decoder) > 0)
        await cancelled.cancel()
        #expect(held(by: decoder) == 0)

        let again = try await decoder.recognize(audio, grammar: grammar)
        #expect(again.text == first.text)
        #expect(again.words.map(\.start) == first.words.map(\.start))
        #expect(again.confidence == first.confidence)
    }
}
