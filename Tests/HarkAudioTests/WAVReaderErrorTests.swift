import Foundation
import Testing

@testable import HarkAudio

@Suite("WAVReader rejects malformed files with a precise error")
struct WAVReaderErrorTests {
    static let name = "bad.wav"
    static let validData = interleave([sine(frequency: 440, sampleRate: 16_000, count: 64)], as: .int16)

    static func decode(_ bytes: [UInt8]) throws(AudioError) {
        _ = try WAVReader.decode(bytes, name: name)
    }

    static func withFormat(_ change: (inout WAVBuilder) -> Void) throws(AudioError) {
        var builder = WAVBuilder(encoding: .int16)
        change(&builder)
        try decode(builder.build(data: validData))
    }

    @Test("missing file, directory, and empty file")
    func fileProblems() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("nothing-here.wav")
        expectAudioError(.fileNotFound, naming: missing) { () throws(AudioError) in
            _ = try WAVReader.read(contentsOf: missing)
        }
        expectAudioError(.fileUnreadable(reason: "it is a directory"), naming: directory.url.path) { () throws(AudioError) in
            _ = try WAVReader.read(contentsOf: directory.url.path)
        }
        let empty = try directory.write([], to: "empty.wav")
        expectAudioError(.emptyFile, naming: empty) { () throws(AudioError) in
            _ = try WAVReader.read(contentsOf: empty)
        }
    }

    @Test("not RIFF/WAVE: an MP3 with an ID3 tag, and a RIFF AVI")
    func notWAVE() throws {
        let mp3 = Array("ID3\u{3}\0\0\0\0\0\0 and more".utf8)
        expectAudioError(.notRIFFWAVE(leadingBytes: Array(mp3.prefix(4))), naming: Self.name) { () throws(AudioError) in
            try Self.decode(mp3)
        }
        let avi = Array("RIFF\u{10}\0\0\0AVI LIST".utf8)
        expectAudioError(.notRIFFWAVE(leadingBytes: Array(avi.prefix(12))), naming: Self.name) { () throws(AudioError) in
            try Self.decode(avi)
        }
        do {
            try Self.decode(mp3)
        } catch {
            #expect(error.description == "bad.wav: not a RIFF/WAVE file (starts with 'ID3\\x03'); convert it with: sox bad.wav -r 16000 -c 1 -b 16 out.wav")
        }
    }

    @Test("truncated RIFF header, chunk header and fmt chunk")
    func truncatedHeaders() {
        let valid = WAVBuilder(encoding: .int16).build(data: Self.validData)
        expectAudioError(.truncatedHeader(chunk: "RIFF", needed: 12, available: 6), naming: Self.name) { () throws(AudioError) in
            try Self.decode(Array(valid.prefix(6)))
        }
        expectAudioError(.truncatedHeader(chunk: "chunk header", needed: 8, available: 4), naming: Self.name) { () throws(AudioError) in
            try Self.decode(Array(valid.prefix(16)))
        }
        expectAudioError(.truncatedHeader(chunk: "fmt ", needed: 16, available: 10), naming: Self.name) { () throws(AudioError) in
            try Self.decode(Array(valid.prefix(30)))
        }
        // A fmt chunk that declares fewer than the 16 bytes every format needs.
        var short = Array(valid.prefix(12)) + Array("fmt ".utf8)
        short.appendLE(UInt32(8))
        short += Array(valid[20..<28]) + Array(valid[36...])
        expectAudioError(.truncatedHeader(chunk: "fmt ", needed: 16, available: 8), naming: Self.name) { () throws(AudioError) in
            try Self.decode(short)
        }
    }

    @Test("data chunk claiming more bytes than the file holds")
    func truncatedData() {
        let valid = WAVBuilder(encoding: .int16).build(data: Self.validData)
        let cut = Array(valid.prefix(valid.count - 28))
        expectAudioError(.truncatedData(claimed: 128, available: 100), naming: Self.name) { () throws(AudioError) in
            try Self.decode(cut)
        }
        do {
            try Self.decode(cut)
        } catch {
            #expect(error.description.contains("claims 128 bytes but only 100"))
        }
    }

    @Test("a chunk before data running past the end of the file")
    func overlongChunk() {
        var builder = WAVBuilder(encoding: .int16)
        builder.extraChunks = [("LIST", [1, 2, 3, 4])]
        var bytes = builder.build(data: Self.validData)
        bytes.replaceSubrange(40..<44, with: [0xFF, 0xFF, 0xFF, 0x7F])
        expectAudioError(.truncatedHeader(chunk: "LIST", needed: 0x7FFF_FFFF, available: bytes.count - 44), naming: Self.name) { () throws(AudioError) in
            try Self.decode(bytes)
        }
    }

    @Test("compressed codecs are named", arguments: [
        (UInt16(0x0002), "Microsoft ADPCM"), (0x0011, "IMA ADPCM"), (0x0055, "MPEG Layer 3"),
        (0x0031, "GSM 6.10"), (0x1234, "0x1234"),
    ])
    func unsupportedCodec(tag: UInt16, name: String) {
        expectAudioError(.unsupportedCodec(formatTag: tag, name: name), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.formatTag = tag; $0.bitsPerSample = 4; $0.blockAlign = 256 }
        }
    }

    @Test("an extensible sub-format that is not PCM or float")
    func unsupportedSubFormat() {
        expectAudioError(.unsupportedCodec(formatTag: 0x0055, name: "MPEG Layer 3"), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.extensible = true; $0.subFormatTag = 0x0055 }
        }
    }

    @Test("impossible channel counts, rates and sample sizes")
    func absurdHeaders() {
        expectAudioError(.invalidChannelCount(0), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.channels = 0; $0.blockAlign = 2 }
        }
        expectAudioError(.invalidChannelCount(2000), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.channels = 2000; $0.blockAlign = 4000 }
        }
        expectAudioError(.invalidSampleRate(0), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.sampleRate = 0 }
        }
        expectAudioError(.invalidSampleRate(4_000_000_000), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.sampleRate = 4_000_000_000 }
        }
        expectAudioError(.invalidBitsPerSample(12, codec: "PCM"), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.bitsPerSample = 12; $0.blockAlign = 2 }
        }
        expectAudioError(.invalidBitsPerSample(16, codec: "IEEE float"), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.formatTag = 3 }
        }
        expectAudioError(.invalidBitsPerSample(16, codec: "mu-law"), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.formatTag = 7 }
        }
        expectAudioError(.inconsistentBlockAlign(declared: 4, expected: 2), naming: Self.name) { () throws(AudioError) in
            try Self.withFormat { $0.blockAlign = 4 }
        }
    }

    @Test("missing fmt or data chunk")
    func missingChunks() {
        var noData = Array("RIFF".utf8)
        noData.appendLE(UInt32(28))
        noData += Array("WAVE".utf8) + WAVBuilder().chunk("fmt ", WAVBuilder().fmtBody)
        expectAudioError(.missingChunk("data"), naming: Self.name) { () throws(AudioError) in
            try Self.decode(noData)
        }
        var noFormat = Array("RIFF".utf8)
        noFormat.appendLE(UInt32(4 + 8 + Self.validData.count))
        noFormat += Array("WAVE".utf8) + WAVBuilder().chunk("data", Self.validData)
        expectAudioError(.missingChunk("fmt "), naming: Self.name) { () throws(AudioError) in
            try Self.decode(noFormat)
        }
    }

    @Test("a data chunk without a single sample frame")
    func emptyAudio() {
        expectAudioError(.emptyAudio, naming: Self.name) { () throws(AudioError) in
            try Self.decode(WAVBuilder(encoding: .int16).build(data: []))
        }
        expectAudioError(.emptyAudio, naming: Self.name) { () throws(AudioError) in
            try Self.decode(WAVBuilder(encoding: .int24, channels: 2).build(data: [1, 2, 3, 4, 5]))
        }
    }

    @Test("every description is one line naming the file, even for odd paths")
    func oneLineDescriptions() {
        let kinds: [AudioError.Kind] = [
            .fileNotFound, .fileUnreadable(reason: "x\ny"), .emptyFile, .notRIFFWAVE(leadingBytes: [0, 10, 13]),
            .truncatedHeader(chunk: "fmt ", needed: 16, available: 3), .truncatedData(claimed: 10, available: 2),
            .missingChunk("data"), .unsupportedCodec(formatTag: 2, name: "Microsoft ADPCM"),
            .invalidChannelCount(0), .invalidSampleRate(0), .invalidBitsPerSample(7, codec: "PCM"),
            .inconsistentBlockAlign(declared: 1, expected: 2), .emptyAudio, .resamplingFailed("bad"), .invalidRawFormat("0 Hz"),
            .readFailed(reason: "EIO"), .writeFailed(reason: "ENOSPC"),
            .unrecognizableSampleRate(63), .tooLong(seconds: 1800, bytes: 57_600_000), .missingPadByte(after: "LIST"),
        ]
        for kind in kinds {
            let text = AudioError(kind, source: "my\nrecording\u{1B}[2J.wav").description
            #expect(text.hasPrefix("my\\nrecording\\x1b[2J.wav: "))
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
        #expect(AudioError(.emptyAudio, source: "it's.wav").description.contains("sox") == false)
        #expect(AudioError(.missingChunk("data"), source: "it's.wav").description.contains("sox 'it'\\''s.wav' -r 16000"))
    }

    @Test("2000 random mutations and truncations never crash the reader")
    func fuzz() throws {
        var generator = SeededGenerator(seed: 2024)
        var extensible = WAVBuilder(encoding: .int24, channels: 2, sampleRate: 44_100)
        extensible.extensible = true
        extensible.extraChunks = [("LIST", [1, 2, 3])]
        let seeds = [
            WAVBuilder(encoding: .int16).build(data: Self.validData),
            extensible.build(data: interleave([sine(frequency: 1, sampleRate: 100, count: 40), [Double](repeating: 0.1, count: 40)], as: .int24)),
            WAVBuilder(encoding: .float64, channels: 3).build(data: interleave(Array(repeating: [0.1, -0.2, 0.3], count: 3), as: .float64)),
        ]
        let interesting: [UInt32] = [0, 1, 2, 0xFFFF, 0x7FFF_F000, 0x7FFF_FFFF, 0xFFFF_FFFE, 0xFFFF_FFFF]
        var decoded = 0
        var rejected = 0
        for _ in 0..<2_000 {
            var bytes = seeds.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                switch Int.random(in: 0..<5, using: &generator) {
                case 0:
                    bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
                case 1 where !bytes.isEmpty:
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                case 2 where bytes.count >= 4:
                    // Overwrite a header field (sizes, counts, tags) with an extreme value.
                    let offset = Int.random(in: 0...min(bytes.count - 4, 80), using: &generator)
                    let value = interesting.randomElement(using: &generator)!
                    bytes.replaceSubrange(offset..<(offset + 4), with: withUnsafeBytes(of: value.littleEndian, Array.init))
                case 3:
                    let at = Int.random(in: 0...bytes.count, using: &generator)
                    bytes.insert(contentsOf: (0..<Int.random(in: 1...9, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: at)
                default:
                    if bytes.count > 12 { bytes.removeSubrange(12..<Int.random(in: 12...bytes.count, using: &generator)) }
                }
            }
            do {
                let file = try WAVReader.decode(bytes, name: "fuzz.wav")
                decoded += 1
                #expect(!file.audio.samples.isEmpty)
                #expect(file.audio.samples.allSatisfy { $0.isFinite })
                #expect((1...WAVFormat.maximumSampleRate).contains(file.audio.sampleRate))
            } catch {
                rejected += 1
                #expect(!error.description.contains("\n"))
            }
        }
        // Both outcomes must actually be exercised for the loop to mean anything.
        #expect(decoded > 50)
        #expect(rejected > 50)
    }
}
