import Foundation
import Testing

@testable import HarkAudio

@Suite("WAVReader decodes every supported layout")
struct WAVReaderTests {
    static let encodings: [SampleEncoding] = [.unsigned8, .int16, .int24, .int32, .int64, .float32, .float64]

    @Test("mono sine in each sample encoding", arguments: encodings)
    func monoSine(encoding: SampleEncoding) throws {
        let tone = sine(frequency: 440, amplitude: 0.6, sampleRate: 16_000, count: 800)
        let bytes = WAVBuilder(encoding: encoding).build(data: interleave([tone], as: encoding))
        let file = try WAVReader.decode(bytes, name: "tone.wav")

        #expect(file.format.sampleRate == 16_000)
        #expect(file.format.channels == 1)
        #expect(file.format.bitsPerSample == encoding.bits)
        #expect(file.format.isFloat == encoding.isFloat)
        #expect(file.format.codec == (encoding.isFloat ? "IEEE float" : "PCM"))
        #expect(!file.format.isExtensible)
        #expect(file.audio.sampleRate == 16_000)
        try #require(file.audio.samples.count == tone.count)
        let worst = zip(file.audio.samples, tone).map { abs($0 - Float($1)) }.max() ?? 0
        #expect(worst <= encoding.tolerance)
    }

    @Test("WAVE_FORMAT_EXTENSIBLE with PCM and float sub-formats", arguments: [SampleEncoding.int24, .int16, .float32])
    func extensible(encoding: SampleEncoding) throws {
        let left = sine(frequency: 300, amplitude: 0.5, sampleRate: 48_000, count: 480)
        let right = sine(frequency: 700, amplitude: 0.25, sampleRate: 48_000, count: 480)
        var builder = WAVBuilder(encoding: encoding, channels: 2, sampleRate: 48_000)
        builder.extensible = true
        let file = try WAVReader.decode(builder.build(data: interleave([left, right], as: encoding)), name: "ext.wav")

        #expect(file.format.isExtensible)
        #expect(file.format.isFloat == encoding.isFloat)
        #expect(file.format.formatTag == (encoding.isFloat ? 3 : 1))
        #expect(file.format.channels == 2)
        let expected = zip(left, right).map { Float(($0 + $1) / 2) }
        let worst = zip(file.audio.samples, expected).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= encoding.tolerance)
    }

    @Test("stereo is down-mixed to the average of the channels")
    func stereoDownmix() throws {
        let left = sine(frequency: 440, amplitude: 0.5, sampleRate: 16_000, count: 1_000)
        let right = sine(frequency: 1_000, amplitude: 0.3, sampleRate: 16_000, count: 1_000, phase: 1)
        let bytes = WAVBuilder(encoding: .int16, channels: 2).build(data: interleave([left, right], as: .int16))
        let file = try WAVReader.decode(bytes, name: "stereo.wav")
        #expect(file.format.channels == 2)
        let worst = zip(file.audio.samples, zip(left, right)).map { abs($0 - Float(($1.0 + $1.1) / 2)) }.max() ?? 1
        #expect(worst <= 1.0 / 32768)
    }

    @Test("six channels of constants average to their mean")
    func sixChannels() throws {
        let levels = [0.6, -0.2, 0.1, 0.3, -0.5, 0.0]
        let channels = levels.map { [Double](repeating: $0, count: 100) }
        let bytes = WAVBuilder(encoding: .float32, channels: 6, sampleRate: 48_000).build(data: interleave(channels, as: .float32))
        let file = try WAVReader.decode(bytes, name: "surround.wav")
        #expect(file.format.channels == 6)
        #expect(file.audio.samples.count == 100)
        let mean = Float(levels.reduce(0, +) / 6)
        #expect(file.audio.samples.allSatisfy { abs($0 - mean) < 1e-6 })
    }

    @Test("LIST, fact and odd-sized chunks before data are skipped")
    func skipsChunks() throws {
        let tone = sine(frequency: 440, sampleRate: 16_000, count: 320)
        var builder = WAVBuilder(encoding: .int16)
        builder.extraChunks = [
            ("LIST", Array("INFOISFT\u{5}\0\0\0hark\0".utf8)),
            ("odd ", [1, 2, 3]),  // odd length: followed by a pad byte
            ("fact", [0x40, 0x01, 0, 0]),
        ]
        let file = try WAVReader.decode(builder.build(data: interleave([tone], as: .int16)), name: "chunks.wav")
        try #require(file.audio.samples.count == 320)
        #expect(zip(file.audio.samples, tone).allSatisfy { abs($0 - Float($1)) <= 1.0 / 32768 })
    }

    @Test("streaming writers' unknown data sizes mean 'to the end of the file'", arguments: [UInt32(0), 0x7FFF_F000, 0xFFFF_FFFF])
    func unknownLength(marker: UInt32) throws {
        let tone = sine(frequency: 440, sampleRate: 16_000, count: 500)
        var builder = WAVBuilder(encoding: .int16)
        builder.dataSize = marker
        builder.riffSize = marker
        let file = try WAVReader.decode(builder.build(data: interleave([tone], as: .int16)), name: "stream.wav")
        #expect(file.audio.samples.count == 500)
    }

    @Test("a partial sample frame at the end is dropped")
    func partialFrame() throws {
        let data = interleave([[0.5, 0.25], [0.5, 0.25]], as: .int16) + [0x12]
        let file = try WAVReader.decode(WAVBuilder(encoding: .int16, channels: 2).build(data: data), name: "odd.wav")
        #expect(file.audio.samples == [0.5, 0.25])
    }

    @Test("non-finite float samples become silence")
    func nonFinite() throws {
        let data = interleave([[Double.nan, .infinity, 0.5]], as: .float32)
        let file = try WAVReader.decode(WAVBuilder(encoding: .float32).build(data: data), name: "nan.wav")
        #expect(file.audio.samples == [0, 0, 0.5])
    }

    @Test("G.711 expansion matches the standard's end points")
    func g711() {
        // mu-law 0x80/0x00 are the extremes (±8031 × 4), 0xFF/0x7F are zero.
        #expect(G711.expandMuLaw(0x80) == 32124)
        #expect(G711.expandMuLaw(0x00) == -32124)
        #expect(G711.expandMuLaw(0xFF) == 0)
        #expect(G711.expandMuLaw(0x7F) == 0)
        // A-law 0xAA/0x2A are the extremes, 0xD5/0x55 the smallest steps.
        #expect(G711.expandALaw(0xAA) == 32256)
        #expect(G711.expandALaw(0x2A) == -32256)
        #expect(G711.expandALaw(0xD5) == 8)
        #expect(G711.expandALaw(0x55) == -8)
    }

    @Test("reads files from disk by path")
    func readsFromDisk() throws {
        let directory = try TemporaryDirectory()
        let tone = sine(frequency: 440, sampleRate: 22_050, count: 2_205)
        let path = try directory.write(WAVBuilder(encoding: .int16, sampleRate: 22_050).build(data: interleave([tone], as: .int16)), to: "disk.wav")
        let file = try WAVReader.read(contentsOf: path)
        #expect(file.name == path)
        #expect(file.format.sampleRate == 22_050)
        #expect(file.audio.samples.count == 2_205)
        let fromData = try WAVReader.decode(Data(contentsOf: URL(fileURLWithPath: path)), name: path)
        #expect(fromData == file)
    }
}
