import Foundation
import Synchronization
import Testing

@testable import HarkAudio

@Suite("WAVFileSource and RawPCMSource")
struct AudioSourceTests {
    /// Collects a source's frames.
    static func collect(_ source: some AudioSource) async throws -> [[Int16]] {
        var frames: [[Int16]] = []
        for try await frame in source.frames() { frames.append(frame) }
        return frames
    }

    /// Writes `bytes` into the pipe from another thread in uneven pieces, then
    /// closes it. The source must read to the end, or the writer gets SIGPIPE.
    static func feed(_ bytes: [UInt8], into pipe: Pipe) {
        let writer = pipe.fileHandleForWriting
        Thread.detachNewThread {
            var generator = SeededGenerator(seed: 99)
            var position = 0
            while position < bytes.count {
                let end = min(bytes.count, position + Int.random(in: 1...5_000, using: &generator))
                writer.write(Data(bytes[position..<end]))
                position = end
            }
            try? writer.close()
        }
    }

    @Test("a WAV file streams as 100 ms frames of 16 kHz audio")
    func wavFileSource() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("speech.wav")
        let audio = PCMAudio(samples: sine(frequency: 440, sampleRate: 22_050, count: 22_050 + 2_205).map(Float.init), sampleRate: 22_050)
        try WAVWriter.write(audio, to: path)

