import Foundation
import Testing

@testable import HarkAudio

/// Files written by real tools (sox, espeak-ng), read back and resampled.
@Suite("Files from sox and espeak-ng", .enabled(if: toolsAvailable, "needs /usr/bin/sox and /usr/bin/espeak-ng"))
struct SoxInteropTests {
    /// A 1 kHz tone written by sox in some format.
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var soxOptions: [String]
        var rate: Int
        var channels: Int
        var bits: Int
        var isFloat: Bool
        var isExtensible: Bool
        var codec: String
        var testDescription: String { label }
    }

    static let cases = [
        Case(label: "44.1 kHz stereo float", soxOptions: ["-r", "44100", "-c", "2", "-e", "floating-point", "-b", "32"],
             rate: 44_100, channels: 2, bits: 32, isFloat: true, isExtensible: false, codec: "IEEE float"),
        Case(label: "8 kHz 8-bit unsigned", soxOptions: ["-r", "8000", "-c", "1", "-e", "unsigned-integer", "-b", "8"],
             rate: 8_000, channels: 1, bits: 8, isFloat: false, isExtensible: false, codec: "PCM"),
        Case(label: "48 kHz 24-bit (extensible)", soxOptions: ["-r", "48000", "-c", "1", "-b", "24"],
             rate: 48_000, channels: 1, bits: 24, isFloat: false, isExtensible: true, codec: "PCM"),
        Case(label: "8 kHz mu-law", soxOptions: ["-r", "8000", "-c", "1", "-e", "mu-law"],
             rate: 8_000, channels: 1, bits: 8, isFloat: false, isExtensible: false, codec: "mu-law"),
        Case(label: "8 kHz A-law", soxOptions: ["-r", "8000", "-c", "1", "-e", "a-law"],
             rate: 8_000, channels: 1, bits: 8, isFloat: false, isExtensible: false, codec: "A-law"),
        Case(label: "22.05 kHz 6-channel 16-bit", soxOptions: ["-r", "22050", "-c", "6", "-b", "16"],
             rate: 22_050, channels: 6, bits: 16, isFloat: false, isExtensible: true, codec: "PCM"),
    ]

    @Test("a sox 1 kHz tone decodes with the right format and stays 1 kHz at 16 kHz", arguments: cases)
    func toneSurvivesResampling(_ format: Case) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tone.wav")
        try run(soxPath, ["-n"] + format.soxOptions + [path, "synth", "1", "sine", "1000", "vol", "0.5"])

        let file = try WAVReader.read(contentsOf: path)
        #expect(file.format.sampleRate == format.rate)
        #expect(file.format.channels == format.channels)
        #expect(file.format.bitsPerSample == format.bits)
        #expect(file.format.isFloat == format.isFloat)
        #expect(file.format.isExtensible == format.isExtensible)
        #expect(file.format.codec == format.codec)
        #expect(file.audio.samples.count == format.rate)

        let resampled = try file.audio.toRecognitionFormat()
        #expect(resampled.sampleRate == 16_000)
        #expect(abs(resampled.samples.count - 16_000) <= 2)
        // Away from the filter's start-up and tail, the tone is intact: 1000 cycles a second,
        // its power all at 1 kHz, amplitude 0.5 (mean square 0.125).
        let middle = Array(resampled.samples[800..<15_200])
        #expect(abs(upwardZeroCrossings(middle) - 900) <= 2)
        #expect(abs(meanSquare(middle) - 0.125) < 0.01)
        let atTone = tonePower(middle, frequency: 1_000, sampleRate: 16_000)
        #expect(atTone > 0.9 * meanSquare(middle) / 2)
    }

    @Test("G.711 decoding agrees with sox's own expansion to 16-bit")
    func g711MatchesSox() throws {
        let directory = try TemporaryDirectory()
        for encoding in ["mu-law", "a-law"] {
            let compressed = directory.path("\(encoding).wav")
            let linear = directory.path("\(encoding)-linear.wav")
            try run(soxPath, ["-n", "-r", "8000", "-e", encoding, compressed, "synth", "0.2", "sine", "300-3000", "vol", "0.8"])
            try run(soxPath, [compressed, "-e", "signed-integer", "-b", "16", linear])
            let ours = try WAVReader.read(contentsOf: compressed).audio.samples
            let theirs = try WAVReader.read(contentsOf: linear).audio.samples
            expectIdentical(ours, theirs, "\(encoding): ours vs sox")
        }
    }

    @Test("a 12 kHz tone at 48 kHz is filtered out, not aliased to 4 kHz")
    func antiAliasing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("high.wav")
        try run(soxPath, ["-n", "-r", "48000", "-b", "16", path, "synth", "1", "sine", "12000", "vol", "0.5"])
        let source = try WAVReader.read(contentsOf: path).audio
        #expect(meanSquare(source.samples) > 0.1)

        let resampled = try Resampler.resample(source, to: 16_000)
        let middle = Array(resampled.samples[800..<15_200])
        // Sample dropping would leave a full-strength 4 kHz alias (mean square 0.125);
        // the sinc filter must take it below -60 dB of that.
        #expect(meanSquare(middle) < 0.125e-6)
        #expect(tonePower(middle, frequency: 4_000, sampleRate: 16_000) < 1e-7)
    }

    @Test("espeak-ng speech reads at its native 22.05 kHz and converts to 16 kHz")
    func espeakSpeech() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("speech.wav")
        try run(espeakPath, ["-w", path, "turn on the kitchen lights"])
        let file = try WAVReader.read(contentsOf: path)
        #expect(file.format.sampleRate == 22_050)
        #expect(file.format.channels == 1)
        #expect(file.format.bitsPerSample == 16)
        let speech = try file.audio.toRecognitionFormat()
        #expect(abs(speech.duration - file.audio.duration) < 0.001)
        let statistics = AudioStatistics(file)
        #expect(statistics.rmsDBFS > -40 && statistics.peakDBFS < 0)
    }

    @Test("sox and espeak-ng streaming output (size 0x7FFFF000) is read to the end")
    func streamingOutput() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("piped.wav")
        // Writing to a pipe leaves sox unable to seek back and fix the sizes.
        try run("/bin/sh", ["-c", "\(soxPath) -n -r 16000 -b 16 -t wav - synth 0.5 sine 440 | cat > '\(path)'"])
        let file = try WAVReader.read(contentsOf: path)
        #expect(file.audio.samples.count == 8_000)
    }
}
