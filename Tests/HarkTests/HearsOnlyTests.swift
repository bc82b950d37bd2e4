import Foundation
import Hark
import HarkRecognition
import HarkSampleApps
import Logging
import Testing

/// An assistant that only hears (`hark listen`) holds its intent graph
/// without what typed text alone reads (`IntentGraph.heard()`): the same
/// search, the same readings of what it hears, a smaller graph.
@Suite("An assistant that only hears", .serialized)
struct HearsOnlyTests {
    /// The sample apps' assistant, hearing through a decoder of its own
    /// (so that neither run's noise estimate carries into the other's).
    private func assistant(hearsOnly: Bool) throws -> Assistant {
        var builder = AssistantBuilder(modelsDirectory: Repo.models, dataDirectory: try temporaryDirectory(),
                                       recognizer: try PocketSphinxDecoder(model: AcousticModel()), configuration: patient)
        for module in SampleApps.modules { builder.add(module) }
        builder.hearsOnly = hearsOnly
        return try builder.build()
    }

    @Test("reads each request as an assistant that also reads typed text", arguments: [
        "flite-rms/monkeychat-send-bobo-bananas.wav", "festival-kal/request-ride.wav",
        "espeak-us/request-payment.wav", "flite-slt/mark-completed.wav",
    ])
    func readsAsTheWholeGraph(_ fixture: String) async throws {
        let samples = try TurnAudio.read(path: Repo.fixtures.appendingPathComponent(fixture).path)
        let only = try assistant(hearsOnly: true), whole = try assistant(hearsOnly: false)
        #expect(await only.graphSize.states < whole.graphSize.states * 3 / 4)
        let heard = try await only.hear(samples), read = try await whole.hear(samples)
        #expect(heard.intent != nil, "\(heard.heard)")
        #expect(heard.heard == read.heard)
        #expect(heard.intent == read.intent)
        #expect(heard.slots == read.slots)
        #expect(heard.code == read.code)
    }
}
