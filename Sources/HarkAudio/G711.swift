/// ITU-T G.711 expansion: mu-law and A-law bytes to linear samples.
///
/// Telephone recordings still arrive as 8 kHz G.711 WAV files, and decoding
/// them is a table look-up, so Hark reads them rather than asking for a
/// conversion.
enum G711 {
    /// Linear values in [-1, 1] for each mu-law byte.
    static let muLawTable: [Float] = (0...255).map { Float(expandMuLaw(UInt8($0))) / 32768 }
    /// Linear values in [-1, 1] for each A-law byte.
    static let aLawTable: [Float] = (0...255).map { Float(expandALaw(UInt8($0))) / 32768 }

    /// One mu-law byte as a 16-bit linear sample (G.711 section 3).
    static func expandMuLaw(_ byte: UInt8) -> Int {
        let code = ~byte
        let exponent = Int((code >> 4) & 0x07)
        let mantissa = Int(code & 0x0F)
        // The bias of 0x84 (132) is added before encoding; undo it after the shift.
        let magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84
        return code & 0x80 != 0 ? -magnitude : magnitude
    }

    /// One A-law byte as a 16-bit linear sample (G.711 section 2).
    static func expandALaw(_ byte: UInt8) -> Int {
        // Even bits are inverted on the line.
        let code = byte ^ 0x55
        let exponent = Int((code >> 4) & 0x07)
        let mantissa = Int(code & 0x0F)
        let magnitude = exponent == 0
            ? (mantissa << 4) + 8
            : ((mantissa << 4) + 0x108) << (exponent - 1)
        // Unlike mu-law, a set sign bit means positive.
        return code & 0x80 != 0 ? magnitude : -magnitude
    }
}
