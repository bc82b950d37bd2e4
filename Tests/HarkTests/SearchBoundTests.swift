import Foundation
import Hark
import HarkRecognition
import HarkTestSupport
import Testing

/// The grammar search of every sample app keeps about
/// ``DecoderOptions/measuredArguments``' `-maxhmmpf` phone models a frame
/// at most (docs/measurements.md, "Bounded search"): noise no longer lets it search
/// several times as many, and the request is still heard.
@Suite struct SearchBoundTests {
    /// The bound the decoder is built with.
    private var bound: Double { Double(DecoderOptions.measuredArguments["-maxhmmpf"] ?? "") ?? 0 }

    /// What a fresh assistant (no question pending) hears in `samples`, and the grammar search's work.
    private func hear(_ samples: [Int16], with decoder: PocketSphinxDecoder) async throws -> (Turn, PocketSphinxDecoder.SearchWork) {
        let turn = try await makeAssistant(decoder: decoder).hear(samples)
        return (turn, try #require(decoder.lastSearchWork()))
    }

    @Test("a noisy request to a sample app is heard as the unbounded search hears it, with a third of the phone models searched",
          arguments: ["flite-slt/request-ride.wav", "flite-slt/start-workout.wav"])
    func bounded(audio: String) async throws {
        #expect(bound >= 1_000)
        let fixture = try #require(Fixture.all.first { $0.audio == audio })
        let clean = try TurnAudio.read(path: fixture.path)
        let decoder = try PocketSphinxDecoder(model: AcousticModel())
        // pocketsphinx's own setting for no bound.
        let unboundedDecoder = try PocketSphinxDecoder(model: AcousticModel(), options: DecoderOptions(arguments: ["maxhmmpf": "-1"]))

        // Clean, the request is heard right, well inside the bound.
        let (turn, work) = try await hear(clean, with: decoder)
        #expect(turn.app == fixture.app && turn.intent == fixture.intent, "heard \(turn.heard)")
        #expect(turn.slots == fixture.slots, "heard \(turn.heard)")
        #expect(work.frames > 100 && work.modelsPerFrame < bound)

        // White noise at 17 dB SNR: unbounded, the search keeps several
        // times the bound alive; bounded, it narrows its beams above the
        // bound (widening them again below it, so the mean may pass it a
        // little) and hears the same.
        let samples = TestSignals.withWhiteNoise(clean, level: 0.25, seed: 0x5851_F42D_4C95_7F2D)
        let (noisyTurn, bounded) = try await hear(samples, with: decoder)
        let (expected, unbounded) = try await hear(samples, with: unboundedDecoder)
        #expect(bounded.frames == unbounded.frames)
        #expect(unbounded.modelsPerFrame > 2.5 * bound, "unbounded: \(unbounded.modelsPerFrame) models a frame")
        #expect(bounded.modelsPerFrame < 1.5 * bound, "bounded: \(bounded.modelsPerFrame) models a frame")
        #expect(bounded.modelsPerFrame < 0.5 * unbounded.modelsPerFrame)
        #expect(noisyTurn.heard == expected.heard)
        #expect(noisyTurn.app == expected.app && noisyTurn.intent == expected.intent && noisyTurn.slots == expected.slots)
    }
}
