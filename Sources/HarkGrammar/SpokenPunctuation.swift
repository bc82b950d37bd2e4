/// Punctuation said aloud in dictated words, written as marks, as a
/// dictation keyboard writes it: "I'm running late comma save me a seat
/// period" is "I'm running late, save me a seat."; "question mark",
/// "exclamation point", "colon", "new line", and "quote … unquote" around
/// words ("tell Bobo quote I'll be there unquote": the message is what was
/// quoted). A word that is also an everyday noun is a mark only where it
/// cannot be the noun: "a period of two weeks", "make a dash for it" and
/// "get a quote" stay as they are.
public enum SpokenPunctuation {
    /// `value` with its spoken punctuation written; `value` itself when it
    /// says none, or nothing else. A mark said first (a colon after "make
    /// a note") is dropped.
    public static func written(_ value: String) -> String {
        let tokens = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let bare = tokens.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        guard bare.contains(where: markWords.contains) else { return value }
        var out: [String] = []
        var index = 0
        // Where an opened quotation's first word is in `out`.
        var quoteStart: Int?
        func attach(_ mark: String) {
            guard !out.isEmpty else { return }  // a mark said first is dropped
            out[out.count - 1] += mark
        }
        while index < tokens.count {
            let word = bare[index]
            let next = index + 1 < bare.count ? bare[index + 1] : nil
            let previous = index > 0 ? bare[index - 1] : nil
            let nounBefore = previous.map(determiners.contains) ?? false
            switch word {
            case "comma" where !nounBefore:
                attach(",")
            case "semicolon" where !nounBefore:
                attach(";")
            case "colon" where !nounBefore:
                attach(":")
            case "period" where !nounBefore && next != "of", "stop" where previous == "full" && !out.isEmpty:
                if word == "stop" { out.removeLast() }
                attach(".")
            case "full" where next == "stop" && !nounBefore:
                out.append(tokens[index])  // "full" of "full stop", taken back at "stop"
            case "question" where next == "mark", "exclamation" where next == "point" || next == "mark":
                attach(word == "question" ? "?" : "!")
                index += 1
            case "dash" where !nounBefore && previous != nil && next != nil && next != "for":
                out.append("-")
            case "new" where next == "line" || next == "paragraph":
                if !out.isEmpty { out[out.count - 1] += next == "line" ? "\n" : "\n\n" }
                index += 1
            case "quote" where quoteStart == nil && !nounBefore && closesQuote(bare, after: index):
                quoteStart = out.count
            // "unquote" always; "end quote" and "close quote" inside a quotation.
            case _ where word == "unquote" || (["end", "close"].contains(word) && next == "quote" && quoteStart != nil):
                if word != "unquote" { index += 1 }
                if let start = quoteStart, start < out.count {
                    // Quoted words inside others are marked as a quotation;
                    // quoted words that are the whole value are the value.
                    let wholeValue = start == 0 && !bare[(index + 1)...].contains { !markWords.contains($0) }
                    if !wholeValue {
                        out[start] = "\u{201C}" + out[start]
                        out[out.count - 1] += "\u{201D}"
                    }
                }
                quoteStart = nil
            default:
                out.append(tokens[index])
            }
            index += 1
        }
        // Marks stick to the word before them, line breaks start the next.
        // A value that is only marks' words ("saying comma") is those words.
        let written = out.joined(separator: " ").replacingOccurrences(of: "\n ", with: "\n")
        return written.isEmpty ? value : written
    }

    /// Whether a quotation opened at `index` is closed later ("unquote",
    /// "end quote", "close quote").
    private static func closesQuote(_ words: [String], after index: Int) -> Bool {
        let rest = words[(index + 1)...]
        return rest.contains("unquote") || zip(rest, rest.dropFirst()).contains { ($0 == "end" || $0 == "close") && $1 == "quote" }
    }

    /// Words that say a mark, alone or as the first of two.
    private static let markWords: Set<String> = [
        "comma", "semicolon", "colon", "period", "full", "question", "exclamation", "dash", "new", "quote", "unquote",
    ]

    /// Words before a mark's word that make it a noun: "a period", "the colon".
    private static let determiners: Set<String> = [
        "a", "an", "the", "this", "that", "each", "every", "my", "your", "his", "her", "our", "their", "trial", "grace",
        "waiting", "cooling", "free",
    ]
}
