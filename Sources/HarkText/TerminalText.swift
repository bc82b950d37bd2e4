/// Text from files, stores, plists or the network, made safe to show on a
/// terminal: control characters become visible escapes, so data can neither
/// drive the terminal (`ESC [2J` clears the screen, `ESC ]0;…BEL` retitles
/// it) nor forge lines (a newline followed by `hark: error: …`).
///
/// Only human-readable output is escaped; JSON output carries the exact text.
public func escapingControlCharacters(_ text: String) -> String {
    escaping(text, where: needsEscape)
}

/// `text` with every character a name may not hold (see
/// ``firstDisallowedNameCharacter(in:)``) escaped, for messages about names.
public func escapingDisallowedNameCharacters(_ text: String) -> String {
    escaping(text, where: isDisallowedInName)
}

private func escaping(_ text: String, where needsEscape: (Unicode.Scalar) -> Bool) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
        guard needsEscape(scalar) else {
            out.unicodeScalars.append(scalar)
            continue
        }
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            let hex = String(scalar.value, radix: 16)
            if scalar.value <= 0xFF {
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            } else {
                out += "\\u{" + hex.uppercased() + "}"
            }
        }
    }
    return out
}

/// Whether `scalar` must not reach a terminal as it is: C0 and C1 controls,
/// DEL, and the bidirectional overrides and isolates that reorder what
/// follows on screen (U+202A–202E, U+2066–2069).
private func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
}

/// The first character of `text` that a name or vocabulary value may not
/// hold: a control character, a bidirectional override or isolate, or a
/// zero-width character (U+200B–200D, U+FEFF) that makes two names look
/// alike. Nil when the text is clean.
public func firstDisallowedNameCharacter(in text: String) -> Unicode.Scalar? {
    text.unicodeScalars.first(where: isDisallowedInName)
}

private func isDisallowedInName(_ scalar: Unicode.Scalar) -> Bool {
    needsEscape(scalar) || (0x200B...0x200D).contains(scalar.value) || scalar.value == 0xFEFF
}

/// `U+202E` style name of a scalar, for error messages.
public func scalarName(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
