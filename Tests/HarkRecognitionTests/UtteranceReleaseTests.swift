import CPocketSphinx
import CPocketSphinxShims
import Foundation
import HarkTestSupport
@testable import HarkRecognition
import Testing

/// Once an utterance's words are read, the side passes let go of what they
/// kept of it (``PocketSphinxDecoder/releaseUtterance(of:)``): the
/// dictation's n-gram search its lattice and the pages of its backpointer
/// and score tables, which pocketsphinx grows in noisy speech and never
/// shrinks; the confidence's phone loop its history; and the decoder the
/// pages of its n-gram model's mapped file. The next utterance is heard as
/// the first was.
@Suite struct UtteranceReleaseTests {
    /// The tables' size and their resident bytes (whole pages) in the
    /// decoder's dictation pass.
    private func tables(of decoder: PocketSphinxDecoder) -> (bytes: Int64, resident: Int64)? {
        decoder.state.withLock { state -> (bytes: Int64, resident: Int64)? in
            guard let dictation = state?.dictation else { return nil }
            var bytes: Int64 = 0, resident: Int64 = 0
            guard hark_ngram_search_tables(UnsafeMutableRawPointer(dictation), &bytes, &resident) == 0 else { return nil }
            return (bytes, resident)
        }
    }

    /// The history entries the decoder's phone pass holds.
    private func phonesHeld(by decoder: PocketSphinxDecoder) -> Int32? {
        decoder.state.withLock { state in
            state?.phonesDecoder.map { hark_allphone_search_held(UnsafeMutableRawPointer($0)) }
        }
    }

    private func dictationHypothesis(of decoder: PocketSphinxDecoder) -> String? {
        decoder.state.withLock { state in
            state?.dictation.flatMap { dictation -> String? in
                var score: Int32 = 0
                return ps_get_hyp(dictation, &score).map { String(cString: $0) }
            }
        }
    }

    @Test("a noisy utterance's n-gram tables and phone history are given back once its words are read, and the next is heard as the first")
    func releasedAtTheEnd() async throws {
        let audio = TestSignals.withWhiteNoise(try MessagingFixture.speech(), level: 0.2, seed: 0x9E37_79B9_7F4A_7C15)
        // The n-gram model read from a copy of its own: a file's mapping is
        // the process's, so another suite's decoder reading the same file
        // would map its pages again.
        let model = try AcousticModel()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("utterance-release-\(UUID().uuidString).lm.bin")
        try FileManager.default.copyItem(atPath: try #require(model.languageModel), toPath: copy.path)
        defer { try? FileManager.default.removeItem(at: copy) }
        var dictation = DictationVocabulary()
        dictation.languageModel = copy.path
        let grammar = try MessagingFixture.grammar(dictation: dictation)
        // Resident kilobytes of the copy's one mapping (``MappedLanguageModel``'s).
        func mappedModelResidentKB() throws -> Int {
            let mappings = try MappedModelFileTests.residentKB(of: copy.path)
            #expect(mappings.count == 1, "mappings of the model: \(mappings)")
            return try #require(mappings.first)
        }
        let decoder = try PocketSphinxDecoder(model: model)
        let first = try await decoder.recognize(audio, grammar: grammar)
        #expect(first.words.contains { $0.isFreeText }, "the n-gram pass read the message: \(first.text)")
        let initial = Int64(5_000 * 32 + 100_000 * 4)   // -latsize backpointers and twenty scores each
        let released = try #require(tables(of: decoder))
        #expect(released.bytes > initial, "the noisy utterance grew the tables: \(released.bytes) bytes")
        #expect(released.resident == 0, "\(released.resident) of \(released.bytes) bytes still resident")
        #expect(dictationHypothesis(of: decoder) == nil)
        #expect(phonesHeld(by: decoder) == 0)
        // The n-gram model's pages the pass mapped, given back: 584 KB left
        // of the acoustic model's own model here (the pages around its
        // n-grams), 25.5 MB without.
        let mappedAfter = try mappedModelResidentKB()
        #expect(mappedAfter < 1_024, "\(mappedAfter) KB of the model still mapped")

        // Streamed and ended, then streamed and cancelled: given back either way.
        let stream = try await decoder.startStream(grammar: grammar)
        try await stream.feed(audio, inPiecesOf: 1_600)
        #expect((tables(of: decoder)?.resident ?? 0) > 0)
        #expect((phonesHeld(by: decoder) ?? 0) > 1_000)
        let mappedWhileHeard = try mappedModelResidentKB()
        #expect(mappedWhileHeard > 2_048, "\(mappedWhileHeard) KB of the model mapped while heard")
        let streamed = try await stream.finish()
        #expect(tables(of: decoder)?.resident == 0)
        #expect(phonesHeld(by: decoder) == 0)
        let mappedAfterStream = try mappedModelResidentKB()
        #expect(mappedAfterStream < 1_024, "\(mappedAfterStream) KB of the model still mapped")
        #expect(!streamed.words.isEmpty)
        let cancelled = try await decoder.startStream(grammar: grammar)
        try await cancelled.feed(Array(audio[..<48_000]), inPiecesOf: 1_600)
        #expect((tables(of: decoder)?.resident ?? 0) > 0)
        await cancelled.cancel()
        #expect(tables(of: decoder)?.resident == 0)
        #expect(phonesHeld(by: decoder) == 0)

        let again = try await decoder.recognize(audio, grammar: grammar)
        #expect(again.text == first.text)
        #expect(again.words.map(\.start) == first.words.map(\.start))
        #expect(again.words.map(\.end) == first.words.map(\.end))
        #expect(again.confidence == first.confidence)
    }
}
