import CALSA
import Foundation
import HarkAudio

/// Plays audio on an ALSA playback device.
///
/// Each ``write(_:)`` opens the device, plays the audio as mono S16_LE at the
/// audio's own sample rate (plugin devices convert as needed; a raw device
/// that insists on another rate or channel count gets samples resampled by
/// HarkAudio's ``Resampler`` and duplicated), waits for it to finish playing, and closes the
/// device again — so Hark doesn't hold the speaker between responses.
public final class ALSAPlayback: AudioSink {
    /// The device ALSA routes to the user's default speaker.
    public static let defaultDevice = "default"

    /// The ALSA device name ("default", "hw:0,0", ...).
    public let device: String

    /// A sink for `device`. Nothing is opened until the first ``write(_:)``;
    /// call ``checkDevice()`` to fail early on a bad name.
    public init(device: String = ALSAPlayback.defaultDevice) {
        self.device = device
    }

    /// Opens and closes the device, throwing the no-playback-device error if
    /// it can't be opened, so a bad `--device` is reported before any work.
    public func checkDevice() throws(ALSAError) {
        let handle = try PCMHandle(device: device, direction: .playback)
        handle.close()
    }

    /// Plays `audio` to the end and returns once ALSA has drained it.
    ///
    /// The blocking ALSA calls run on a dedicated thread, not the cooperative
    /// pool. Cancelling the calling task stops playback early (the rest is
    /// dropped) and throws `CancellationError`.
    /// - Throws: ``ALSAError`` if the device can't be opened, configured or written.
    public func write(_ audio: PCMAudio) async throws {
        guard !audio.samples.isEmpty, audio.sampleRate > 0 else { return }
        let stop = StopFlag()
        let device = self.device
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    do {
                        try Self.play(audio, device: device, stop: stop)
                        done.resume()
                    } catch {
                        done.resume(throwing: error)
                    }
                }
                thread.name = "hark.alsa.playback"
                thread.start()
            }
        } onCancel: {
            stop.set()
        }
        try Task.checkCancellation()
    }

    /// The blocking part of ``write(_:)``.
    private static func play(_ audio: PCMAudio, device: String, stop: StopFlag) throws(ALSAError) {
        let handle = try PCMHandle(device: device, direction: .playback)
        defer { handle.close() }
        // Start only once the buffer is full (or at drain, for short audio):
        // starting on the first period would underrun while we're still writing.
        let config = try handle.configure(rate: audio.sampleRate, channels: 1,
                                          periodMicroseconds: 50_000, bufferMicroseconds: 500_000,
                                          startThreshold: { buffer, _ in buffer })
        let samples = try deviceSamples(audio, config: config, device: device)

        try handle.withPCM { (pcm) throws(ALSAError) in
            var offset = 0
            let total = samples.count / config.channels
            // Write a period at a time so cancellation is noticed between chunks.
            while offset < total {
                if stop.isSet {
                    _ = snd_pcm_drop(pcm)
                    return
                }
                let chunk = min(config.periodFrames, total - offset)
                let n = samples.withUnsafeBufferPointer { buf in
                    snd_pcm_writei(pcm, buf.baseAddress! + offset * config.channels,
                                   snd_pcm_uframes_t(chunk))
                }
                if n >= 0 {
                    offset += Int(n)
                    continue
                }
                let code = Int32(n)
                if code == -EAGAIN || code == -EINTR { continue }
                if code == -ENODEV || code == -EIO {
                    throw handle.error(code, "snd_pcm_writei", kind: .deviceLost)
                }
                // EPIPE (underrun) and ESTRPIPE (suspend): re-prepare and carry on.
                let rc = snd_pcm_recover(pcm, code, 1)
                guard rc >= 0 else { throw handle.error(code, "snd_pcm_writei", kind: .deviceLost) }
            }
            // Blocks until everything written has actually been played.
            let rc = snd_pcm_drain(pcm)
            guard rc >= 0 else { throw handle.error(rc, "snd_pcm_drain") }
        }
    }

    /// The audio as interleaved S16 samples in the layout the device accepted.
    /// The whole buffer is at hand, so a device at another rate gets it
    /// converted in one go by HarkAudio's ``Resampler``.
    /// - Throws: `.unsupportedConfiguration` naming the device if libsamplerate
    ///   can't convert to the device's rate.
    static func deviceSamples(_ audio: PCMAudio, config: PCMHandle.Configuration,
                              device: String) throws(ALSAError) -> [Int16] {
        var converted = audio
        if config.rate != audio.sampleRate {
            do {
                converted = try Resampler.resample(audio, to: config.rate)
            } catch {
                throw ALSAError.resampling(error, from: audio.sampleRate, to: config.rate,
                                           kind: .unsupportedConfiguration, direction: .playback, device: device)
            }
        }
        let mono = converted.int16Samples()
        guard config.channels > 1 else { return mono }
        // A device that can't do mono gets the same signal on every channel.
        var interleaved: [Int16] = []
        interleaved.reserveCapacity(mono.count * config.channels)
        for sample in mono {
            interleaved.append(contentsOf: repeatElement(sample, count: config.channels))
        }
        return interleaved
    }
}
