/// How names and vocabulary strings are spoken, as grammar words.
public enum SpokenForm {
    /// Abbreviations read out in full.
    static let expansions: [String: [String]] = [
        "jr": ["junior"], "sr": ["senior"], "dr": ["doctor"], "mr": ["mister"], "mrs": ["missus"],
        "st": ["saint"], "&": ["and"],
    ]

    /// The words a name is spoken as: camel case split ("MonkeyChat" →
    /// "monkey chat", "ListOMat" → "list o mat"), lower-cased, punctuation
    /// dropped and abbreviations expanded ("Bobo Jr." → "bobo junior").
    public static func words(of name: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        let chars = Array(name)
        for (i, c) in chars.enumerated() {
            if c.isLetter || c.isNumber || c == "'" {
                if c.isUppercase, !current.isEmpty {
                    let previous = chars[i - 1]
                    let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                    if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                        pieces.append(current)
                        current = ""
                    }
                }
                current.append(c)
            } else if c == "&" {
                if !current.isEmpty { pieces.append(current); current = "" }
                pieces.append("&")
            } else if !current.isEmpty {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces.flatMap { piece -> [String] in
            let lower = piece.lowercased()
            return expansions[lower] ?? [lower]
        }
    }
}

/// How free text is written: as it was typed or heard, but with a lone
/// lower-case "i" ("i", "i'm", "i'll", "i'd", "i've") written "I", as
/// every keyboard and dictation does ("i'm running late" → "I'm running
/// late").
public enum WrittenForm {
    public static func text(_ text: String) -> String {
        guard text.contains("i") else { return text }
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for (index, word) in words.enumerated() where word.hasPrefix("i") {
            let core = word.prefix { $0.isLetter || $0 == "'" || $0 == "’" }
            if ["i", "i'm", "i'll", "i'd", "i've", "i’m", "i’ll", "i’d", "i’ve"].contains(String(core)) {
                words[index] = "I" + word.dropFirst()
            }
        }
        return words.joined(separator: " ")
    }
}

extension WrittenForm {
    /// Words written as a name, each capitalised but for articles and short
    /// joining words after the first ("union station" → "Union Station",
    /// "the grand hotel" → "the Grand Hotel", "bank of america" → "Bank of
    /// America"): a place heard, or typed all in lower case.
    public static func name(_ text: String) -> String {
        let articles: Set<String> = ["the", "a", "an"]
        let joining: Set<String> = ["of", "and", "at", "on", "in", "to", "for", "by", "de", "la", "du"]
        return text.split(separator: " ").enumerated().map { index, word -> String in
            let lower = word.lowercased()
            if articles.contains(lower) || (index > 0 && joining.contains(lower)) { return String(word) }
            return word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }
}
