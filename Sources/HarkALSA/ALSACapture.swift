import CALSA
import Foundation
import HarkAudio
import Synchronization

/// Live audio from an ALSA capture device, as 16 kHz mono 16-bit frames.
///
/// The device is opened and configured in `init`, so a wrong `--device` fails
/// immediately rather than on the first frame. ALSA is asked for 16 kHz mono
/// S16_LE; plugin devices ("default", "plughw:…") convert inside ALSA, and if
/// a raw device insists on another rate or channel count, the samples are
/// downmixed here and resampled with HarkAudio's ``StreamingResampler``.
///
/// Each call to ``frames()`` reads on its own dedicated thread, because
/// `snd_pcm_readi` blocks and must not tie up Swift's cooperative thread pool.
public final class ALSACapture: AudioSource {
    /// The device ALSA routes to the user's default microphone.
    public static let defaultDevice = "default"

    /// The ALSA device name ("default", "hw:1,0", "plughw:CARD=Mic", ...).
    public let device: String
    /// Samples in each frame ``frames()`` yields (at 16 kHz).
    public let frameSamples: Int

    public var name: String { "ALSA device '\(device)'" }

    /// The rate and channel count asked of ALSA. Always 16 kHz mono in
    /// production; tests ask for others to drive the resampling and downmix
    /// paths through a real PCM.
    private let requestedRate: Int
    private let requestedChannels: Int
    /// The handle opened by `init`, handed to the first stream. Later streams
    /// open the device again.
    private let opened: Mutex<(PCMHandle, PCMHandle.Configuration)?>

    /// Opens `device` for capture.
    ///
    /// - Parameters:
    ///   - device: an ALSA PCM name; see `arecord -L`.
    ///   - frameDuration: how much audio each yielded frame holds.
    /// - Throws: ``ALSAError`` — `.noDevice` (with the hint to run `arecord -L`)
    ///   when the name doesn't open, `.unsupportedConfiguration` when the
    ///   device can't deliver 16-bit samples or runs at a rate that can't be
    ///   resampled to 16 kHz.
    public convenience init(device: String = ALSACapture.defaultDevice,
                            frameDuration: Duration = .milliseconds(100)) throws(ALSAError) {
        try self.init(device: device, frameDuration: frameDuration,
                      requestedRate: PCMAudio.recognitionRate, requestedChannels: 1)
    }

    init(device: String, frameDuration: Duration, requestedRate: Int, requestedChannels: Int) throws(ALSAError) {
        self.device = device
        let seconds = Double(frameDuration.components.seconds)
            + Double(frameDuration.components.attoseconds) / 1e18
        self.frameSamples = max(1, Int((seconds * Double(PCMAudio.recognitionRate)).rounded()))
        self.requestedRate = requestedRate
        self.requestedChannels = requestedChannels
        let handle = try PCMHandle(device: device, direction: .capture)
        let config = try Self.configure(handle, rate: requestedRate, channels: requestedChannels)
        // Fail now, not on the first frame, if the device's rate can't be
        // converted. Each capture thread makes its own resampler (they are not
        // thread-safe), so this one is only a check and is discarded.
        _ = try FrameAssembler.resampler(from: config.rate, device: device)
        self.opened = Mutex((handle, config))
    }

    static func configure(_ handle: PCMHandle, rate: Int, channels: Int) throws(ALSAError) -> PCMHandle.Configuration {
        // Short periods keep latency low; a half-second buffer rides out a
        // busy machine without overruns.
        try handle.configure(rate: rate, channels: channels,
                             periodMicroseconds: 20_000, bufferMicroseconds: 500_000)
    }

    /// Streams 16 kHz mono frames of ``frameSamples`` samples until the
    /// consumer stops iterating (which stops the thread and closes the
    /// device) or the device fails (the stream throws an ``ALSAError``).
    public func frames() -> AsyncThrowingStream<[Int16], any Error> {
        // Bounded so a consumer that stops reading can't grow memory without
        // limit; ten seconds of backlog is far beyond any healthy consumer.
        // Past that, new frames are dropped, just as ALSA drops audio on an
        // overrun when a reader falls behind the device.
        let backlog = max(8, 10 * PCMAudio.recognitionRate / frameSamples)
        let (stream, continuation) = AsyncThrowingStream<[Int16], any Error>
            .makeStream(bufferingPolicy: .bufferingOldest(backlog))
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.set() }

