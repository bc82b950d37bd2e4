import Foundation
import Testing

@testable import HarkAudio

@Suite("WAVWriter and AudioStatistics")
struct WAVWriterTests {
    @Test("16-bit audio survives encode → decode exactly")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 1)
        let samples = (0..<5_001).map { _ in Int16.random(in: .min ... .max, using: &generator) }
        let audio = PCMAudio(int16: samples, sampleRate: 22_050)
        let bytes = WAVWriter.encode(audio)
        #expect(bytes.count == 44 + 2 * samples.count)
        let file = try WAVReader.decode(bytes, name: "round-trip.wav")
        #expect(file.format == WAVFormat(codec: "PCM", formatTag: 1, sampleRate: 22_050, channels: 1,
                                         bitsPerSample: 16, isFloat: false, isExtensible: false))
        #expect(file.audio.sampleRate == audio.sampleRate)
        expectIdentical(file.audio.samples, audio.samples, "decoded vs original")
        expectIdentical(file.audio.int16Samples(), samples, "decoded 16-bit vs original")
    }

    @Test("out-of-range float samples are clipped")
    func clipping() throws {
        let bytes = WAVWriter.encode(PCMAudio(samples: [2, -2, 1, -1, .nan], sampleRate: 16_000))
        let file = try WAVReader.decode(bytes, name: "clip.wav")
        #expect(file.audio.int16Samples() == [32767, -32768, 32767, -32768, 0])
    }

    @Test("write replaces the file atomically and leaves no temporary files")
    func writesFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.wav")
        try Data("old contents".utf8).write(to: URL(fileURLWithPath: path))
        let audio = PCMAudio(int16: [1, 2, 3, -4], sampleRate: 8_000)
        try WAVWriter.write(audio, to: path)
        #expect(try WAVReader.read(contentsOf: path).audio == audio)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["out.wav"])
        // Tools run by other users (sox, players) must be able to read the result.
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect((permissions ?? 0) & 0o044 != 0)
    }

    @Test("write into a missing directory reports the path")
    func writeFailure() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("no/such/dir/out.wav")
        do {
            try WAVWriter.write(PCMAudio(samples: [0], sampleRate: 16_000), to: path)
            Issue.record("writing into a missing directory succeeded")
        } catch {
            guard case .writeFailed = error.kind else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(error.description.hasPrefix(path + ": cannot write"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("statistics of a known sine and of silence")
    func statistics() throws {
        let tone = sine(frequency: 1_000, amplitude: 0.5, sampleRate: 48_000, count: 48_000)
        let bytes = WAVBuilder(encoding: .float32, channels: 2, sampleRate: 48_000).build(data: interleave([tone, tone], as: .float32))
        let stats = AudioStatistics(try WAVReader.decode(bytes, name: "tone.wav"))
        #expect(stats.sampleRate == 48_000)
        #expect(stats.channels == 2)
        #expect(stats.bitsPerSample == 32)
        #expect(stats.codec == "IEEE float")
        #expect(stats.frameCount == 48_000)
        #expect(abs(stats.duration - 1) < 1e-9)
        #expect(abs(stats.peak - 0.5) < 1e-4)
        #expect(abs(stats.peakDBFS - -6.02) < 0.01)
        #expect(abs(stats.rms - 0.5 / 2.0.squareRoot()) < 1e-4)
        #expect(abs(stats.rmsDBFS - -9.03) < 0.01)
        #expect(stats.description == "48000 Hz, 2 channels, 32-bit IEEE float, 1.000 s, peak -6.0 dBFS, RMS -9.0 dBFS")

        let silence = AudioStatistics(PCMAudio(samples: [0, 0, 0], sampleRate: 16_000))
        #expect(silence.peakDBFS == -.infinity)
        #expect(silence.rmsDBFS == -.infinity)
        #expect(silence.description.hasSuffix("peak -inf dBFS, RMS -inf dBFS"))
    }
}
