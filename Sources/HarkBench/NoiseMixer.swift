import Foundation
import HarkAudio

/// Mixes noise into speech exactly as the speech-to-intent benchmark
/// defines it (`barista-dev/README.md`): a random excerpt of the noise as
/// long as the speech; the noise scaled so that the peak frame energy of the
/// speech over the peak frame energy of the scaled noise is 10^(SNR/10),
/// with frames of 2048 samples; the two added; the sum normalised to half
/// of full scale.
///
/// The excerpt is chosen by a SplitMix64 generator seeded from a fixed seed
/// and the utterance's file name, so every run, order and `--jobs` count
/// mixes the same audio.
public struct NoiseMixer: Sendable {
    /// The noise at 16 kHz mono.
    public let noise: [Float]
    /// Seeds every excerpt choice.
    public let seed: UInt64
    /// Frame length for peak frame energy.
    public static let frameLength = 2048

    /// - Throws: ``BenchError`` naming the noise file when it cannot be read or is silent.
    public init(noisePath: String, seed: UInt64 = 1234) throws {
        let audio: PCMAudio
        do {
            audio = try WAVReader.read(contentsOf: noisePath).audio.toRecognitionFormat()
        } catch {
            throw BenchError("\(noisePath): cannot use it as noise: \(error)")
        }
        try self.init(noise: audio.samples, seed: seed, name: noisePath)
    }

    /// - Throws: ``BenchError`` when the noise is empty or silent.
    public init(noise: [Float], seed: UInt64 = 1234, name: String = "noise") throws {
        guard Self.peakFrameEnergy(noise) > 0 else { throw BenchError("\(name): the noise is empty or silent") }
        self.noise = noise
        self.seed = seed
    }

    /// `speech` (16 kHz) with noise at `snr` dB; `key` (the file name) picks the excerpt.
    public func mix(_ speech: [Float], snr: Double, key: String) -> [Float] {
        guard !speech.isEmpty else { return speech }
        var generator = SplitMix64(seed: seed ^ Self.fnv1a(key))
        let excerpt: [Float]
        if noise.count >= speech.count {
            let offset = Int(generator.next() % UInt64(noise.count - speech.count + 1))
            excerpt = Array(noise[offset..<offset + speech.count])
        } else {
            // Shorter noise than speech: looped from a random start.
            let offset = Int(generator.next() % UInt64(noise.count))
            excerpt = (0..<speech.count).map { noise[(offset + $0) % noise.count] }
        }
        let speechPeak = Self.peakFrameEnergy(speech), noisePeak = Self.peakFrameEnergy(excerpt)
        let scale = noisePeak > 0 ? Float((speechPeak / (noisePeak * pow(10, snr / 10))).squareRoot()) : 0
        var sum = zip(speech, excerpt).map { $0 + scale * $1 }
        let peak = sum.reduce(Float(0)) { max($0, abs($1)) }
        if peak > 0 {
            let gain = 0.5 / peak
            for i in sum.indices { sum[i] *= gain }
        }
        return sum
    }

    /// The largest energy (sum of squares) of any frame of 2048 samples
    /// (the last frame may be shorter).
    public static func peakFrameEnergy(_ samples: [Float]) -> Double {
        var peak = 0.0
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + frameLength)
            var energy = 0.0
            for i in start..<end { energy += Double(samples[i]) * Double(samples[i]) }
            peak = max(peak, energy)
            start = end
        }
        return peak
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// SplitMix64: a small, fast generator whose sequence is the same on every
/// machine (Swift's default generator is not seedable).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