        let preopened = opened.withLock { (slot: inout (PCMHandle, PCMHandle.Configuration)?) in
            defer { slot = nil }
            return slot
        }
        let loop = CaptureLoop(device: device, requestedRate: requestedRate, requestedChannels: requestedChannels,
                               frameSamples: frameSamples, preopened: preopened,
                               continuation: continuation, stop: stop)
        let thread = Thread { loop.run() }
        thread.name = "hark.alsa.capture"
        thread.start()
        return stream
    }
}

/// The body of one capture thread: read, convert, yield, until stopped or failed.
private struct CaptureLoop: Sendable {
    let device: String
    let requestedRate: Int
    let requestedChannels: Int
    let frameSamples: Int
    let preopened: (PCMHandle, PCMHandle.Configuration)?
    let continuation: AsyncThrowingStream<[Int16], any Error>.Continuation
    let stop: StopFlag

    /// How long a poll waits before re-checking for cancellation.
    static let pollMilliseconds: Int32 = 100
    /// How long a running device may deliver nothing before we give up on it.
    static let stallLimit: Duration = .seconds(5)

    func run() {
        do {
            try openAndCapture()
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }

    /// Returns once the consumer has gone away; throws if the device fails.
    /// The device is closed before this returns, so a consumer that sees the
    /// stream end can reopen it at once.
    private func openAndCapture() throws(ALSAError) {
        let (handle, config): (PCMHandle, PCMHandle.Configuration)
        if let preopened {
            (handle, config) = preopened
        } else {
            handle = try PCMHandle(device: device, direction: .capture)
            config = try ALSACapture.configure(handle, rate: requestedRate, channels: requestedChannels)
        }
        defer { handle.close() }
        try capture(handle, config)
    }

    private func capture(_ handle: PCMHandle, _ config: PCMHandle.Configuration) throws(ALSAError) {
        // Made here, on the capture thread, and used only by it: the
        // assembler's StreamingResampler is neither Sendable nor thread-safe.
        var converter = try FrameAssembler(config: config, frameSamples: frameSamples, device: device)
        var buffer = [Int16](repeating: 0, count: config.periodFrames * config.channels)
        let clock = ContinuousClock()
        var lastData = clock.now
        // A running device that hands over nothing for this long is wedged;
        // say so rather than leave the listener waiting forever.
        let stalled = ALSAError(kind: .stalled, direction: .capture, device: device,
                                function: "snd_pcm_wait", reason: "no audio arrived for \(Self.stallLimit)")

        try handle.withPCM { (pcm) throws(ALSAError) in
            var rc = snd_pcm_start(pcm)
            guard rc >= 0 else { throw handle.error(rc, "snd_pcm_start") }

            while !stop.isSet {
                // Wait with a timeout rather than blocking in readi forever, so
                // cancellation is noticed promptly even if the device goes quiet.
                rc = snd_pcm_wait(pcm, Self.pollMilliseconds)
                if rc == 0 {
                    if clock.now - lastData > Self.stallLimit { throw stalled }
                    continue
                }
                if rc < 0 {
                    try recover(pcm, handle, Int(rc), after: "snd_pcm_wait")
                    continue
                }

                let n = buffer.withUnsafeMutableBytes { raw in
                    snd_pcm_readi(pcm, raw.baseAddress, snd_pcm_uframes_t(config.periodFrames))
                }
                if n < 0 {
                    try recover(pcm, handle, n, after: "snd_pcm_readi")
                    continue
                }
                guard n > 0 else {
                    if clock.now - lastData > Self.stallLimit { throw stalled }
                    continue
                }
                lastData = clock.now
                for frame in try converter.append(buffer[..<(Int(n) * config.channels)]) {
                    if case .terminated = continuation.yield(frame) { return }
                }
            }
        }
    }

    /// Handles a negative return from the read loop: overruns and suspends are
    /// recovered and the stream continues; anything else means the device is gone.
    private func recover(_ pcm: OpaquePointer, _ handle: PCMHandle, _ code: Int,
                         after function: String) throws(ALSAError) {
        let code = Int32(code)
        if code == -EAGAIN || code == -EINTR { return }
        // A vanished device (USB unplug) reports ENODEV; EIO is a hard driver
        // error. snd_pcm_recover can't fix either, so don't pretend it can.
        if code == -ENODEV || code == -EIO {
            throw handle.error(code, function, kind: .deviceLost)
        }
        // EPIPE (overrun: we fell behind and ALSA dropped audio) and ESTRPIPE
        // (system suspend) are recoverable by re-preparing the stream.
        let rc = snd_pcm_recover(pcm, code, 1)
        guard rc >= 0 else { throw handle.error(code, function, kind: .deviceLost) }
        if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED {
            let started = snd_pcm_start(pcm)
            guard started >= 0 else { throw handle.error(started, "snd_pcm_start", kind: .deviceLost) }
        }
    }
}

/// Turns whatever the device delivers (any channel count, any rate) into
/// 16 kHz mono frames of a fixed size.
///
/// Holds a ``StreamingResampler``, which is not thread-safe (nor `Sendable`),
/// so an assembler belongs to the one capture thread that created it.
private struct FrameAssembler {
    let channels: Int
    let frameSamples: Int
    let device: String
    /// The rate the device delivers.
    let inputRate: Int
    /// Carries the filter state from one period to the next; `nil` at 16 kHz.
    let resampler: StreamingResampler?
    var pending: [Int16] = []

