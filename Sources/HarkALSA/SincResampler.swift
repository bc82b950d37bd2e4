import Foundation

/// Converts a stream of mono samples from one rate to another, chunk by chunk.
///
/// Only used when a device refuses the rate Hark asked for (a raw `hw:` device
/// fixed at 44.1 or 48 kHz); plugin devices resample inside ALSA. It is a
/// private stop-gap written while HarkAudio's libsamplerate resamplers were
/// still being built; once they land this should give way to HarkAudio's
/// streaming resampler, which carries state across frames the same way.
///
/// The filter is a Blackman-windowed sinc whose cutoff sits just below the
/// lower of the two Nyquist frequencies, so downsampling does not alias.
struct SincResampler: Sendable {
    let inputRate: Int
    let outputRate: Int

    /// Filter cutoff as a fraction of the input Nyquist frequency.
    private let cutoff: Double
    /// Input samples used on each side of an output instant.
    private let halfWidth: Int

    /// Input not yet fully consumed, preceded at the start of the stream by
    /// `halfWidth` zeros so the first output can sit exactly on input sample 0.
    private var history: [Float]
    /// How many samples (zeros included) have been dropped from the front of `history`.
    private var dropped = 0
    /// How many output samples have been produced.
    private var produced = 0

    init(from inputRate: Int, to outputRate: Int) {
        precondition(inputRate > 0 && outputRate > 0, "sample rates must be positive")
        self.inputRate = inputRate
        self.outputRate = outputRate
        cutoff = min(1, Double(outputRate) / Double(inputRate)) * 0.95
        halfWidth = Int((16 / cutoff).rounded(.up))
        history = [Float](repeating: 0, count: halfWidth)
    }

    /// Resamples the next chunk; returns whatever output is ready.
    mutating func process(_ input: [Float]) -> [Float] {
        history.append(contentsOf: input)
        return drain()
    }

    /// Pads the end of the stream with silence and returns the remaining output, so a
    /// whole buffer of `n` samples yields `ceil(n * outputRate / inputRate)` samples.
    mutating func flush() -> [Float] {
        history.append(contentsOf: repeatElement(0, count: halfWidth))
        return drain()
    }

    private mutating func drain() -> [Float] {
        var output: [Float] = []
        while true {
            // Output j sits at input position j * inputRate / outputRate. It is
            // computed exactly in integers each time; accumulating a floating
            // step would drift and, over a long stream, add or lose samples.
            let numerator = produced * inputRate
            let whole = numerator / outputRate
            let center = whole + halfWidth - dropped
            guard center + halfWidth < history.count else { break }
            let fraction = Double(numerator % outputRate) / Double(outputRate)
            output.append(sample(center: center, fraction: fraction))
            produced += 1
        }
        // Drop input no future output sample can reach.
        let nextCenter = (produced * inputRate) / outputRate + halfWidth - dropped
        let consumable = min(max(0, nextCenter - halfWidth), history.count)
        if consumable > 0 {
            history.removeFirst(consumable)
            dropped += consumable
        }
        return output
    }

    /// The filtered value at `history[center] + fraction` of a sample.
    private func sample(center: Int, fraction: Double) -> Float {
        var sum = 0.0
        for k in (center - halfWidth + 1)...(center + halfWidth) where k >= 0 {
            sum += Double(history[k]) * kernel(Double(center - k) + fraction)
        }
        return Float(sum)
    }

    /// Windowed sinc, scaled so a constant input keeps its level.
    private func kernel(_ x: Double) -> Double {
        let width = Double(halfWidth)
        guard abs(x) < width else { return 0 }
        let arg = Double.pi * cutoff * x
        let sinc = x == 0 ? 1 : sin(arg) / arg
        let w = 0.42 + 0.5 * cos(Double.pi * x / width) + 0.08 * cos(2 * Double.pi * x / width)
        return cutoff * sinc * w
    }
}
