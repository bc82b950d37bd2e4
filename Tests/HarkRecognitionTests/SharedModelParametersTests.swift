import CPocketSphinx
import Foundation
import HarkAudio
@testable import HarkRecognition
import Testing

/// Decoders reading one copy of the acoustic model's parameters
/// (``BorrowedModelParameters``).
@Suite("A pass's decoder reads the grammar decoder's acoustic model and hears exactly as with its own")
struct SharedModelParametersTests {
    /// A decoder of the phone loop (as the confidence's phone pass is made), or nil without the model.
    static func phoneDecoder() throws -> OpaquePointer? {
        let model = try AcousticModel()
        guard let phones = model.phoneLanguageModel else { return nil }
        return try PocketSphinxDecoder.makeDecoder(["-hmm": model.acousticModel, "-allphone": phones, "-allphone_ci": "yes",
                                                     "-beam": "1e-40", "-pbeam": "1e-40"], modelPath: model.acousticModel)
    }

    /// The phones `decoder` hears in `samples`, with the path's score.
    static func decode(_ decoder: OpaquePointer, _ samples: [Int16]) -> (String, Int32) {
        ps_start_utt(decoder)
        _ = samples.withUnsafeBufferPointer { ps_process_raw(decoder, $0.baseAddress, $0.count, 0, 1) }
        ps_end_utt(decoder)
        var score: Int32 = 0
        let hyp = ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
        return (hyp, score)
    }

    static func samples() throws -> [Int16] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("audio-fixtures/flite-slt/balance.wav").path
        return try WAVReader.read(contentsOf: path).audio.toRecognitionFormat().int16Samples()
    }

    @Test("the borrower reads the owner's Gaussians and mixture weights, hears the same phones with the same score, and frees cleanly")
    func borrowerHearsTheSame() throws {
        guard let owner = try Self.phoneDecoder(), let borrower = try Self.phoneDecoder(), let alone = try Self.phoneDecoder() else {
            Issue.record("the phone model is missing (scripts/setup.sh installs pocketsphinx-en-us)")
            return
        }
        defer { ps_free(alone); ps_free(owner) }
        let samples = try Self.samples()
        let expected = Self.decode(alone, samples)
        #expect(expected.0.split(separator: " ").count > 5, "the phone loop heard \(expected.0)")

        let a = try #require(BorrowedModelParameters.mixtureModel(of: owner))
        let b = try #require(BorrowedModelParameters.mixtureModel(of: borrower))
        #expect(a.pointee.g.pointee.mean[5]![1]![17] != b.pointee.g.pointee.mean[5]![1]![17])
        #expect(a.pointee.mixw[2]![3] != b.pointee.mixw[2]![3])
        let lent = try #require(BorrowedModelParameters.lend(from: owner, to: borrower))
        #expect(a.pointee.g.pointee.mean[5]![1]![17] == b.pointee.g.pointee.mean[5]![1]![17])
        #expect(a.pointee.g.pointee.var[41]![2]![127] == b.pointee.g.pointee.var[41]![2]![127])
        #expect(a.pointee.mixw[2]![3] == b.pointee.mixw[2]![3])
        // Its weights are the owner's mapping now, not a file it maps: it
        // cannot lend them on, nor borrow twice.
        #expect(BorrowedModelParameters.mixtureModel(of: borrower) == nil)
        #expect(BorrowedModelParameters.lend(from: owner, to: borrower) == nil)

        // Each decoder's running cepstral mean moves on after an utterance:
        // the second hearing differs from the first, alike in all three.
        let again = Self.decode(alone, samples)
        #expect(Self.decode(borrower, samples) == expected)
        #expect(Self.decode(owner, samples) == expected)
        #expect(Self.decode(borrower, samples) == again)
        #expect(Self.decode(owner, samples) == again)
        lent.giveBack()
        ps_free(borrower)
    }

    @Test("a decoder is not lent to itself, and nothing is lent where the layout does not hold")
    func refusesWhatDoesNotFit() throws {
        guard let owner = try Self.phoneDecoder() else {
            Issue.record("the phone model is missing")
            return
        }
        defer { ps_free(owner) }
        #expect(BorrowedModelParameters.lend(from: owner, to: owner) == nil)
        // Not a decoder: a buffer of zeros fails the first check.
        let zeros = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        zeros.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
        defer { zeros.deallocate() }
        #expect(BorrowedModelParameters.mixtureModel(of: OpaquePointer(zeros)) == nil)
    }
}
