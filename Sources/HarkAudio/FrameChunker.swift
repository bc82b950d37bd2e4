/// Cuts a stream of samples arriving in arbitrary pieces into frames of a
/// fixed size, so consumers see a steady frame length whatever the reads gave.
struct FrameChunker {
    /// Samples per frame.
    let frameSize: Int
    private var pending: [Int16] = []

    /// A chunker emitting `frameDuration`-second frames of 16 kHz audio.
    init(frameDuration: Double) {
        frameSize = Self.frameSize(for: frameDuration)
        pending.reserveCapacity(frameSize)
    }

    /// Samples per frame for a frame duration at 16 kHz: at least one, and
    /// no more than a minute so a nonsensical duration cannot exhaust memory.
    static func frameSize(for frameDuration: Double) -> Int {
        let samples = frameDuration * Double(PCMAudio.recognitionRate)
        // `samples > 0` is false for NaN, which must not reach Int(_:).
        return samples > 0 ? max(1, Int(min(samples, 60 * Double(PCMAudio.recognitionRate)).rounded())) : 1
    }

    /// Adds samples and returns the frames completed by them.
    mutating func append(_ samples: some Collection<Int16>) -> [[Int16]] {
        var frames: [[Int16]] = []
        var rest = samples[...]
        while !rest.isEmpty {
            let taken = rest.prefix(frameSize - pending.count)
            pending.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            if pending.count == frameSize {
                frames.append(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        return frames
    }

    /// The final, possibly short frame at the end of the stream, if any samples are left.
    mutating func flush() -> [Int16]? {
        defer { pending.removeAll() }
        return pending.isEmpty ? nil : pending
    }
}
