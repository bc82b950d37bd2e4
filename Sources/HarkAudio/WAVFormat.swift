/// What a WAV file's `fmt ` chunk declares.
public struct WAVFormat: Sendable, Equatable {
    /// More channels than this is taken as a corrupt header.
    public static let maximumChannels = 1024
    /// A sample rate above this is taken as a corrupt header.
    public static let maximumSampleRate = 1_000_000
    /// The sample rates Hark recognises speech at (converted to 16 kHz):
    /// below 4 kHz there is no speech band left, above 384 kHz no real
    /// recording; outside them a header is wrong, and resampling it would
    /// make minutes of noise from a second of audio.
    public static let recognitionSampleRates = 4_000...384_000
    /// The longest recording `hark replay` and `hark bench` take as one
    /// turn, in seconds (memory grows with the length, about 1 MB per
    /// second through the whole pipeline). Longer audio is refused before
    /// it is read; split it, or stream it with `hark listen --device -`.
    public static let maximumTurnSeconds = 300
    /// The most audio bytes (the `data` chunk) a turn's file may hold:
    /// five minutes of 48 kHz 24-bit stereo fit.
    public static let maximumTurnBytes = 256 << 20

    /// The codec in words: "PCM", "IEEE float", "mu-law" or "A-law".
    public var codec: String
    /// The effective format tag (for WAVE_FORMAT_EXTENSIBLE, the sub-format's).
    public var formatTag: UInt16
    /// Sample frames per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int
    /// Bits per stored sample (the container size).
    public var bitsPerSample: Int
    /// Whether samples are IEEE floating point.
    public var isFloat: Bool
    /// Whether the header uses WAVE_FORMAT_EXTENSIBLE (0xFFFE).
    public var isExtensible: Bool

    /// A format as declared in a header.
    public init(
        codec: String, formatTag: UInt16, sampleRate: Int, channels: Int,
        bitsPerSample: Int, isFloat: Bool, isExtensible: Bool
    ) {
        self.codec = codec
        self.formatTag = formatTag
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.isFloat = isFloat
        self.isExtensible = isExtensible
    }

    /// Bytes per sample frame (all channels).
    public var blockAlign: Int { channels * bitsPerSample / 8 }
}

/// The WAVE format tags Hark knows by name.
enum WAVFormatTag {
    static let pcm: UInt16 = 0x0001
    static let microsoftADPCM: UInt16 = 0x0002
    static let ieeeFloat: UInt16 = 0x0003
    static let aLaw: UInt16 = 0x0006
    static let muLaw: UInt16 = 0x0007
    static let imaADPCM: UInt16 = 0x0011
    static let gsm610: UInt16 = 0x0031
    static let mpeg: UInt16 = 0x0050
    static let mpegLayer3: UInt16 = 0x0055
    static let extensible: UInt16 = 0xFFFE

    /// A readable name for a tag, for messages about codecs Hark cannot read.
    static func name(of tag: UInt16) -> String {
        switch tag {
        case pcm: "PCM"
        case microsoftADPCM: "Microsoft ADPCM"
        case ieeeFloat: "IEEE float"
        case aLaw: "A-law"
        case muLaw: "mu-law"
        case imaADPCM: "IMA ADPCM"
        case gsm610: "GSM 6.10"
        case mpeg: "MPEG"
        case mpegLayer3: "MPEG Layer 3"
        case extensible: "WAVE_FORMAT_EXTENSIBLE"
        default: "0x" + AudioError.hexDigits(tag, width: 4)
        }
    }
}
