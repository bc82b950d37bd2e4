import Foundation

/// Writes ``PCMAudio`` as 16-bit PCM mono WAV, the format every tool reads.
public enum WAVWriter {
    /// The audio as the bytes of a 16-bit PCM mono WAV file at its own rate.
    ///
    /// Samples are clipped to the 16-bit range. The sample rate is clamped to
    /// what the header can hold. Audio too long for the 32-bit RIFF sizes
    /// (over 2^31 samples) gets the "unknown length" size 0xFFFFFFFF, which
    /// ``WAVReader`` and most tools read to the end of the file.
    public static func encode(_ audio: PCMAudio) -> [UInt8] {
        let samples = audio.int16Samples()
        let dataBytes = samples.count * 2
        let dataSize = UInt32(exactly: dataBytes).flatMap { size in size <= UInt32.max - 36 ? size : nil }
        let sampleRate = UInt32(clamping: max(1, audio.sampleRate))

        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + dataBytes)
        bytes += Array("RIFF".utf8)
        bytes.appendLittleEndian(dataSize.map { 36 + $0 } ?? UInt32.max)
        bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8)
        bytes.appendLittleEndian(UInt32(16))
        bytes.appendLittleEndian(WAVFormatTag.pcm)
        bytes.appendLittleEndian(UInt16(1))  // channels
        bytes.appendLittleEndian(sampleRate)
        bytes.appendLittleEndian(sampleRate &* 2)  // byte rate; wraps only for absurd rates
        bytes.appendLittleEndian(UInt16(2))  // block align
        bytes.appendLittleEndian(UInt16(16))  // bits per sample
        bytes += Array("data".utf8)
        bytes.appendLittleEndian(dataSize ?? UInt32.max)
        for sample in samples { bytes.appendLittleEndian(sample) }
        return bytes
    }

    /// Writes `audio` to `path` as 16-bit PCM mono WAV.
    ///
    /// The bytes go to a temporary file in the same directory, which is then
    /// renamed over `path`, so readers never see a half-written file.
    public static func write(_ audio: PCMAudio, to path: String) throws(AudioError) {
        do {
            try Data(encode(audio)).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw AudioError(.writeFailed(reason: error.localizedDescription), source: path)
        }
    }
}

extension [UInt8] {
    /// Appends `value` in little-endian byte order.
    mutating func appendLittleEndian(_ value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
