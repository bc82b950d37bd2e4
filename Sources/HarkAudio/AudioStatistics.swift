import Foundation

/// Level and length measurements of a recording, as `hark audio-info` shows them.
///
/// Levels are measured on the mono down-mix and given relative to digital
/// full scale (dBFS: 0 dB is a sample of ±1; a full-scale sine has an RMS
/// of -3 dBFS). Silence measures `-infinity` dBFS.
public struct AudioStatistics: Sendable, Equatable, CustomStringConvertible {
    /// The codec in words ("PCM", "IEEE float", ...).
    public var codec: String
    /// Sample frames per second.
    public var sampleRate: Int
    /// Channels in the source (levels are measured after averaging them).
    public var channels: Int
    /// Bits per stored sample in the source.
    public var bitsPerSample: Int
    /// Sample frames.
    public var frameCount: Int
    /// Length in seconds.
    public var duration: Double
    /// The largest absolute sample value (1 is full scale).
    public var peak: Double
    /// The root-mean-square sample value (1 is full scale).
    public var rms: Double

    /// The statistics of a decoded WAV file.
    public init(_ file: WAVFile) {
        self.init(
            file.audio, codec: file.format.codec, channels: file.format.channels,
            bitsPerSample: file.format.bitsPerSample
        )
    }

    /// The statistics of audio from any source; the format fields describe where it came from.
    public init(_ audio: PCMAudio, codec: String = "PCM", channels: Int = 1, bitsPerSample: Int = 32) {
        var peak: Float = 0
        // Accumulate in Double: a Float sum of squares loses precision over long recordings.
        var sumOfSquares: Double = 0
        for sample in audio.samples {
            peak = max(peak, abs(sample))
            sumOfSquares += Double(sample) * Double(sample)
        }
        self.codec = codec
        self.sampleRate = audio.sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.frameCount = audio.samples.count
        self.duration = audio.duration
        self.peak = Double(peak)
        self.rms = audio.samples.isEmpty ? 0 : (sumOfSquares / Double(audio.samples.count)).squareRoot()
    }

    /// ``peak`` in dBFS.
    public var peakDBFS: Double { Self.decibels(peak) }
    /// ``rms`` in dBFS.
    public var rmsDBFS: Double { Self.decibels(rms) }

    /// One line, e.g. "16000 Hz, 1 channel, 16-bit PCM, 2.500 s, peak -3.0 dBFS, RMS -18.2 dBFS".
    public var description: String {
        let channelText = channels == 1 ? "1 channel" : "\(channels) channels"
        return "\(sampleRate) Hz, \(channelText), \(bitsPerSample)-bit \(codec), "
            + String(format: "%.3f s", duration)
            + ", peak \(Self.format(peakDBFS)) dBFS, RMS \(Self.format(rmsDBFS)) dBFS"
    }

    /// A linear level as decibels relative to full scale.
    static func decibels(_ level: Double) -> Double {
        level > 0 ? 20 * log10(level) : -.infinity
    }

    private static func format(_ decibels: Double) -> String {
        decibels.isFinite ? String(format: "%.1f", decibels) : "-inf"
    }
}
