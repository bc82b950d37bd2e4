import CALSA
import HarkAudio

/// A failure talking to an ALSA PCM device.
///
/// ALSA reports failures as negative `errno` codes; they are converted to an
/// `ALSAError` exactly once, at the call that returned them, so the message
/// carries the `snd_strerror` text, the ALSA function and the device name.
public struct ALSAError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Which way the audio was flowing.
    public enum Direction: String, Sendable {
        case capture
        case playback
    }

    /// What went wrong, for callers that react differently to each case.
    public enum Kind: Sendable, Equatable {
        /// The device could not be opened: unknown name, no such card, no permission.
        case noDevice
        /// The device exists but another program is using it.
        case busy
        /// The device opened but refused the sample format, rate or channel layout Hark needs.
        case unsupportedConfiguration
        /// The device went away while streaming (unplugged, driver reset, unrecoverable error).
        case deviceLost
        /// The device stayed open but delivered no audio for too long.
        case stalled
        /// Any other ALSA call failure.
        case failed
    }

    public let kind: Kind
    public let direction: Direction
    /// The ALSA device name as the user gave it ("default", "hw:1,0", ...).
    public let device: String
    /// The ALSA function that failed, e.g. `snd_pcm_open`.
    public let function: String
    /// The negative errno ALSA returned (0 when the failure was not an ALSA return code).
    public let code: Int32
    /// `snd_strerror(code)`, captured when the error was made.
    public let reason: String

    /// Wraps a negative ALSA return code.
    public init(kind: Kind, direction: Direction, device: String, function: String, code: Int32) {
        self.kind = kind
        self.direction = direction
        self.device = device
        self.function = function
        self.code = code
        self.reason = String(cString: snd_strerror(code))
    }

    /// An error Hark detected itself (no ALSA return code to translate).
    public init(kind: Kind, direction: Direction, device: String, function: String, reason: String) {
        self.kind = kind
        self.direction = direction
        self.device = device
        self.function = function
        self.code = 0
        self.reason = reason
    }

    /// The error for a failed `snd_pcm_open`, classified by its code.
    static func open(_ code: Int32, direction: Direction, device: String) -> ALSAError {
        ALSAError(kind: code == -EBUSY ? .busy : .noDevice,
                  direction: direction, device: device, function: "snd_pcm_open", code: code)
    }

    /// The error for a sample-rate conversion the device needs (its rate is
    /// not the one Hark asked for) that HarkAudio's resampler refused or failed.
    ///
    /// HarkAudio labels its resampler errors with the source "resampler" and
    /// suggests converting a file with sox; neither helps with a device, so
    /// only the reason is kept and the device is named instead.
    static func resampling(_ error: AudioError, from inputRate: Int, to outputRate: Int, kind: Kind,
                           direction: Direction, device: String) -> ALSAError {
        let conversion = "\(inputRate) Hz to \(outputRate) Hz"
        var reason: String
        if case .resamplingFailed(let why) = error.kind {
            reason = why
            // HarkAudio's rate checks already start with the conversion; don't say it twice.
            if reason.hasPrefix(conversion + ": ") { reason.removeFirst(conversion.count + 2) }
        } else {
            reason = error.description
        }
        return ALSAError(kind: kind, direction: direction, device: device,
                         function: "resampling \(conversion)", reason: reason)
    }

    private var listCommand: String {
        direction == .capture ? "arecord -L" : "aplay -L"
    }

    public var description: String {
        let dir = direction.rawValue
        switch kind {
        case .noDevice:
            return "no \(dir) device '\(device)': \(reason) "
                + "(list devices with '\(listCommand)'; pass one with --device NAME)"
        case .busy:
            return "\(dir) device '\(device)' is busy: \(reason) "
                + "(another program is using it; close it or pick another with --device NAME, see '\(listCommand)')"
        case .unsupportedConfiguration:
            return "\(dir) device '\(device)' cannot be configured: \(function): \(reason) "
                + "(try a 'plughw:' or 'default' device, which convert formats; see '\(listCommand)')"
        case .deviceLost:
            return "\(dir) device '\(device)' stopped working: \(function): \(reason) "
                + "(was it unplugged?)"
        case .stalled:
            return "\(dir) device '\(device)' stalled: \(reason)"
        case .failed:
            return "\(dir) device '\(device)': \(function) failed: \(reason)"
        }
    }
}