        let source = WAVFileSource(path: path)
        #expect(source.name == "file '\(path)'")
        let frames = try await Self.collect(source)
        // What was written is 16-bit, so compare with the stored file, not the float original.
        let expected = try WAVReader.read(contentsOf: path).audio.toRecognitionFormat().int16Samples()
        #expect(frames.dropLast().allSatisfy { $0.count == 1_600 })
        expectIdentical(frames.flatMap { $0 }, expected, "streamed samples vs the decoded file")
    }

    @Test("a missing WAV file ends the stream with its AudioError")
    func wavFileSourceError() async throws {
        let source = WAVFileSource(path: "/nonexistent/hark/missing.wav")
        await #expect(throws: AudioError(.fileNotFound, source: "/nonexistent/hark/missing.wav")) {
            _ = try await Self.collect(source)
        }
    }

    @Test("raw 16 kHz PCM from a pipe delivers every sample, in order")
    func rawPipe() async throws {
        var generator = SeededGenerator(seed: 5)
        let samples = (0..<40_123).map { _ in Int16.random(in: .min ... .max, using: &generator) }
        var bytes: [UInt8] = []
        for sample in samples { bytes.appendLE(sample) }
        let pipe = Pipe()
        Self.feed(bytes, into: pipe)

        let frames = try await Self.collect(RawPCMSource(fileHandle: pipe.fileHandleForReading, frameDuration: 0.01))
        #expect(frames.dropLast().allSatisfy { $0.count == 160 })
        expectIdentical(frames.flatMap { $0 }, samples, "streamed samples vs those written")
    }

    @Test("raw PCM arriving faster than it is heard is read about two seconds ahead, not all held in memory, and none of it is lost")
    func rawReadAhead() async throws {
        // A minute of audio in a file: it can all be read at once.
        let directory = try TemporaryDirectory()
        let path = directory.path("minute.raw")
        let samples = (0..<(60 * 16_000)).map { Int16(truncatingIfNeeded: $0 &* 7) }
        var bytes: [UInt8] = []
        for sample in samples { bytes.appendLE(sample) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? file.close() }

        let source = RawPCMSource(fileHandle: file, frameDuration: 0.1)
        #expect(source.readAheadFrames == 20)
        var iterator = source.frames().makeAsyncIterator()
        var received: [Int16] = try #require(try await iterator.next())
        // The consumer dawdles: the reader fills the read-ahead and waits.
        try await Task.sleep(for: .milliseconds(300))
        let readSoFar = lseek(file.fileDescriptor, 0, SEEK_CUR)
        // 21 frames of 100 ms (3,200 bytes each) and one 32 KiB read more at most.
        #expect(readSoFar <= 21 * 3_200 + 32_768, "read \(readSoFar) of \(bytes.count) bytes ahead of the consumer")
        while let frame = try await iterator.next() { received += frame }
        expectIdentical(received, samples, "streamed samples vs those written")
    }

    @Test("a consumer that leaves early stops the reading, and nothing fails")
    func rawConsumerLeaves() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ten.raw")
        try Data(count: 10 * 32_000).write(to: URL(fileURLWithPath: path))
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? file.close() }
        do {
            var iterator = RawPCMSource(fileHandle: file, frameDuration: 0.1).frames().makeAsyncIterator()
            _ = try await iterator.next()
        }
        try await Task.sleep(for: .milliseconds(400))
        let stopped = lseek(file.fileDescriptor, 0, SEEK_CUR)
        try await Task.sleep(for: .milliseconds(300))
        #expect(lseek(file.fileDescriptor, 0, SEEK_CUR) == stopped)
        #expect(stopped < 10 * 32_000, "read it all: \(stopped) bytes")
    }

    @Test("a reader waiting for room returns once the consumer has gone")
    func readAheadStops() async throws {
        let permits = ReadAhead(frames: 1)
        #expect(permits.acquire())
        let returned = Mutex<Bool?>(nil)
        Thread.detachNewThread {
            let result = permits.acquire()
            returned.withLock { $0 = result }
        }
        try await Task.sleep(for: .milliseconds(150))
        #expect(returned.withLock { $0 } == nil, "a full read-ahead lets the reader through")
        permits.stop()
        try await Task.sleep(for: .milliseconds(300))
        #expect(returned.withLock { $0 } == false)
    }

    @Test("raw 48 kHz stereo PCM is averaged and resampled to 16 kHz")
    func rawResampled() async throws {
        let left = sine(frequency: 1_000, amplitude: 0.4, sampleRate: 48_000, count: 48_000)
        let right = sine(frequency: 1_000, amplitude: 0.2, sampleRate: 48_000, count: 48_000)
        let pipe = Pipe()
        Self.feed(interleave([left, right], as: .int16) + [0x01], into: pipe)

        let source = RawPCMSource(fileHandle: pipe.fileHandleForReading, sampleRate: 48_000, channels: 2, name: "test pipe")
        let samples = try await Self.collect(source).flatMap { $0 }
        #expect(abs(samples.count - 16_000) <= 2)
        let middle = PCMAudio(int16: Array(samples[800..<15_200]), sampleRate: 16_000).samples
        #expect(abs(upwardZeroCrossings(middle) - 900) <= 2)
        // The average of 0.4 and 0.2 amplitude: 0.3, mean square 0.045.
        #expect(abs(meanSquare(middle) - 0.045) < 0.002)
    }

    @Test("an impossible channel count or rate ends the stream with an AudioError naming it")
    func rawInvalidFormat() async throws {
        let cases: [(channels: Int, rate: Int, error: AudioError.Kind)] = [
            (0, 16_000, .invalidRawFormat("0 channels")),
            (1, 0, .invalidRawFormat("0 Hz")),
            (1, 50, .resamplingFailed("50 Hz to 16000 Hz: libsamplerate converts by 1/256...256 times")),
        ]
        for (channels, rate, kind) in cases {
            // The source fails before reading, so nothing is written: a write to a
            // pipe whose reader has gone would kill the test process with SIGPIPE.
            let pipe = Pipe()
            try pipe.fileHandleForWriting.close()
            let source = RawPCMSource(fileHandle: pipe.fileHandleForReading, sampleRate: rate, channels: channels, name: "test pipe")
            await #expect(throws: AudioError(kind, source: "test pipe")) {
                _ = try await Self.collect(source)
            }
        }
    }

    @Test("a WAV file at a rate Hark does not recognise at fails naming the file, before resampling")
    func wavFileSourceUnresamplable() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("slow.wav")
        try WAVWriter.write(PCMAudio(samples: [0.1, 0.2, 0.3], sampleRate: 50), to: path)
        let expected = AudioError(.unrecognizableSampleRate(50), source: path)
        await #expect(throws: expected) {
            _ = try await Self.collect(WAVFileSource(path: path))
        }
    }
}
