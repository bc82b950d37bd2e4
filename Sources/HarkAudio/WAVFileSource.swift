/// Replays a WAV file as a stream of 16 kHz mono frames, as fast as the
/// consumer takes them (not paced in real time).
///
/// The file is read, down-mixed and resampled when ``frames()`` is called;
/// a file that cannot be read ends the stream with its ``AudioError``.
public struct WAVFileSource: AudioSource {
    /// The file's path.
    public let path: String
    /// Seconds of audio per frame (the last frame may be shorter).
    public let frameDuration: Double

    /// A source replaying the WAV file at `path` in `frameDuration`-second frames.
    public init(path: String, frameDuration: Double = 0.1) {
        self.path = path
        self.frameDuration = frameDuration
    }

    /// "file 'path'".
    public var name: String { "file '\(path)'" }

    /// The file's audio in frames of 16 kHz mono samples.
    public func frames() -> AsyncThrowingStream<[Int16], any Error> {
        let path = path
        let frameSize = FrameChunker.frameSize(for: frameDuration)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let samples = try Self.load(path)
                    for start in stride(from: 0, to: samples.count, by: frameSize) where !Task.isCancelled {
                        continuation.yield(Array(samples[start..<min(start + frameSize, samples.count)]))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The file's audio as 16 kHz samples; every error names the file.
    private static func load(_ path: String) throws(AudioError) -> [Int16] {
        try WAVReader.readForRecognition(contentsOf: path).int16Samples()
    }
}
