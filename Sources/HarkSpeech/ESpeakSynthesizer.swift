import CESpeakNG
import HarkAudio
import HarkESpeak

/// Text-to-speech with libespeak-ng, in process (no `espeak-ng` subprocess).
///
/// Produces espeak-ng's native output: mono 16-bit at its own sample rate
/// (22050 Hz). Text is plain text: markup such as `<speak>` is read out
/// literally rather than interpreted as SSML, and control characters are
/// treated as spaces.
///
/// Any number of synthesizers, on any threads, can be used at once: espeak-ng
/// itself is process-global and single-threaded, so calls are serialised by
/// one lock and each call selects its own voice and rate.
public final class ESpeakSynthesizer: SpeechSynthesizer {
    /// The voice espeak-ng speaks with ("en-us", "en-gb", "de", "en-us+f3", ...).
    public let voice: String
    /// Speaking rate in words per minute.
    public let rate: Int
    /// The espeak-ng data directory, or `nil` for espeak-ng's default.
    public let dataPath: String?

    /// The rates espeak-ng accepts, in words per minute.
    public static let rateRange = Int(espeakRATE_MINIMUM)...Int(espeakRATE_MAXIMUM)

    /// Prepares a synthesizer, checking that espeak-ng starts and the voice exists.
    ///
    /// - Parameters:
    ///   - voice: an espeak-ng voice or language name; see ``availableVoices(dataPath:)``.
    ///   - rate: words per minute, within ``rateRange``.
    ///   - dataPath: a directory holding (or being) `espeak-ng-data`;
    ///     `nil` uses `ESPEAK_DATA_PATH` or the installed data.
    /// - Throws: ``SpeechError`` when espeak-ng can't load its data, the voice
    ///   is unknown, or the rate is out of range.
    public init(voice: String = "en-us", rate: Int = 175, dataPath: String? = nil) throws {
        guard Self.rateRange.contains(rate) else {
            throw SpeechError(.invalidRate(rate),
                              reason: "espeak-ng accepts \(Self.rateRange.lowerBound)–\(Self.rateRange.upperBound)")
        }
        self.voice = voice
        self.rate = rate
        self.dataPath = dataPath
        // Fail now, not on the first sentence.
        try ESpeakEngine.withEngine(dataPath: dataPath) { (engine) throws(SpeechError) in
            try engine.select(voice: voice, rate: rate)
        }
    }

    /// The sample rate of the audio ``synthesize(_:)`` returns.
    public var sampleRate: Int {
        get throws {
            try ESpeakEngine.withEngine(dataPath: dataPath) { engine in engine.sampleRate }
        }
    }

    /// Speaks `text` into audio at espeak-ng's native sample rate.
    ///
    /// Empty (or all-whitespace) text gives empty or near-silent audio.
    /// - Throws: ``SpeechError`` if espeak-ng fails.
    public func synthesize(_ text: String) throws -> PCMAudio {
        let plain = Self.plainText(text)
        return try ESpeakEngine.withEngine(dataPath: dataPath) { (engine) throws(SpeechError) -> PCMAudio in
            try engine.select(voice: voice, rate: rate)
            let samples = try engine.synthesize(plain)
            return PCMAudio(int16: samples, sampleRate: engine.sampleRate)
        }
    }

    /// `text` with control characters replaced by spaces.
    ///
    /// espeak-ng gives some control characters meaning even outside SSML:
    /// U+0001 introduces embedded commands that change volume, pitch or voice
    /// mid-text, and NUL would end the C string early. Line breaks and tabs
    /// are kept; they're ordinary whitespace to espeak-ng.
    static func plainText(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D:
                scalars.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F:
                scalars.append(" ")
            default:
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The voices espeak-ng has installed, as names ``init(voice:rate:dataPath:)``
    /// accepts, sorted: each voice's language code ("en-us", "fr-fr"), or its
    /// voice file ("iro/chr") for the few whose language espeak-ng can't look
    /// up by name. Empty if espeak-ng can't load its data.
    public static func availableVoices(dataPath: String? = nil) -> [String] {
        let names = try? ESpeakEngine.withEngine(dataPath: dataPath) { engine in engine.voiceNames() }
        return names ?? []
    }
}
