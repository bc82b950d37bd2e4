import HarkRecognition

extension RecognitionStream {
    /// Feeds `samples` in pieces of `piece` samples (the last may be
    /// shorter), as a microphone or a network client delivers them.
    func feed(_ samples: some Collection<Int16>, inPiecesOf piece: Int) async throws {
        let samples = Array(samples)
        for start in stride(from: 0, to: samples.count, by: piece) {
            try await feed(Array(samples[start..<min(start + piece, samples.count)]))
        }
    }
}
