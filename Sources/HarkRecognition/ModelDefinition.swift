import Foundation

extension LetterToSound {
    /// The context-independent phones of an acoustic model's `mdef` (binary
    /// `BMDF` as Debian ships it, or the text format), so callers can check
    /// that pronunciations use only phones the model knows.
    ///
    /// - Throws: ``RecognitionError`` naming the file when it is not an mdef.
    public static func phones(ofModelDefinition path: String) throws -> Set<String> {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecognitionError("\(path): cannot read the model definition")
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("BMDF".utf8)) {
            let marker = Array("END FILE FORMAT DESCRIPTION\n".utf8)
            guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) else {
                throw RecognitionError("\(path): binary mdef without its format description")
            }
            var offset = end + marker.count
            offset = (offset + 3) & ~3
            guard offset + 40 <= bytes.count else { throw RecognitionError("\(path): binary mdef is truncated") }
            let count = Int(Int32(littleEndian: bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }))
            offset += 40
            var phones: Set<String> = []
            for _ in 0..<count {
                guard let zero = bytes[offset...].firstIndex(of: 0) else { throw RecognitionError("\(path): binary mdef is truncated") }
                phones.insert(String(decoding: bytes[offset..<zero], as: UTF8.self))
                offset = zero + 1
            }
            return phones
        }
        // Text mdef: context-independent phones are the lines "PH - - - ...".
        let text = String(decoding: bytes, as: UTF8.self)
        var phones: Set<String> = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            if fields.count > 5, fields[1] == "-", fields[2] == "-", fields[3] == "-" { phones.insert(String(fields[0])) }
        }
        return phones
    }
}
