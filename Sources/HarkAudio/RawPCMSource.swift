import Foundation
import Synchronization

/// Headerless signed 16-bit little-endian PCM read from a file handle —
/// typically standard input, the CLI's `-` — streamed as 16 kHz mono frames
/// as soon as the bytes arrive.
///
/// Interleaved channels are averaged; other rates are resampled with
/// ``StreamingResampler``. Reading blocks, so it runs on a dedicated thread
/// rather than on the Swift concurrency pool. If the consumer stops early,
/// that thread ends after its current read returns.
public struct RawPCMSource: AudioSource {
    /// Where the bytes come from.
    public let fileHandle: FileHandle
    /// Samples per second per channel in the input.
    public let sampleRate: Int
    /// Interleaved channels in the input.
    public let channels: Int
    /// Seconds of audio per emitted frame (the last frame may be shorter).
    public let frameDuration: Double
    /// A name for messages, e.g. "standard input".
    public let name: String

    /// A source reading raw PCM from `fileHandle` (by default standard input).
    public init(
        fileHandle: FileHandle = .standardInput,
        sampleRate: Int = PCMAudio.recognitionRate,
        channels: Int = 1,
        frameDuration: Double = 0.1,
        name: String = "standard input"
    ) {
        self.fileHandle = fileHandle
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameDuration = frameDuration
        self.name = name
    }

    /// Frames read ahead of the consumer at most: about two seconds. The
    /// reader waits for the consumer beyond that (and the writer of a pipe
    /// then waits for Hark), so input that arrives faster than it is heard
    /// — a file, a recording piped in, a fast network stream — is not all
    /// held in memory (an hour of audio piped into `hark listen` held most
    /// of it: 115 MB of samples).
    public var readAheadFrames: Int { max(4, Int((2 / frameDuration).rounded(.up))) }

    /// Frames of 16 kHz mono samples until end of input; a read error or an
    /// impossible rate or channel count ends the stream with an ``AudioError``
    /// naming this source. At most ``readAheadFrames`` wait to be taken.
    public func frames() -> AsyncThrowingStream<[Int16], any Error> {
        let source = self
        let permits = ReadAhead(frames: readAheadFrames)
        let (read, continuation) = AsyncThrowingStream<[Int16], any Error>.makeStream()
        continuation.onTermination = { _ in permits.stop() }
        let reader = Thread {
            do throws(AudioError) {
                try source.pump(into: continuation, permits: permits)
                continuation.finish()
            } catch {
                // Resampler errors name "resampler"; the stream is what the user knows.
                continuation.finish(throwing: AudioError(error.kind, source: source.name))
            }
        }
        reader.name = "hark.raw-pcm"
        reader.start()
        // Each frame taken lets the reader read one more.
        let taken = ReadAhead.Iterator(read.makeAsyncIterator())
        return AsyncThrowingStream {
            guard let frame = try await taken.next() else { return nil }
            permits.release()
            return frame
        }
    }

    /// Reads until end of input, yielding frames; returns early if the consumer has gone.
    private func pump(into continuation: AsyncThrowingStream<[Int16], any Error>.Continuation,
                      permits: ReadAhead) throws(AudioError) {
        guard (1...WAVFormat.maximumChannels).contains(channels) else {
            throw AudioError(.invalidRawFormat("\(channels) channels"), source: name)
        }
        guard (1...WAVFormat.maximumSampleRate).contains(sampleRate) else {
            throw AudioError(.invalidRawFormat("\(sampleRate) Hz"), source: name)
        }
        let resampler = sampleRate == PCMAudio.recognitionRate ? nil : try StreamingResampler(from: sampleRate)
        var chunker = FrameChunker(frameDuration: frameDuration)
        let bytesPerFrame = 2 * channels
        var buffer = [UInt8](repeating: 0, count: 1 << 15)
        // Bytes of an incomplete sample frame carried over to the next read.
        var carry: [UInt8] = []

        /// Yields frames, waiting while the consumer is ``readAheadFrames``
        /// behind; false once the consumer has stopped listening.
        func emit(_ frames: [[Int16]]) -> Bool {
            for frame in frames {
                guard permits.acquire() else { return false }
                if case .terminated = continuation.yield(frame) { return false }
            }
            return true
        }

        while true {
            let count = FileBytes.readRetryingInterrupts(fileHandle.fileDescriptor, into: &buffer)
            if count < 0 { throw AudioError(.readFailed(reason: FileBytes.describe(errno)), source: name) }
            if count == 0 { break }
            carry.append(contentsOf: buffer[0..<count])
            let usable = carry.count - carry.count % bytesPerFrame
            var mono = downmix(carry[0..<usable])
            carry.removeFirst(usable)
            if let resampler { mono = try int16(resampler.process(float(mono))) }
            guard emit(chunker.append(mono)) else { return }
        }
        // A trailing partial sample frame in `carry` cannot be decoded and is dropped.
        if let resampler, !emit(chunker.append(try int16(resampler.finish()))) { return }
        if let last = chunker.flush() { _ = emit([last]) }
    }

