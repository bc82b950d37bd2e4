import Foundation
import HarkTestSupport
import Testing

@testable import HarkAudio

/// RNNoise in front of the recognizer, on a real (synthetic-voice) fixture.
@Suite("NoiseSuppressor (RNNoise)")
struct NoiseSuppressorTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A spoken fixture, 16 kHz.
    static func speech() throws -> [Int16] {
        let path = root.appendingPathComponent("audio-fixtures/flite-rms/monkeychat-send-bobo-bananas.wav").path
        return try WAVReader.read(contentsOf: path).audio.toRecognitionFormat().int16Samples()
    }

    /// White noise from a fixed seed, with the given RMS (in 16-bit units).
    static func noise(count: Int, rms: Double) -> [Double] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            // Sum of 12 uniforms: close to Gaussian, unit variance.
            var sum = 0.0
            for _ in 0..<12 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                sum += Double(state >> 11) / Double(1 << 53)
            }
            return (sum - 6) * rms
        }
    }

    static func energy(_ x: some Collection<Int16>) -> Double {
        x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, x.count))
    }

    static func correlation(_ a: [Int16], _ b: [Int16], lag: Int) -> Double {
        var ab = 0.0, aa = 0.0, bb = 0.0
        for i in 0..<(a.count - abs(lag)) {
            let x = Double(a[lag >= 0 ? i : i - lag]), y = Double(b[lag >= 0 ? i + lag : i])
            ab += x * y; aa += x * x; bb += y * y
        }
        return ab / max(1, (aa * bb).squareRoot())
    }

    @Test("clean speech comes out as long as it went in, in line with it sample for sample, and nearly unchanged")
    func aligned() throws {
        let suppressor = try NoiseSuppressor()
        let input = try Self.speech()
        let output = try suppressor.suppress(input)
        #expect(output.count == input.count)
        let lags = -40...40
        let best = lags.max { Self.correlation(input, output, lag: $0) < Self.correlation(input, output, lag: $1) }
        #expect(best == 0, "RNNoise's look-ahead is not taken out: output trails by \(best ?? 0) samples")
        #expect(Self.correlation(input, output, lag: 0) > 0.9)
    }

    @Test("noise before the speech is attenuated by more than 15 dB; the speech keeps most of its energy")
    func attenuates() throws {
        let suppressor = try NoiseSuppressor()
        let speech = try Self.speech()
        let lead = 16_000  // one second of noise alone
        let noise = Self.noise(count: lead + speech.count, rms: 300)
        let mixed = noise.enumerated().map { i, n in
            Int16(clamping: Int((n + (i >= lead ? Double(speech[i - lead]) : 0)).rounded()))
        }
        let output = try suppressor.suppress(mixed)
        // The first 100 ms is the network settling; judge the rest of the lead.
        let before = Self.energy(mixed[1_600..<lead]), after = Self.energy(output[1_600..<lead])
        #expect(10 * log10(before / max(after, 1e-9)) > 15, "noise \(before) → \(after)")
        let speechBefore = Self.energy(speech), speechAfter = Self.energy(output[lead...])
        #expect(speechAfter > speechBefore * 0.5 && speechAfter < speechBefore * 1.5, "speech \(speechBefore) → \(speechAfter)")
    }

    @Test("each call starts afresh: the same input gives the same output, whatever came before")
    func deterministic() throws {
        let suppressor = try NoiseSuppressor()
        let input = try Self.speech()
        let first = try suppressor.suppress(input)
        _ = try suppressor.suppress(Self.noise(count: 8_000, rms: 3_000).map { Int16(clamping: Int($0)) })
        #expect(try suppressor.suppress(input) == first)
        #expect(try suppressor.suppress([]) == [])
        #expect(try suppressor.suppress([1, 2, 3]).count == 3)
    }

    @Test("clean speech is left as it is; the same speech in noise is denoised")
    func onlyWhenNoisy() throws {
        let suppressor = try NoiseSuppressor()
        let speech = try Self.speech()
        #expect(NoiseSuppressor.estimatedSNR(speech) >= NoiseSuppressor.bypassSNR)
        #expect(try suppressor.suppressIfNoisy(speech) == speech)
        // Noise 20 dB under the speech's loudest frame energy or so.
        let noisy = zip(speech, Self.noise(count: speech.count, rms: 600)).map { Int16(clamping: Int((Double($0) + $1).rounded())) }
        #expect(NoiseSuppressor.estimatedSNR(noisy) < NoiseSuppressor.bypassSNR)
        #expect(try suppressor.suppressIfNoisy(noisy) == suppressor.suppress(noisy))
        #expect(try suppressor.suppressIfNoisy(noisy) != noisy)
        #expect(NoiseSuppressor.estimatedSNR([]) == 0)
    }

    @Test("RNNoise's voice probability: speech, clean or under noise, is present; noise, a tone and clatter alone are not")
    func speechPresence() throws {
        let suppressor = try NoiseSuppressor()
        let speech = try Self.speech()
        let clean = try suppressor.enhance(speech)
        // One reading per 10 ms of the input, as the samples are.
        #expect(clean.speechProbabilities.count == (speech.count + 159) / 160)
        #expect(clean.samples == (try suppressor.suppress(speech)))
        #expect(clean.speechProbabilities.allSatisfy { (0...1).contains($0) })
        let noisy = zip(speech, Self.noise(count: speech.count, rms: 600)).map { Int16(clamping: Int((Double($0) + $1).rounded())) }
        let threshold = 0.95  // DenoisingRecognizer's default, in HarkRecognition
        for (name, audio) in [("clean speech", clean), ("speech in noise", try suppressor.enhance(noisy))] {
            #expect(audio.speechPresence() >= threshold, "\(name): \(audio.speechPresence())")
        }
        let nobody: [(String, [Int16])] = [
            ("white noise", Self.noise(count: 48_000, rms: 600).map { Int16(clamping: Int($0.rounded())) }),
            ("clatter", TestSignals.clatter()),
            ("silence", [Int16](repeating: 0, count: 48_000)),
        ]
        for (name, audio) in nobody {
            let presence = try suppressor.enhance(audio).speechPresence()
            #expect(presence < 0.8, "\(name): \(presence)")
        }
        // A one-word answer said fast ("Bobo", espeak at 250 words a minute,
        // 0.3 s of voice) over a low rumble (brown noise; about 29 dB SNR, so
        // the stage denoises and judges it) is someone speaking. Over 0.3 s,
        // the window until 2026-11-27, it read about 0.81 and was taken for
        // nobody speaking.
        let answer = try WAVReader.read(contentsOf: Self.root.appendingPathComponent("audio-fixtures/espeak-rp-fast/seed-a-2.wav").path)
            .audio.toRecognitionFormat().int16Samples()
        var level = 0.0
        let brown = Self.noise(count: answer.count, rms: 1).map { x -> Double in
            level = 0.98 * level + x
            return level
        }
        let brownRMS = (brown.reduce(0) { $0 + $1 * $1 } / Double(brown.count)).squareRoot()
        let overRumble = answer.indices.map { Int16(clamping: Int((Double(answer[$0]) + brown[$0] * 300 / brownRMS).rounded())) }
        #expect(NoiseSuppressor.estimatedSNR(overRumble) < NoiseSuppressor.bypassSNR)
        let heard = try suppressor.enhance(overRumble)
        #expect(heard.speechPresence() >= threshold, "\(heard.speechPresence())")
        #expect(heard.speechPresence(window: 30) < threshold, "the answer is shorter than 0.3 s: \(heard.speechPresence(window: 30))")
        // The window: the best 0.1 s, or the mean of fewer readings.
        let reading = NoiseSuppressor.Enhancement(samples: [], speechProbabilities: [0, 1, 1, 0.5, 0])
        #expect(reading.speechPresence(window: 2) == 1)
        #expect(reading.speechPresence(window: 3) == 2.5 / 3)
        #expect(reading.speechPresence(window: 10) == 0.5)
        #expect(NoiseSuppressor.Enhancement(samples: [], speechProbabilities: []).speechPresence() == 0)
        #expect(try suppressor.enhance([]) == NoiseSuppressor.Enhancement(samples: [], speechProbabilities: []))
    }

    /// Whether a file at `path` is mapped into this process.
    static func mapped(_ path: String) throws -> Bool {
        try String(contentsOfFile: "/proc/self/maps", encoding: .utf8).split(separator: "\n").contains { $0.hasSuffix(" " + path) }
    }

    @Test("RNNoise's library (its 12 MB of weights) is mapped only while an utterance is denoised, with the same output")
    func mappedOnlyWhileDenoising() throws {
        // A copy of its own, so that no other test's suppressor holds it open.
        let shared = try NoiseSuppressor()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hark-rnnoise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("librnnoise.so").path
        try FileManager.default.copyItem(atPath: shared.libraryPath, toPath: copy)

        let suppressor = try NoiseSuppressor(library: copy)
        #expect(suppressor.libraryPath == copy)
        #expect(try !Self.mapped(copy), "still mapped after it was checked")
        let speech = try Self.speech()
        let noisy = zip(speech, Self.noise(count: speech.count, rms: 600)).map { Int16(clamping: Int((Double($0) + $1).rounded())) }
        let enhanced = try suppressor.enhance(noisy)
        #expect(try !Self.mapped(copy), "still mapped after denoising")
        #expect(enhanced == (try shared.enhance(noisy)))
        #expect(enhanced.samples != noisy)

        // Gone since it was checked: the utterance says what to do.
        try FileManager.default.removeItem(atPath: copy)
        do {
            _ = try suppressor.enhance(noisy)
            Issue.record("denoised with its library gone")
        } catch {
            #expect(error.description.hasPrefix("\(copy): cannot load RNNoise again ("), "\(error)")
            #expect(error.description.hasSuffix("pass --denoise off to go on without it"))
        }
    }

    @Test("a missing library is an error naming where it looked and what to do")
    func missing() {
        let error = #expect(throws: NoiseSuppressorError.self) { try NoiseSuppressor(library: "/nonexistent/librnnoise.so") }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("cannot load RNNoise (/nonexistent/librnnoise.so"), "\(text)")
        #expect(text.contains("run scripts/setup.sh") && text.contains("--denoise off"))
    }

    @Test("a shared library that is not RNNoise is refused by name")
    func notRNNoise() {
        let error = #expect(throws: NoiseSuppressorError.self) { try NoiseSuppressor(library: "libsamplerate.so.0") }
        #expect(error?.description == "libsamplerate.so.0 is not RNNoise: it has no rnnoise_create(); install it with scripts/install-rnnoise.py or pass --denoise off")
    }
}