    init(config: PCMHandle.Configuration, frameSamples: Int, device: String) throws(ALSAError) {
        channels = config.channels
        self.frameSamples = frameSamples
        self.device = device
        inputRate = config.rate
        resampler = try Self.resampler(from: config.rate, device: device)
        pending.reserveCapacity(frameSamples * 2)
    }

    /// A resampler from `rate` to 16 kHz, or `nil` when none is needed.
    /// - Throws: `.unsupportedConfiguration` naming the device if libsamplerate
    ///   can't convert `rate`.
    static func resampler(from rate: Int, device: String) throws(ALSAError) -> StreamingResampler? {
        guard rate != PCMAudio.recognitionRate else { return nil }
        do {
            return try StreamingResampler(from: rate, to: PCMAudio.recognitionRate)
        } catch {
            throw ALSAError.resampling(error, from: rate, to: PCMAudio.recognitionRate,
                                       kind: .unsupportedConfiguration, direction: .capture, device: device)
        }
    }

    /// Adds a period of interleaved samples; returns the frames now complete.
    mutating func append(_ interleaved: ArraySlice<Int16>) throws(ALSAError) -> [[Int16]] {
        let mono = downmix(interleaved)
        if let resampler {
            let floats = PCMAudio(int16: mono, sampleRate: inputRate).samples
            do {
                let resampled = try resampler.process(floats)
                pending.append(contentsOf: PCMAudio(samples: resampled, sampleRate: PCMAudio.recognitionRate).int16Samples())
            } catch {
                throw ALSAError.resampling(error, from: inputRate, to: PCMAudio.recognitionRate,
                                           kind: .failed, direction: .capture, device: device)
            }
        } else {
            pending.append(contentsOf: mono)
        }
        var frames: [[Int16]] = []
        while pending.count >= frameSamples {
            frames.append(Array(pending[..<frameSamples]))
            pending.removeFirst(frameSamples)
        }
        return frames
    }

    private func downmix(_ interleaved: ArraySlice<Int16>) -> [Int16] {
        guard channels > 1 else { return Array(interleaved) }
        var mono: [Int16] = []
        mono.reserveCapacity(interleaved.count / channels)
        var i = interleaved.startIndex
        while i + channels <= interleaved.endIndex {
            var sum = 0
            for c in 0..<channels { sum += Int(interleaved[i + c]) }
            mono.append(Int16(sum / channels))
            i += channels
        }
        return mono
    }
}