    /// Little-endian interleaved samples averaged to mono.
    private func downmix(_ bytes: ArraySlice<UInt8>) -> [Int16] {
        bytes.withUnsafeBytes { raw in
            let frames = raw.count / (2 * channels)
            return (0..<frames).map { frame in
                var sum = 0
                for channel in 0..<channels {
                    let offset = 2 * (frame * channels + channel)
                    sum += Int(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int16.self)))
                }
                return Int16(sum / channels)
            }
        }
    }

    private func float(_ samples: [Int16]) -> [Float] {
        PCMAudio(int16: samples, sampleRate: sampleRate).samples
    }

    private func int16(_ samples: [Float]) -> [Int16] {
        PCMAudio(samples: samples, sampleRate: PCMAudio.recognitionRate).int16Samples()
    }
}

/// Set once, from any thread: a source's consumer has gone, or playback
/// was cancelled (the reader and device threads poll it).
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func set() { flag.store(true, ordering: .releasing) }
    public var isSet: Bool { flag.load(ordering: .acquiring) }
}

/// How many frames a reader thread may yield ahead of its consumer.
final class ReadAhead: Sendable {
    private let slots: DispatchSemaphore
    private let stopped = StopFlag()

    init(frames: Int) {
        // Made empty and filled: libdispatch traps when a semaphore is freed
        // holding less than it was made with (a consumer that left early).
        slots = DispatchSemaphore(value: 0)
        for _ in 0..<frames { slots.signal() }
    }

    /// Waits for room for one more frame; false once the consumer has gone.
    func acquire() -> Bool {
        while slots.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if stopped.isSet { return false }
        }
        return !stopped.isSet
    }

    /// One frame was taken.
    func release() { slots.signal() }

    /// The consumer has gone: a waiting reader returns.
    func stop() { stopped.set() }

    /// The read stream's iterator, used by one consumer at a time (an
    /// AsyncThrowingStream's consumer awaits each element before the next).
    final class Iterator: @unchecked Sendable {
        private var base: AsyncThrowingStream<[Int16], any Error>.AsyncIterator
        init(_ base: AsyncThrowingStream<[Int16], any Error>.AsyncIterator) { self.base = base }
        func next() async throws -> [Int16]? { try await base.next() }
    }
}

extension PCMAudio {
    /// All of standard input read as headerless 16-bit little-endian mono
    /// PCM at `sampleRate` (the CLI's `-` for one recorded turn).
    ///
    /// - Throws: ``AudioError`` naming standard input when it cannot be read
    ///   or holds less than one sample.
    public static func rawStandardInput(sampleRate: Int = PCMAudio.recognitionRate) throws(AudioError) -> PCMAudio {
        // One turn: at most WAVFormat.maximumTurnSeconds of 16-bit audio.
        let bytesPerSecond = 2 * sampleRate
        let bytes = try FileBytes.readAll(STDIN_FILENO, source: "standard input",
                                          limit: WAVFormat.maximumTurnSeconds * bytesPerSecond, bytesPerSecond: bytesPerSecond)
        guard bytes.count >= 2 else { throw AudioError(.emptyAudio, source: "standard input") }
        let samples = bytes.withUnsafeBytes { raw in
            (0..<bytes.count / 2).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
        return PCMAudio(int16: samples, sampleRate: sampleRate)
    }
}
