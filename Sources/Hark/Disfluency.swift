import HarkGrammar

/// Typed text as a person said it, hesitations and false starts in it,
/// mended to what they meant before it is read: "uh add, um, oat milk to
/// the, the shopping list", "end my — end the Vine Swing", "get me a ride
/// to the — to the airport". Typed only: a recognizer hears the grammar's
/// words, not "uh" or a dash.
enum Disfluency {
    /// A word said once more after a hesitation, a comma or a dash, or a
    /// small word said twice ("for for the pizza"), is said once; a start
    /// broken off at a dash and begun again from one of its words ("end
    /// my — end the Vine Swing") keeps the new start; hesitations ("um",
    /// "uh") go. Other words and their punctuation are kept as written.
    /// Nil when nothing is mended; else the text, the words dropped as
    /// said before (not the hesitations), which a reading must not hold in
    /// what a message or a note says (``Assistant/requestParses(of:)``'s
    /// guard for ``Assistant/restartsDropped(from:unpaused:)``), and of
    /// those the single words said twice in a row with no hesitation, dash
    /// or ellipsis between ("that, that was fun"), which may be meant
    /// twice: a carrier, then a message that opens with the same word.
    static func mended(_ text: String) -> (text: String, dropped: Set<String>, echoed: Set<String>)? {
        // Hesitations and dashes between words become marks on the word before.
        var words: [Token] = []
        for token in Token.split(text) {
            if token.isHesitation || token.isDash {
                if var last = words.popLast() {
                    last.breakAfter = true
                    last.restartAfter = true
                    last.dashAfter = last.dashAfter || token.isDash
                    // A dash between words ends a clause, as a comma does:
                    // "pay Bobo twenty — no, twenty five dollars".
                    if token.isDash, last.written.last?.isPunctuation != true { last.written += "," }
                    words.append(last)
                }
                continue
            }
            words.append(token)
        }
        guard !words.isEmpty else { return nil }
        var dropped: Set<String> = [], echoed: Set<String> = []
        let mended = withoutRepeats(restartedAtDashes(words, dropping: &dropped), dropping: &dropped, echoing: &echoed)
            .map(\.written).joined(separator: " ")
        return mended == text.split(whereSeparator: \.isWhitespace).joined(separator: " ") ? nil : (mended, dropped, echoed)
    }

    /// What follows a dash that a short broken-off start comes before: "um
    /// did I miss — show my missed calls on MonkeyChat" → "show my missed
    /// calls on MonkeyChat". For text read no other way.
    static func restart(_ text: String) -> String? {
        let tokens = Token.split(text)
        guard let dash = tokens.lastIndex(where: \.isDash), dash > 0, dash <= 6, dash < tokens.count - 2 else { return nil }
        return tokens[(dash + 1)...].map(\.written).joined(separator: " ")
    }

    /// After a dash, a start begun again from a word said in the five before
    /// it: "end my — end the Vine Swing" → "end the Vine Swing".
    private static func restartedAtDashes(_ words: [Token], dropping dropped: inout Set<String>) -> [Token] {
        var words = words
        var index = 0
        while index < words.count - 1 {
            defer { index += 1 }
            guard words[index].dashAfter else { continue }
            let next = words[index + 1].word
            guard let from = stride(from: index, through: max(0, index - 4), by: -1).first(where: { words[$0].word == next })
            else { continue }
            dropped.formUnion(words[from...index].map(\.word))
            words.removeSubrange(from...index)
            index = from - 1
        }
        return words
    }

    /// Words said twice in a row, the first copy dropped: one to three
    /// words again after a break ("to the — to the airport", "call uh
    /// call Bobo"), or a small word stuttered ("for for the pizza"). A
    /// single word said again with no restart between ("that, that") is
    /// also `echoed`.
    private static func withoutRepeats(_ words: [Token], dropping dropped: inout Set<String>, echoing echoed: inout Set<String>) -> [Token] {
        var words = words
        var index = 0
        while index < words.count {
            var removed = false
            for length in stride(from: 3, through: 1, by: -1) where index + 2 * length <= words.count {
                let first = words[index..<index + length].map(\.word), second = words[index + length..<index + 2 * length].map(\.word)
                guard first == second else { continue }
                let marked = words[index + length - 1].breakAfter
                guard length > 1 || !emphaticWords.contains(first[0]),
                      marked || (length == 1 && stutteredWords.contains(first[0])) else { continue }
                dropped.formUnion(first)
                if length == 1, !words[index].restartAfter { echoed.insert(first[0]) }
                words.removeSubrange(index..<index + length)
                removed = true
                break
            }
            if !removed { index += 1 }
        }
        return words
    }

    /// Small words a hurried speaker says twice without meaning it twice.
    static let stutteredWords: Set<String> = ["the", "a", "an", "to", "for", "on", "in", "my", "of", "and", "with", "from", "at", "i", "me", "is"]

    /// Words said again to mean them more ("no, no, not the red one",
    /// "very, very late"), kept.
    static let emphaticWords: Set<String> = ["no", "yes", "very", "really", "so", "please", "bye", "ha", "go", "now", "hurry", "never"]

    /// A written word: as written, and lowercased without punctuation.
    struct Token {
        var written: String
        var word: String
        var breakAfter: Bool
        var dashAfter = false
        /// A hesitation, a dash or an ellipsis follows: what comes after
        /// starts again.
        var restartAfter = false
        var isHesitation: Bool { TextParser.hesitations.contains(word) }
        var isDash: Bool { word.isEmpty && written.contains { "—–-".contains($0) } }

        static func split(_ text: String) -> [Token] {
            text.split(whereSeparator: \.isWhitespace).map { written in
                let word = TypedWord.word(written)
                let marks = TypedWord.trailingMarks(of: written)
                return Token(written: String(written), word: word, breakAfter: !word.isEmpty && marks.contains { ",;—–".contains($0) },
                             dashAfter: !word.isEmpty && marks.contains { "—–".contains($0) },
                             restartAfter: !word.isEmpty && (marks.contains { "-—–…".contains($0) } || marks.contains("..")))
            }
        }
    }
}
