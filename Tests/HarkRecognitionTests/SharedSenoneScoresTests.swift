import CPocketSphinx
import Foundation
@testable import HarkRecognition
import Testing

private extension PocketSphinxDecoder {
    /// The phone pass's share of the grammar pass's scores (made with the phone decoder).
    var senoneScores: SharedSenoneScores? {
        get throws {
            try state.withLock { state in
                guard state != nil else { return nil }
                _ = try phoneDecoder(&state!)
                return state!.senoneScores
            }
        }
    }

    /// Puts the phone pass's own evaluation back, as before the share.
    func stopSharing() {
        state.withLock { state in
            state?.senoneScores?.uninstall()
            state?.senoneScores = nil
        }
    }
}

/// The confidence's phone pass reads the grammar pass's scores of the
/// context-independent senones instead of evaluating its own Gaussians.
@Suite struct SharedSenoneScoresTests {
    /// Each word's confidence and the utterance's, heard with and without the share.
    private func compare(streamed: Bool) async throws -> (shared: Int, evaluated: Int) {
        let audio = try MessagingFixture.speech()
        let grammar = try MessagingFixture.grammar()
        func hear(_ decoder: PocketSphinxDecoder) async throws -> Recognition {
            guard streamed else { return try await decoder.recognize(audio, grammar: grammar) }
            let stream = try await decoder.startStream(grammar: grammar)
            try await stream.feed(audio, inPiecesOf: 1_600)
            return try await stream.finish()
        }
        let sharing = try PocketSphinxDecoder(model: AcousticModel())
        let share = try #require(try sharing.senoneScores, "the en-us model's phone pass shares the grammar pass's scores")
        let heard = try await hear(sharing)
        let counts = share.counts

        let alone = try PocketSphinxDecoder(model: AcousticModel())
        _ = try alone.senoneScores
        alone.stopSharing()
        #expect(try alone.senoneScores == nil)
        let expected = try await hear(alone)

        #expect(heard.text == expected.text)
        #expect(!heard.words.isEmpty)
        #expect(heard.words.map(\.word) == expected.words.map(\.word))
        // The same Gaussians of the same features: only pocketsphinx's
        // clamping of the far worst codewords, which depends on the best
        // codebook evaluated, moves a score.
        for (a, b) in zip(heard.words, expected.words) {
            #expect(abs(a.confidence - b.confidence) < 0.02, "\(a.word): \(a.confidence) against \(b.confidence)")
        }
        let (c, d) = (try #require(heard.confidence), try #require(expected.confidence))
        #expect(abs(c - d) < 0.02)
        #expect(c > 0.05 && c < 0.999, "a confidence measured, not a constant")
        return counts
    }

    @Test("a whole utterance: the phone pass takes the grammar pass's frames and reads as it did alone")
    func wholeUtterance() async throws {
        let counts = try await compare(streamed: false)
        #expect(counts.shared > 300, "a 5.2 s utterance has over 500 frames")
        #expect(counts.evaluated <= 5)
    }

    @Test("a stream: the phone pass follows the grammar pass piece by piece")
    func stream() async throws {
        let counts = try await compare(streamed: true)
        // Only the last frames, which the grammar pass scores after the
        // phone pass has ended, are evaluated twice.
        #expect(counts.shared > 300)
        #expect(counts.evaluated < 20)
    }

    @Test("frames of other audio are not taken, and nothing waits for a grammar pass that never runs")
    func otherAudio() async throws {
        let audio = try MessagingFixture.speech()
        let decoder = try PocketSphinxDecoder(model: AcousticModel())
        let grammar = try MessagingFixture.grammar()
        let share = try #require(try decoder.senoneScores)
        _ = try await decoder.recognize(audio, grammar: grammar)
        let (shared, evaluated) = share.counts
        let phones = try decoder.state.withLock { state in try #require(state?.phonesDecoder) }

        // The phone pass alone on the audio reversed: no frame is the grammar pass's.
        let reversed = Array(audio.reversed())
        let ownReading = try phoneReading(reversed, decoder: phones)
        #expect(share.counts.shared == shared)
        #expect(share.counts.evaluated > evaluated + 300)

        // The grammar pass says it publishes and never does: the phone pass
        // waits once (a second at most), then evaluates every frame itself.
        share.begin()
        let started = ContinuousClock.now
        let again = try phoneReading(reversed, decoder: phones)
        share.end()
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(again == ownReading)
        #expect(share.counts.shared == shared)
    }

    private func phoneReading(_ samples: [Int16], decoder: OpaquePointer) throws -> [String] {
        try PocketSphinxDecoder.startUtterance(decoder)
        try PocketSphinxDecoder.process(samples, with: decoder, wholeUtterance: true)
        return try PocketSphinxDecoder.endUtterance(decoder).map { "\($0.token) \($0.startFrame) \($0.acoustic)" }
    }
}
