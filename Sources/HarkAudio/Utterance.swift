/// One stretch of speech found by ``Endpointer``, with its padding.
public struct Utterance: Sendable, Equatable {
    /// 16 kHz mono samples from ``startTime`` to ``endTime``.
    public var samples: [Int16]
    /// Where ``samples`` begin in the stream, in seconds (padding included).
    public var startTime: Double
    /// Where ``samples`` end in the stream, in seconds (padding included).
    public var endTime: Double
    /// Where speech was detected to begin, in seconds.
    public var speechStartTime: Double
    /// Where speech was detected to end, in seconds.
    public var speechEndTime: Double

    /// An utterance found at the given times.
    public init(samples: [Int16], startTime: Double, endTime: Double, speechStartTime: Double, speechEndTime: Double) {
        self.samples = samples
        self.startTime = startTime
        self.endTime = endTime
        self.speechStartTime = speechStartTime
        self.speechEndTime = speechEndTime
    }

    /// The samples as ``PCMAudio`` at 16 kHz.
    public var audio: PCMAudio {
        PCMAudio(int16: samples, sampleRate: PCMAudio.recognitionRate)
    }
}
