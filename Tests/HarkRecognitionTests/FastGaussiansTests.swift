import CPocketSphinx
import Foundation
@testable import HarkRecognition
import Testing

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let pruned = repository.appendingPathComponent("models/dictation/language-model.lm.bin").path

/// A bare n-gram decoder over the whole pronunciation dictionary: its
/// search scores every frame's senones, so its best path's score is the
/// sum of the Gaussians' scores along it.
private final class Decoder {
    let decoder: OpaquePointer
    init(fast: Bool, options: [String: String] = [:]) throws {
        let model = try AcousticModel()
        let args = ["-hmm": model.acousticModel, "-dict": model.dictionary, "-lm": pruned].merging(options) { $1 }
        decoder = try PocketSphinxDecoder.makeDecoder(args, modelPath: model.acousticModel, fastGaussians: fast)
    }
    deinit { ps_free(decoder) }

    /// The best path's words and score, the audio given in pieces of `piece` samples.
    func hear(_ audio: [Int16], piece: Int) -> (text: String, score: Int32) {
        ps_start_utt(decoder)
        for start in stride(from: 0, to: audio.count, by: piece) {
            let part = Array(audio[start..<min(start + piece, audio.count)])
            part.withUnsafeBufferPointer { _ = ps_process_raw(decoder, $0.baseAddress, part.count, 0, 0) }
        }
        ps_end_utt(decoder)
        var score: Int32 = 0
        let text = ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
        return (text, score)
    }
}

/// pocketsphinx's Gaussians evaluated eight codewords at a time give
/// exactly pocketsphinx's own scores.
@Suite struct FastGaussiansTests {
    @Test(arguments: [
        [:],                       // as Hark decodes
        ["-topn": "2"],            // fewer best codewords kept
        ["-ds": "2"],              // codebooks evaluated every other frame
        ["-compallsen": "yes"],    // every senone, every codebook
    ])
    func sameBestPathAndScore(options: [String: String]) throws {
        try #require(FileManager.default.fileExists(atPath: pruned), "no \(pruned): scripts/setup.sh runs scripts/prune-lm.py")
        let audio = try MessagingFixture.speech()
        let fast = try Decoder(fast: true, options: options)
        let own = try Decoder(fast: false, options: options)
        #expect(FastGaussians.isInstalled(on: fast.decoder))
        #expect(!FastGaussians.isInstalled(on: own.decoder))

        let expected = own.hear(audio, piece: audio.count)
        #expect(expected.text.split(separator: " ").count >= 5, "a sentence heard: \(expected.text)")
        let whole = fast.hear(audio, piece: audio.count)
        #expect(whole.text == expected.text)
        #expect(whole.score == expected.score)
        // A stream in pieces, and each decoder's second utterance (its
        // cepstral mean carried over from the first).
        let streamed = fast.hear(audio, piece: 1_600), ownStreamed = own.hear(audio, piece: 1_600)
        #expect(streamed.text == ownStreamed.text)
        #expect(streamed.score == ownStreamed.score)
    }

    @Test func installsOnceAndOnlyOnItsOwnModel() throws {
        try #require(FileManager.default.fileExists(atPath: pruned))
        let own = try Decoder(fast: false)
        #expect(FastGaussians.install(on: own.decoder))
        #expect(FastGaussians.isInstalled(on: own.decoder))
        // A second install would rewrite the layout again: refused.
        #expect(!FastGaussians.install(on: own.decoder))
        let reference = try Decoder(fast: false)
        let audio = try MessagingFixture.speech()
        let heard = own.hear(audio, piece: audio.count), expected = reference.hear(audio, piece: audio.count)
        #expect(heard.text == expected.text && heard.score == expected.score)
    }

    /// Decoders that share one set of Gaussians (the grammar, n-gram and
    /// phone passes do): lent after both are installed, the borrower reads
    /// the owner's rewritten Gaussians and hears as pocketsphinx alone does.
    @Test func lentGaussiansStayExact() throws {
        try #require(FileManager.default.fileExists(atPath: pruned))
        let audio = try MessagingFixture.speech()
        let owner = try Decoder(fast: true), borrower = try Decoder(fast: true), reference = try Decoder(fast: false)
        let lent = try #require(BorrowedModelParameters.lend(from: owner.decoder, to: borrower.decoder))
        defer { lent.giveBack() }
        let expected = reference.hear(audio, piece: audio.count)
        let heard = borrower.hear(audio, piece: audio.count)
        #expect(heard.text == expected.text)
        #expect(heard.score == expected.score)
        // A model as pocketsphinx laid it out is not lent to a rewritten one.
        #expect(BorrowedModelParameters.lend(from: owner.decoder, to: reference.decoder) == nil)
    }
}
