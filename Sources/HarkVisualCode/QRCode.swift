import CQREncode
import Foundation

/// A QR code (libqrencode): the module matrix, drawn for a terminal or
/// written as a PNG. Used for `INGetVisualCodeIntent`.
public struct QRCode: Sendable, Equatable {
    /// Modules per side.
    public let width: Int
    /// Row-major; true is a dark module.
    public let modules: [Bool]

    /// Encodes `text` (8-bit mode, error correction level M).
    ///
    /// - Throws: ``VisualCodeError`` when the text is too long for a QR code.
    public init(_ text: String) throws {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw VisualCodeError("cannot encode \(text.utf8.count) bytes as a QR code (\(String(cString: strerror(errno)))); at most about 2,300 bytes fit")
        }
        defer { QRcode_free(code) }
        width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // Bit 0 of each byte is the module's colour; the others are libqrencode's bookkeeping.
        modules = data.map { $0 & 1 == 1 }
    }

    public subscript(x x: Int, y y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < width else { return false }
        return modules[y * width + x]
    }

    /// The code drawn with half-block characters, two module rows per text
    /// line, dark on light with the 4-module quiet zone scanners need.
    /// Works on dark and light terminals alike (it draws the light parts).
    public var terminal: String {
        let quiet = 4
        var lines: [String] = []
        var y = -quiet
        while y < width + quiet {
            var line = ""
            for x in -quiet..<(width + quiet) {
                let top = !self[x: x, y: y], bottom = !self[x: x, y: y + 1]
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
            y += 2
        }
        return lines.joined(separator: "\n")
    }

    /// A grayscale PNG, `scale` pixels per module, with the quiet zone.
    public func png(scale: Int = 8) -> Data {
        let quiet = 4
        let side = (width + 2 * quiet) * scale
        var raw = [UInt8]()
        raw.reserveCapacity((side + 1) * side)
        for py in 0..<side {
            raw.append(0) // filter: none
            let y = py / scale - quiet
            for px in 0..<side {
                raw.append(self[x: px / scale - quiet, y: y] ? 0 : 255)
            }
        }
        return PNGWriter.grayscale(width: side, height: side, rows: raw)
    }

    /// Writes ``png(scale:)`` to `path` atomically.
    ///
    /// - Throws: when the file cannot be written.
    public func writePNG(to path: String, scale: Int = 8) throws {
        try png(scale: scale).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// A minimal PNG encoder: 8-bit grayscale, the image data in stored
/// (uncompressed) deflate blocks, so no zlib is needed. QR codes are small
/// (a few hundred kilobytes at most uncompressed), which makes the size
/// cost irrelevant.
enum PNGWriter {
    static func grayscale(width: Int, height: Int, rows: [UInt8]) -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(be32(UInt32(width)))
        header.append(be32(UInt32(height)))
        header.append(contentsOf: [8, 0, 0, 0, 0]) // 8-bit, grayscale, deflate, adaptive filter, no interlace
        png.append(chunk("IHDR", header))
        png.append(chunk("IDAT", zlibStored(rows)))
        png.append(chunk("IEND", Data()))
        return png
    }

    /// A zlib stream of stored deflate blocks (at most 65,535 bytes each).
    static func zlibStored(_ bytes: [UInt8]) -> Data {
        var out = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final: UInt8 = offset + count == bytes.count ? 1 : 0
            out.append(final)
            out.append(UInt8(count & 0xFF)); out.append(UInt8(count >> 8))
            out.append(UInt8(~count & 0xFF)); out.append(UInt8((~count >> 8) & 0xFF))
            out.append(contentsOf: bytes[offset..<offset + count])
            offset += count
        } while offset < bytes.count
        out.append(be32(adler32(bytes)))
        return out
    }

    static func chunk(_ type: String, _ data: Data) -> Data {
        var body = Data(type.utf8)
        body.append(data)
        var out = be32(UInt32(data.count))
        out.append(body)
        out.append(be32(crc32(body)))
        return out
    }

    static func be32(_ v: UInt32) -> Data { Data([UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]) }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return (b << 16) | a
    }
}

/// A visual code that cannot be made.
public struct VisualCodeError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
