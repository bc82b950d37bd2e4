import Foundation

/// An app's own card for an intent: lines of text with placeholders, shown
/// in push-to-talk and terminal use in place of Hark's field list.
///
/// Placeholders are `{parameter}` (the intent's parameter as resolved, e.g.
/// `{recipients}`), `{output.KEY}` (a field the app's response returned,
/// e.g. `{output.balance}`), `{app}`, `{intent}` and `{speech}` (what Hark
/// said). A line with a placeholder that has no value is left out, so a
/// template may hold lines for optional parameters:
///
/// ```
/// 💬 To {recipients}
/// “{content}”
/// ```
public struct CardTemplate: Sendable, Equatable {
    /// A template that does not read: the reason, for the plist error.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    enum Piece: Sendable, Equatable {
        case text(String)
        case placeholder(String)
    }

    let lines: [[Piece]]

    /// - Throws: ``Error`` for an unclosed `{` or an empty `{}`.
    public init(_ text: String) throws {
        var lines: [[Piece]] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var pieces: [Piece] = []
            var rest = Substring(line)
            while let open = rest.firstIndex(of: "{") {
                if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
                guard let close = rest[open...].firstIndex(of: "}") else {
                    throw Error(description: "line \(number + 1): '{' without a closing '}'")
                }
                let name = rest[rest.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { throw Error(description: "line \(number + 1): an empty placeholder '{}'") }
                pieces.append(.placeholder(name))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { pieces.append(.text(String(rest))) }
            lines.append(pieces)
        }
        self.lines = lines
    }

    /// The card, with `value` giving each placeholder's text (nil: no value,
    /// and the line is left out).
    public func render(_ value: (String) -> String?) -> String {
        lines.compactMap { pieces -> String? in
            var line = ""
            for piece in pieces {
                switch piece {
                case .text(let text): line += text
                case .placeholder(let name):
                    guard let text = value(name), !text.isEmpty else { return nil }
                    line += text
                }
            }
            return line
        }.joined(separator: "\n")
    }
}
