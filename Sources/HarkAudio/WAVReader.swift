import Foundation

/// Reads RIFF/WAVE files into mono ``PCMAudio``.
///
/// Supported: PCM 8-bit unsigned and 16/24/32/64-bit signed integer, IEEE
/// float 32/64-bit, G.711 mu-law and A-law, each plain or inside
/// WAVE_FORMAT_EXTENSIBLE, with any number of channels (averaged to mono).
/// Unknown chunks (LIST, fact, cue, ...) are skipped, odd-sized ones with
/// their pad byte.
///
/// Every header claim is checked against the bytes actually present before
/// it is used, so a corrupt file yields an ``AudioError`` and never a crash
/// or a huge allocation.
public enum WAVReader {
    /// `data` chunk sizes that streaming writers put in the header when they
    /// cannot seek back to fill in the real length: 0 and 0xFFFFFFFF by
    /// convention, 0x7FFFF000 from sox and espeak-ng writing to a pipe.
    /// With one of these the audio runs to the end of the file.
    static let unknownLengthMarkers: Set<UInt32> = [0, 0x7FFF_F000, 0xFFFF_FFFF]

    /// The GUID tail (after the 2-byte format tag) shared by all
    /// WAVE_FORMAT_EXTENSIBLE sub-formats derived from plain format tags:
    /// xxxxxxxx-0000-0010-8000-00AA00389B71.
    private static let extensibleGUIDTail: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
    ]

    /// Reads and decodes the WAV file at `path`.
    public static func read(contentsOf path: String) throws(AudioError) -> WAVFile {
        try decode(FileBytes.read(path), name: path)
    }

    /// Reads the WAV file at `path` as one turn for the recognizer: 16 kHz
    /// mono. Before reading the samples it checks, from the header alone,
    /// that the audio is at most ``WAVFormat/maximumTurnSeconds`` long and
    /// ``WAVFormat/maximumTurnBytes`` large (so memory does not grow with
    /// the file), and that its rate is one Hark recognises
    /// (``WAVFormat/recognitionSampleRates``) before any resampling.
    ///
    /// - Throws: ``AudioError`` naming `path`.
    public static func readForRecognition(contentsOf path: String) throws(AudioError) -> PCMAudio {
        try checkTurnLength(path)
        let file = try read(contentsOf: path)
        guard WAVFormat.recognitionSampleRates.contains(file.format.sampleRate) else {
            throw AudioError(.unrecognizableSampleRate(file.format.sampleRate), source: path)
        }
        do {
            return try file.audio.toRecognitionFormat()
        } catch {
            throw AudioError(error.kind, source: path)
        }
    }

    /// Throws ``AudioError/Kind/tooLong(seconds:bytes:)`` when the header of
    /// the WAV file at `path` announces more audio than one turn may hold,
    /// and ``AudioError/Kind/unrecognizableSampleRate(_:)`` for a rate
    /// outside ``WAVFormat/recognitionSampleRates``, reading only the chunk
    /// headers. A header it cannot make sense of
    /// passes: reading the whole file then says what is wrong.
    static func checkTurnLength(_ path: String) throws(AudioError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        let fileSize = Int(status.st_size)
        func bytes(at offset: Int, count: Int) -> [UInt8]? {
            guard offset >= 0, count > 0, offset + count <= fileSize else { return nil }
            var buffer = [UInt8](repeating: 0, count: count)
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return got == count ? buffer : nil
        }
        guard let riff = bytes(at: 0, count: 12), riff.starts(with: Array("RIFF".utf8)) else { return }
        var offset = 12
        var rate: Int?, blockAlign: Int?, dataBytes: Int?
        // At most a few hundred chunks before `fmt ` and `data`; a file of
        // tiny chunks is not worth following here.
        for _ in 0..<1_000 where rate == nil || dataBytes == nil {
            guard let header = bytes(at: offset, count: 8) else { return }
            let id = String(decoding: header[0..<4], as: UTF8.self)
            let claimed = UInt32(littleEndianAt: 4, in: header)
            let body = offset + 8
            if id == "fmt ", let fmt = bytes(at: body, count: 16) {
                rate = Int(UInt32(littleEndianAt: 4, in: fmt))
                blockAlign = Int(UInt16(littleEndianAt: 12, in: fmt))
            } else if id == "data" {
                let available = fileSize - body
                dataBytes = Int(claimed) > available || (claimed == 0 && available > 0) ? available : Int(claimed)
            }
            offset = body + Int(claimed) + Int(claimed & 1)
        }
        if let rate, (1...WAVFormat.maximumSampleRate).contains(rate), !WAVFormat.recognitionSampleRates.contains(rate) {
            throw AudioError(.unrecognizableSampleRate(rate), source: path)
        }
        guard let dataBytes else { return }
        var seconds = 0
        if let rate, let blockAlign, rate > 0, blockAlign > 0 {
            seconds = dataBytes / blockAlign / rate
        }
        if dataBytes > WAVFormat.maximumTurnBytes || seconds > WAVFormat.maximumTurnSeconds {
            throw AudioError(.tooLong(seconds: seconds, bytes: dataBytes), source: path)
        }
    }

    /// Decodes a complete WAV file held in memory; `name` is used in errors.
    public static func decode(_ bytes: [UInt8], name: String) throws(AudioError) -> WAVFile {
        let chunks = try locateChunks(bytes, name: name)
        let format = try parseFormat(bytes, chunk: chunks.format, name: name)
        let frameCount = chunks.data.count / format.blockAlign
        guard frameCount > 0 else { throw AudioError(.emptyAudio, source: name) }
        let samples = downmix(bytes, from: chunks.data.lowerBound, frames: frameCount, format: format)
        return WAVFile(name: name, format: format, audio: PCMAudio(samples: samples, sampleRate: format.sampleRate))
    }

    /// Decodes a complete WAV file held in `Data`; `name` is used in errors.
    public static func decode(_ data: Data, name: String) throws(AudioError) -> WAVFile {
        try decode([UInt8](data), name: name)
    }

    // MARK: - Container

    /// Chunk identifiers common in WAV files, to tell a missing pad byte
    /// (the next known chunk found one byte early) from garbage.
    static let knownChunkIDs: Set<String> = [
        "fmt ", "data", "LIST", "fact", "cue ", "bext", "JUNK", "junk", "PAD ", "smpl", "inst", "id3 ", "ID3 ", "iXML", "acid", "plst", "labl", "note", "ltxt", "PEAK", "minf", "elm1", "regn", "umid", "DISP", "FLLR",
    ]

    /// Checks the RIFF header and finds the `fmt ` chunk body and the audio bytes.
    private static func locateChunks(
        _ bytes: [UInt8], name: String
    ) throws(AudioError) -> (format: Range<Int>, data: Range<Int>) {
        guard !bytes.isEmpty else { throw AudioError(.emptyFile, source: name) }
        try checkRIFFHeader(bytes, name: name)

        var format: Range<Int>?
        var data: Range<Int>?
        var offset = 12
        var previous: (id: String, size: Int)?
        while offset < bytes.count, format == nil || data == nil {
            if let previous, previous.size & 1 == 1, offset + 3 <= bytes.count,
               knownChunkIDs.contains(fourCC(bytes, at: offset - 1)),
               offset + 4 > bytes.count || !knownChunkIDs.contains(fourCC(bytes, at: offset)) {
                // The writer left out the pad byte after an odd-sized chunk.
                throw AudioError(.missingPadByte(after: previous.id), source: name)
            }
            let remaining = bytes.count - offset
            guard remaining >= 8 else {
                throw AudioError(.truncatedHeader(chunk: "chunk header", needed: 8, available: remaining), source: name)
            }
            let id = fourCC(bytes, at: offset)
            let claimed = UInt32(littleEndianAt: offset + 4, in: bytes)
            let body = offset + 8
            let available = bytes.count - body
            // Int is 64-bit, so a UInt32 size plus an offset cannot overflow.
            var size = Int(claimed)

            if id == "data", data == nil {
                if size > available || (size == 0 && available > 0) {
                    guard unknownLengthMarkers.contains(claimed) else {
                        throw AudioError(.truncatedData(claimed: size, available: available), source: name)
                    }
                    size = available
                }
                data = body..<(body + size)
            } else if id == "fmt ", format == nil {
                guard size <= available else {
                    throw AudioError(.truncatedHeader(chunk: "fmt ", needed: size, available: available), source: name)
                }
                format = body..<(body + size)
            } else if size > available {
                // A chunk we would skip runs past the end, and fmt or data is still missing.
                throw AudioError(.truncatedHeader(chunk: id, needed: size, available: available), source: name)
            }
            // Chunks are padded to an even length; the pad byte is not counted in the size.
            offset = body + size + (size & 1)
            previous = (id, size)
        }
        guard let format else { throw AudioError(.missingChunk("fmt "), source: name) }
        guard let data else { throw AudioError(.missingChunk("data"), source: name) }
        return (format, data)
    }

    /// Throws unless `bytes` starts with `RIFF <size> WAVE`.
    private static func checkRIFFHeader(_ bytes: [UInt8], name: String) throws(AudioError) {
        let riff = Array("RIFF".utf8)
        let wave = Array("WAVE".utf8)
        // Compare only what is present, so a cut-off header is told apart from another format.
        let riffMatches = zip(bytes.prefix(4), riff).allSatisfy(==)
        let waveMatches = bytes.count <= 8 || zip(bytes[8...].prefix(4), wave).allSatisfy(==)
        guard riffMatches && waveMatches else {
            // For other RIFF types (AVI, RMID, ...) the form type is the telling part.
            let shown = bytes.starts(with: riff) ? Array(bytes.prefix(12)) : Array(bytes.prefix(4))
            throw AudioError(.notRIFFWAVE(leadingBytes: shown), source: name)
        }
        guard bytes.count >= 12 else {
            throw AudioError(.truncatedHeader(chunk: "RIFF", needed: 12, available: bytes.count), source: name)
        }
    }

    /// A chunk identifier as text, with unprintable bytes escaped.
    private static func fourCC(_ bytes: [UInt8], at offset: Int) -> String {
        AudioError.escaped(Array(bytes[offset..<(offset + 4)]))
    }

    // MARK: - Format

    /// Parses and validates the `fmt ` chunk body.
    private static func parseFormat(_ bytes: [UInt8], chunk: Range<Int>, name: String) throws(AudioError) -> WAVFormat {
        func fail(_ kind: AudioError.Kind) -> AudioError { AudioError(kind, source: name) }
        guard chunk.count >= 16 else {
            throw fail(.truncatedHeader(chunk: "fmt ", needed: 16, available: chunk.count))
        }
        let start = chunk.lowerBound
        let declaredTag = UInt16(littleEndianAt: start, in: bytes)
        let channels = Int(UInt16(littleEndianAt: start + 2, in: bytes))
        let sampleRate = Int(UInt32(littleEndianAt: start + 4, in: bytes))
        let blockAlign = Int(UInt16(littleEndianAt: start + 12, in: bytes))
        let bitsPerSample = Int(UInt16(littleEndianAt: start + 14, in: bytes))

        var tag = declaredTag
        let isExtensible = declaredTag == WAVFormatTag.extensible
        if isExtensible {
            // cbSize, valid bits, channel mask, then the 16-byte sub-format GUID.
            guard chunk.count >= 40 else {
                throw fail(.truncatedHeader(chunk: "fmt ", needed: 40, available: chunk.count))
            }
            tag = UInt16(littleEndianAt: start + 24, in: bytes)
            let guid = Array(bytes[(start + 24)..<(start + 40)])
            guard Array(guid[2...]) == extensibleGUIDTail else {
                throw fail(.unsupportedCodec(formatTag: declaredTag, name: "extensible sub-format \(guidString(guid))"))
            }
        }

        let codec = WAVFormatTag.name(of: tag)
        let allowedBits: Set<Int>
        switch tag {
        case WAVFormatTag.pcm: allowedBits = [8, 16, 24, 32, 64]
        case WAVFormatTag.ieeeFloat: allowedBits = [32, 64]
        case WAVFormatTag.muLaw, WAVFormatTag.aLaw: allowedBits = [8]
        default: throw fail(.unsupportedCodec(formatTag: tag, name: codec))
        }
        guard (1...WAVFormat.maximumChannels).contains(channels) else { throw fail(.invalidChannelCount(channels)) }
        guard (1...WAVFormat.maximumSampleRate).contains(sampleRate) else { throw fail(.invalidSampleRate(sampleRate)) }
        guard allowedBits.contains(bitsPerSample) else { throw fail(.invalidBitsPerSample(bitsPerSample, codec: codec)) }
        let format = WAVFormat(
            codec: codec, formatTag: tag, sampleRate: sampleRate, channels: channels,
            bitsPerSample: bitsPerSample, isFloat: tag == WAVFormatTag.ieeeFloat, isExtensible: isExtensible
        )
        guard blockAlign == format.blockAlign else {
            throw fail(.inconsistentBlockAlign(declared: blockAlign, expected: format.blockAlign))
        }
        return format
    }

    /// A GUID in its usual text form (first three fields little-endian).
    private static func guidString(_ bytes: [UInt8]) -> String {
        let order = [3, 2, 1, 0, -1, 5, 4, -1, 7, 6, -1, 8, 9, -1, 10, 11, 12, 13, 14, 15]
        return "{" + order.map { $0 < 0 ? "-" : AudioError.hexDigits(bytes[$0], width: 2) }.joined() + "}"
    }

    // MARK: - Samples

    /// Decodes `frames` sample frames starting at `offset` and averages their channels.
    /// The caller has checked that `frames * format.blockAlign` bytes are present.
    private static func downmix(_ bytes: [UInt8], from offset: Int, frames: Int, format: WAVFormat) -> [Float] {
        let decodeSample = sampleDecoder(for: format)
        let channels = format.channels
        let bytesPerSample = format.bitsPerSample / 8
        let scale = 1 / Float(channels)
        return bytes.withUnsafeBytes { raw in
            [Float](unsafeUninitializedCapacity: frames) { output, initialized in
                var position = offset
                for frame in 0..<frames {
                    var sum: Float = 0
                    for _ in 0..<channels {
                        sum += decodeSample(raw, position)
                        position += bytesPerSample
                    }
                    let mono = sum * scale
                    // A float file can hold NaN or infinity; they must not reach the recognizer.
                    output[frame] = mono.isFinite ? mono : 0
                }
                initialized = frames
            }
        }
    }

    /// A function turning the sample at a byte offset into a float in [-1, 1].
    private static func sampleDecoder(for format: WAVFormat) -> (UnsafeRawBufferPointer, Int) -> Float {
        switch (format.formatTag, format.bitsPerSample) {
        case (WAVFormatTag.muLaw, _):
            let table = G711.muLawTable
            return { raw, at in table[Int(raw[at])] }
        case (WAVFormatTag.aLaw, _):
            let table = G711.aLawTable
            return { raw, at in table[Int(raw[at])] }
        case (WAVFormatTag.ieeeFloat, 32):
            return { raw, at in Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        case (WAVFormatTag.ieeeFloat, _):
            return { raw, at in Float(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)))) }
        case (_, 8):
            // 8-bit WAV is unsigned with 128 as silence.
            return { raw, at in (Float(raw[at]) - 128) / 128 }
        case (_, 16):
            return { raw, at in Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int16.self))) / 32768 }
        case (_, 24):
            return { raw, at in
                // Assemble in the top three bytes of an Int32 so the sign extends for free.
                let value = Int32(bitPattern: UInt32(raw[at]) << 8 | UInt32(raw[at + 1]) << 16 | UInt32(raw[at + 2]) << 24)
                return Float(value) / 2_147_483_648
            }
        case (_, 32):
            return { raw, at in Float(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int32.self))) / 2_147_483_648 }
        default:
            return { raw, at in Float(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int64.self))) / 9_223_372_036_854_775_808 }
        }
    }
}

extension FixedWidthInteger {
    /// The little-endian value stored at `offset` in `bytes`; the caller checks the bounds.
    init(littleEndianAt offset: Int, in bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { Self(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Self.self)) }
    }
}
