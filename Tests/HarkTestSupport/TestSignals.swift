import Foundation

/// Sounds made for tests, the same on every run.
public enum TestSignals {
    /// 3 s at 16 kHz of sound with nobody speaking: a 1 kHz tone with a
    /// loud 50 ms burst of noise every 300 ms (a kettle and a spoon on a
    /// cup). The noise is near-Gaussian from a fixed seed.
    public static func clatter() -> [Int16] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        return (0..<48_000).map { i in
            var sum = 0.0
            for _ in 0..<12 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                sum += Double(state >> 11) / Double(1 << 53)
            }
            let tone = 1_500 * sin(2 * Double.pi * 1_000 * Double(i) / 16_000)
            let burst = i % 4_800 < 800 ? (sum - 6) * 4_000 : 0
            return Int16(clamping: Int((tone + burst).rounded()))
        }
    }

    /// `samples` with uniform (white) noise added at `level` of their RMS
    /// (0.25: about 17 dB SNR), from `seed`: the same samples every run.
    public static func withWhiteNoise(_ samples: [Int16], level: Double, seed: UInt64) -> [Int16] {
        let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
        var state = seed
        return samples.map { sample in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = (Double(state >> 11) / Double(1 << 53) - 0.5) * 2 * rms * level
            return Int16(clamping: Int((Double(sample) + noise).rounded()))
        }
    }
}
