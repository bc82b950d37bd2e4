/// Mono audio as floating-point samples in [-1, 1] at a known sample rate.
///
/// Every stage of Hark after the audio source works on 16 kHz mono
/// (``PCMAudio/recognitionRate``); sources convert to it at the edge.
public struct PCMAudio: Sendable, Equatable {
    /// The sample rate the recognizer works at.
    public static let recognitionRate = 16_000

    /// Samples in [-1, 1].
    public var samples: [Float]
    /// Samples per second.
    public var sampleRate: Int

    /// Audio from float samples in [-1, 1] at `sampleRate` samples per second.
    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Length in seconds.
    public var duration: Double {
        sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0
    }

    /// The samples as signed 16-bit integers, clipped to range.
    ///
    /// The scale (32768) is the inverse of ``init(int16:sampleRate:)``, so
    /// 16-bit audio survives the round trip exactly; NaN becomes 0.
    public func int16Samples() -> [Int16] {
        samples.map { s in
            let scaled = (s * 32768).rounded()
            return scaled.isNaN ? 0 : Int16(max(-32768, min(32767, scaled)))
        }
    }

    /// Audio from signed 16-bit integer samples.
    public init(int16 samples: [Int16], sampleRate: Int) {
        self.samples = samples.map { Float($0) / 32768 }
        self.sampleRate = sampleRate
    }
}

/// Something that delivers speech as 16 kHz mono 16-bit frames: a WAV file
/// being replayed, raw PCM on standard input, or a live microphone.
public protocol AudioSource: Sendable {
    /// A human-readable name for messages ("file 'x.wav'", "ALSA device 'default'").
    var name: String { get }
    /// Streams frames of 16 kHz mono samples until the source ends or fails.
    func frames() -> AsyncThrowingStream<[Int16], any Error>
}

/// Something that plays or stores audio Hark produces.
public protocol AudioSink: Sendable {
    /// Plays or writes the audio (any rate; the sink converts as it needs).
    func write(_ audio: PCMAudio) async throws
}

/// Something that turns text into speech (espeak-ng in `HarkSpeech`).
public protocol SpeechSynthesizer: Sendable {
    /// The text spoken, at the synthesizer's own rate.
    func synthesize(_ text: String) throws -> PCMAudio
}
