import CALSA
import CALSAShims
import Glibc
import Synchronization

/// An open `snd_pcm_t`, owned by exactly one Swift object and closed exactly once.
///
/// ALSA handles are not thread-safe; every use goes through the mutex, so the
/// handle can be shared across threads (`Sendable`) without data races. In
/// practice one thread uses it at a time — the capture thread or the playback
/// thread — and the lock only guards against a racing `close()`.
final class PCMHandle: Sendable {
    let device: String
    let direction: ALSAError.Direction
    /// `nil` once closed.
    private let pcm: Mutex<OpaquePointer?>

    /// Hark reports ALSA failures itself; alsa-lib's own stderr lines would
    /// double them. Set once per process, before the first open.
    private static let silenceLibraryMessages: Void = hark_alsa_silence_library_messages()

    /// Open handles in this process, so tests can check nothing leaks.
    static let openCount = Atomic<Int>(0)

    /// Opens `device` for `direction`. Fails with the no-device error, which is
    /// what a user with a wrong `--device` needs to see first.
    init(device: String, direction: ALSAError.Direction) throws(ALSAError) {
        _ = Self.silenceLibraryMessages
        var handle: OpaquePointer?
        let stream = direction == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
        let rc = snd_pcm_open(&handle, device, stream, 0)
        guard rc >= 0, let handle else {
            throw ALSAError.open(rc, direction: direction, device: device)
        }
        self.device = device
        self.direction = direction
        self.pcm = Mutex(handle)
        Self.openCount.add(1, ordering: .relaxed)
    }

    deinit {
        close()
    }

    /// Runs `body` with the raw handle; throws if the handle was already closed.
    func withPCM<R: Sendable>(_ body: (OpaquePointer) throws(ALSAError) -> R) throws(ALSAError) -> R {
        try pcm.withLock { (handle: inout OpaquePointer?) throws(ALSAError) -> R in
            guard let handle else {
                throw ALSAError(kind: .failed, direction: direction, device: device,
                                function: "snd_pcm_t", reason: "the device was already closed")
            }
            return try body(handle)
        }
    }

    /// Closes the PCM (idempotent). Pending capture data is discarded; playback
    /// callers drain first.
    func close() {
        // Closing under the lock means no other thread can be mid-call on it.
        let closed = pcm.withLock { (handle: inout OpaquePointer?) -> Bool in
            guard let open = handle else { return false }
            snd_pcm_close(open)
            handle = nil
            return true
        }
        if closed {
            Self.openCount.subtract(1, ordering: .relaxed)
        }
    }

    /// An `ALSAError` for a failed call on this handle.
    func error(_ code: Int32, _ function: String, kind: ALSAError.Kind = .failed) -> ALSAError {
        ALSAError(kind: kind, direction: direction, device: device, function: function, code: code)
    }

    /// The negotiated stream layout.
    struct Configuration: Sendable, Equatable {
        var rate: Int
        var channels: Int
        /// Frames ALSA moves per period: the natural read/write chunk.
        var periodFrames: Int
        var bufferFrames: Int
    }

    /// Configures interleaved S16_LE at (or near) `rate` and `channels`.
    ///
    /// Plugin devices ("default", "plughw:") convert to whatever was asked; raw
    /// `hw:` devices may only offer their native rate and channel count, so the
    /// values are requested "near" and the caller converts the rest itself.
    func configure(rate: Int, channels: Int, periodMicroseconds: Int, bufferMicroseconds: Int,
                   startThreshold: ((_ buffer: Int, _ period: Int) -> Int)? = nil) throws(ALSAError) -> Configuration {
        try withPCM { (pcm) throws(ALSAError) -> Configuration in
            // snd_pcm_hw_params_alloca is a macro Swift can't import; heap-allocate instead.
            var hwp: OpaquePointer?
            var rc = snd_pcm_hw_params_malloc(&hwp)
            guard rc >= 0, let hw = hwp else { throw error(rc, "snd_pcm_hw_params_malloc") }
            defer { snd_pcm_hw_params_free(hw) }

            rc = snd_pcm_hw_params_any(pcm, hw)
            guard rc >= 0 else { throw error(rc, "snd_pcm_hw_params_any", kind: .unsupportedConfiguration) }
            rc = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)
            guard rc >= 0 else { throw error(rc, "snd_pcm_hw_params_set_access", kind: .unsupportedConfiguration) }
            rc = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE)
            guard rc >= 0 else { throw error(rc, "snd_pcm_hw_params_set_format(S16_LE)", kind: .unsupportedConfiguration) }
            var ch = UInt32(channels)
            rc = snd_pcm_hw_params_set_channels_near(pcm, hw, &ch)
            guard rc >= 0 else { throw error(rc, "snd_pcm_hw_params_set_channels_near", kind: .unsupportedConfiguration) }
            // Let the plug layer resample if it can; only plugin devices honour this.
            _ = snd_pcm_hw_params_set_rate_resample(pcm, hw, 1)
            var r = UInt32(rate)
            rc = snd_pcm_hw_params_set_rate_near(pcm, hw, &r, nil)
            guard rc >= 0 else { throw error(rc, "snd_pcm_hw_params_set_rate_near", kind: .unsupportedConfiguration) }
            var bufferTime = UInt32(bufferMicroseconds)
            rc = snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, nil)
            guard rc >= 0 else { throw error(rc, "snd_pcm_hw_params_set_buffer_time_near", kind: .unsupportedConfiguration) }
            var periodTime = UInt32(periodMicroseconds)
            rc = snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodTime, nil)
            guard rc >= 0 else { throw error(rc, "snd_pcm_hw_params_set_period_time_near", kind: .unsupportedConfiguration) }
            rc = snd_pcm_hw_params(pcm, hw)
            guard rc >= 0 else { throw error(rc, "snd_pcm_hw_params", kind: .unsupportedConfiguration) }

            var period: snd_pcm_uframes_t = 0
            var buffer: snd_pcm_uframes_t = 0
            _ = snd_pcm_hw_params_get_period_size(hw, &period, nil)
            _ = snd_pcm_hw_params_get_buffer_size(hw, &buffer)
            let config = Configuration(rate: Int(r), channels: Int(ch),
                                       periodFrames: max(1, Int(period)), bufferFrames: max(1, Int(buffer)))

            if let startThreshold {
                var swp: OpaquePointer?
                rc = snd_pcm_sw_params_malloc(&swp)
                guard rc >= 0, let sw = swp else { throw error(rc, "snd_pcm_sw_params_malloc") }
                defer { snd_pcm_sw_params_free(sw) }
                rc = snd_pcm_sw_params_current(pcm, sw)
                guard rc >= 0 else { throw error(rc, "snd_pcm_sw_params_current") }
                let threshold = startThreshold(config.bufferFrames, config.periodFrames)
                rc = snd_pcm_sw_params_set_start_threshold(pcm, sw, snd_pcm_uframes_t(threshold))
                guard rc >= 0 else { throw error(rc, "snd_pcm_sw_params_set_start_threshold") }
                rc = snd_pcm_sw_params(pcm, sw)
                guard rc >= 0 else { throw error(rc, "snd_pcm_sw_params") }
            }
            return config
        }
    }
}
