import HarkText

/// Everything that can go wrong in HarkAudio: reading, decoding, resampling
/// or writing audio.
///
/// Each error names the file (or stream) it is about, what was wrong and what
/// to do about it, as one line suitable for a terminal:
///
///     x.wav: not a RIFF/WAVE file (starts with 'ID3\x03'); convert it with: sox x.wav -r 16000 -c 1 -b 16 out.wav
public struct AudioError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// Nothing exists at the path.
        case fileNotFound
        /// The path exists but could not be read (a directory, no permission, I/O error).
        case fileUnreadable(reason: String)
        /// The file has no bytes at all.
        case emptyFile
        /// The file does not start with `RIFF....WAVE`; carries its first bytes.
        case notRIFFWAVE(leadingBytes: [UInt8])
        /// The file ends inside the RIFF header, a chunk header or the `fmt ` chunk.
        case truncatedHeader(chunk: String, needed: Int, available: Int)
        /// The `data` chunk claims more bytes than the file holds.
        case truncatedData(claimed: Int, available: Int)
        /// A required chunk (`fmt ` or `data`) is missing.
        case missingChunk(String)
        /// The audio is compressed or otherwise not PCM/float/G.711.
        case unsupportedCodec(formatTag: UInt16, name: String)
        /// The header declares no channels or implausibly many.
        case invalidChannelCount(Int)
        /// The sample rate is zero or implausibly high.
        case invalidSampleRate(Int)
        /// The bit depth is not one this codec can have.
        case invalidBitsPerSample(Int, codec: String)
        /// The block alignment disagrees with channels × bytes per sample.
        case inconsistentBlockAlign(declared: Int, expected: Int)
        /// The audio holds no complete sample frame.
        case emptyAudio
        /// The rates cannot be converted, or libsamplerate reported an error.
        case resamplingFailed(String)
        /// The rate or channel count given for headerless PCM is impossible.
        case invalidRawFormat(String)
        /// Reading a stream (standard input, a pipe) failed.
        case readFailed(reason: String)
        /// Writing a file failed.
        case writeFailed(reason: String)
        /// The sample rate is outside ``WAVFormat/recognitionSampleRates``.
        case unrecognizableSampleRate(Int)
        /// The recording is longer than one turn may be.
        case tooLong(seconds: Int, bytes: Int)
        /// An odd-sized chunk is not followed by the pad byte RIFF requires,
        /// so the next chunk starts one byte early.
        case missingPadByte(after: String)
    }

    /// What went wrong.
    public var kind: Kind
    /// What it happened to: a file path, or a stream name such as "standard input".
    public var source: String

    /// An error of `kind` concerning `source` (a path or stream name).
    public init(_ kind: Kind, source: String) {
        self.kind = kind
        self.source = source
    }

    /// One line: the source, what was wrong, and what to do.
    public var description: String {
        let name = Self.oneLine(source)
        let convert = "convert it with: sox \(Self.shellQuoted(name)) -r 16000 -c 1 -b 16 out.wav"
        switch kind {
        case .fileNotFound:
            return "\(name): no such file; check the path"
        case .fileUnreadable(let reason):
            return "\(name): cannot read the file (\(Self.oneLine(reason))); check that it is a readable regular file"
        case .emptyFile:
            return "\(name): the file is empty (0 bytes); record or export the audio again"
        case .notRIFFWAVE(let leading):
            return "\(name): not a RIFF/WAVE file (starts with '\(Self.escaped(leading))'); \(convert)"
        case .truncatedHeader(let chunk, let needed, let available):
            return "\(name): truncated header: '\(Self.oneLine(chunk))' needs \(needed) bytes but only \(available) remain; the file is cut short, \(convert)"
        case .truncatedData(let claimed, let available):
            return "\(name): truncated audio: the data chunk claims \(claimed) bytes but only \(available) are in the file; the file is cut short, re-export it or \(convert)"
        case .missingChunk(let chunk):
            return "\(name): no '\(Self.oneLine(chunk))' chunk in the WAVE file; \(convert)"
        case .unsupportedCodec(let tag, let codec):
            return "\(name): unsupported codec \(Self.oneLine(codec)) (format tag \(Self.hex(tag))); only PCM, IEEE float, mu-law and A-law can be read; \(convert)"
        case .invalidChannelCount(let count):
            return "\(name): invalid header: \(count) channels (expected 1...\(WAVFormat.maximumChannels)); \(convert)"
        case .invalidSampleRate(let rate):
            return "\(name): invalid header: sample rate \(rate) Hz (expected 1...\(WAVFormat.maximumSampleRate)); \(convert)"
        case .invalidBitsPerSample(let bits, let codec):
            return "\(name): invalid header: \(bits) bits per sample is not possible for \(Self.oneLine(codec)); \(convert)"
        case .inconsistentBlockAlign(let declared, let expected):
            return "\(name): invalid header: block align \(declared) but channels × bytes per sample = \(expected); \(convert)"
        case .emptyAudio:
            return "\(name): the audio is empty (no complete sample frame); record or export it again"
        case .resamplingFailed(let reason):
            return "\(name): cannot resample (\(Self.oneLine(reason))); convert the audio to 16 kHz first, e.g. with sox"
        case .invalidRawFormat(let reason):
            return "\(name): invalid raw PCM format (\(Self.oneLine(reason))); give 1...\(WAVFormat.maximumChannels) channels and 1...\(WAVFormat.maximumSampleRate) Hz"
        case .readFailed(let reason):
            return "\(name): read failed (\(Self.oneLine(reason))); check the program feeding the audio"
        case .writeFailed(let reason):
            return "\(name): cannot write (\(Self.oneLine(reason))); check that the directory exists and is writable"
        case .unrecognizableSampleRate(let rate):
            let rates = WAVFormat.recognitionSampleRates
            return "\(name): sample rate \(rate) Hz is outside the \(rates.lowerBound)...\(rates.upperBound) Hz Hark recognises speech at (a wrong header?); \(convert)"
        case .tooLong(let seconds, let bytes):
            return "\(name): too long for one turn (\(seconds) s of audio, \(bytes) bytes; at most \(WAVFormat.maximumTurnSeconds) s and \(WAVFormat.maximumTurnBytes >> 20) MiB); split it, or stream it with: sox \(Self.shellQuoted(name)) -t raw -r 16000 -c 1 -e signed -b 16 - | hark listen --device -"
        case .missingPadByte(let chunk):
            return "\(name): the '\(Self.oneLine(chunk))' chunk has an odd size but no pad byte after it, so the next chunk is misaligned (a writer bug); \(convert)"
        }
    }

    /// Text with line breaks and other control characters escaped, so a
    /// description always stays on one harmless line.
    private static func oneLine(_ text: String) -> String {
        escapingControlCharacters(text)
    }

    /// Quotes a path for the suggested shell command when it needs quoting.
    private static func shellQuoted(_ path: String) -> String {
        let plain = path.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+,:@".contains($0)) }
        if plain && !path.isEmpty { return path }
        return "'" + path.replacingAll("'", with: "'\\''") + "'"
    }

    /// Bytes as printable ASCII, others as `\xNN`.
    static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "'") && byte != UInt8(ascii: "\\")
                ? String(UnicodeScalar(byte))
                : "\\x" + hexDigits(byte, width: 2)
        }.joined()
    }

    private static func hex(_ tag: UInt16) -> String {
        "0x" + hexDigits(tag, width: 4)
    }

    static func hexDigits(_ value: some BinaryInteger, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension String {
    /// `self` with every occurrence of `target` replaced (Foundation-free).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
