import HarkGrammar

/// A request that refers back to what a clause before it named: "Bobo the
/// Great just landed, message **him** on MonkeyChat that the car is out
/// front", "I started a packing list in MonkeyTodo, add sunscreen to
/// **it**", "I need to be at the airport by six, book me a Jungle Limo
/// **there**", "Bobo Jr. tried to ring me, show me **his** calls".
///
/// ``rewrites(of:after:names:)`` gives the clause with its word that
/// refers back replaced by each run of the clauses before it in turn, the
/// longest runs first and, of equal length, the nearest: the assistant
/// takes the first rewrite that reads as a request in which the run is a
/// value of one of its slots (a contact, a list, a workout, a place, an
/// amount; a title the app does not know only when said as a thing's
/// name), never what a message or a note says. So "tell Little Bobo to
/// call him" stays a message saying "call him".
enum ReferringBack {
    /// One way of reading the clause: its text with the words that
    /// refer back replaced, and the runs (tokenized) that replaced them.
    struct Rewrite {
        let text: String
        let referents: [[String]]
        /// Whether every run is said as a name for a thing: in quotes ("my
        /// 'call the plumber' task"), or after "a", "the", "my" … and
        /// before "list", "note" or "task" ("a packing list"). Only such a
        /// run may be a title the app does not know yet (a title's free
        /// text); any other run must be a value it knows.
        let namesAThing: Bool
        /// The words that refer back and were left as said: a reading
        /// must have them in what a message or a note says, or refer
        /// them back too ("ask him for it back").
        let left: [String]
        /// Whether every run looks like a value: a thing's name, or words
        /// with a capital ("Bobo the Great") or a number ("60 bucks").
        let looksLikeValues: Bool
    }

    /// How many rewrites that look like values are read as any request is
    /// (every way of saying it), after none read as said.
    static let mostReadInFull = 12

    /// How a run replaces a word that refers back.
    private enum Replacement {
        /// "him": the run itself.
        case run
        /// "his": the run's possessive.
        case possessive
        /// "there": "to" and the run.
        case destination

        func text(_ run: String) -> String {
            switch self {
            case .run: run
            case .possessive: run + "'s"
            case .destination: "to " + run
            }
        }
    }

    /// The words that refer back, and how a run replaces each.
    private static let referring: [String: Replacement] = [
        "him": .run, "her": .run, "them": .run, "it": .run, "his": .possessive, "their": .possessive,
        "there": .destination,
    ]

    /// Words a run that is a value neither opens nor ends with, and words
    /// that are never part of one.
    private static let notAtTheEdge: Set<String> = [
        "and", "or", "but", "so", "to", "for", "from", "in", "on", "at", "with", "of", "by", "into", "as", "is", "was", "are",
        "were", "be", "been", "has", "have", "had", "just", "i", "i'm", "i've", "i'd", "me", "you", "we", "he", "she", "they",
        "it", "this", "that", "there", "his", "her", "him", "them", "their", "its", "said", "says", "wants", "want", "need",
        "needs", "up", "out", "off", "down", "back", "all", "already", "earlier", "today", "yesterday", "again", "still",
    ]

    /// The longest run of the clauses before a referring word that is tried.
    static let longestRun = 5

    /// Words a value's run may hold beside the value itself: "my packing
    /// list" is the list "packing", "the Vine Swing" the workout.
    private static let around: Set<String> = [
        "a", "an", "the", "my", "your", "our", "this", "that", "list", "lists", "note", "notes", "task", "tasks", "workout",
        "account", "app", "called", "named", "titled",
    ]

    /// Whether `slot` holds what `referent` named: every word of the run
    /// but those around a value ("my", "list") is the slot's.
    /// Free text holds no more than the run: "my note called pancakes" is
    /// no title "pancakes to me".
    static func holds(_ slot: SlotValue, _ referent: [String]) -> Bool {
        // As said: "60 bucks" is the slot's "sixty bucks".
        let said = SpokenForm.saidWords(of: slot.raw.lowercased())
        let named = SpokenForm.saidWords(of: referent.filter { !around.contains($0) }.joined(separator: " "))
        guard !named.isEmpty, named.allSatisfy(Set(said).contains) else { return false }
        return !slot.isFreeText || Set(said).isSubset(of: SpokenForm.saidWords(of: referent.joined(separator: " ")))
    }

    /// A run of the words before the clause.
    private struct Run {
        let text: String
        let words: [String]
        let namesAThing: Bool
        let quoted: Bool
        /// Where the run is in the words before the clause.
        let span: Range<Int>

        /// A thing's name, words with a capital ("Bobo the Great") or a
        /// number ("60 bucks"), or a few after "the" or "my" ("the banana stash").
        var looksLikeAValue: Bool {
            namesAThing || text.contains { $0.isUppercase || $0.isNumber } || words.contains(where: SpokenValueType.isNumberWord)
                || (["the", "my"].contains(words[0]) && words.count <= 4 && !words.dropFirst().contains(where: notAtTheEdge.contains))
        }
    }

    /// Whether tokens name a thing: "a packing list", "my meeting ideas
    /// note", "a note called pancakes".
    private static func isAThingsName(_ tokens: [String]) -> Bool {
        guard tokens.count > 2, determiners.contains(tokens[0]) else { return false }
        return containers.contains(tokens.last!) || (containers.contains(tokens[1]) && ["called", "named", "titled"].contains(tokens[2]))
    }

    private static let quotes: Set<Character> = ["'", "\"", "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}"]
    private static let determiners: Set<String> = ["a", "an", "the", "my", "our", "your", "that", "this"]
    private static let containers: Set<String> = ["list", "note", "task", "reminder"]

    /// Particles said after a referring word that go before a value said
    /// in its place: "open it up" → "open up the banana stash", "show it
    /// to me" → "show me the pancakes note".
    private static let particles: [[String]: [String]] = [["up"]: ["up"], ["back"]: ["back"], ["out"]: ["out"], ["to", "me"]: ["me"]]

    /// - Parameter names: The installed apps' names as said: no run holds
    ///   any word of one where it is said ("a camping list in ListOMat").
    static func rewrites(of clause: String, after context: String, names: [[String]] = []) -> [Rewrite] {
        let words = TypedWord.split(clause)
        let before = TypedWord.split(context)
        let referringAt = words.indices.filter { referring[words[$0].word] != nil }
        guard !before.isEmpty, !referringAt.isEmpty else { return [] }
        var naming = Set<Int>()
        let said = before.map(\.word)
        for name in names where !name.isEmpty && name.count <= said.count {
            for start in 0...(said.count - name.count) where Array(said[start..<(start + name.count)]) == name {
                naming.formUnion(start..<(start + name.count))
            }
        }
        // Runs of the clauses before, longest first, then nearest first.
        var runs: [Run] = []
        for length in stride(from: min(longestRun, before.count), through: 1, by: -1) {
            for start in stride(from: before.count - length, through: 0, by: -1) {
                let run = before[start..<(start + length)]
                // Not across a clause's end, and not opening or ending in a
                // word that is no part of a value ("and", "just", "said").
                guard !run.dropLast().contains(where: \.endsClause), !naming.contains(where: (start..<(start + length)).contains),
                      !notAtTheEdge.contains(run.first!.word), !notAtTheEdge.contains(run.last!.word) else { continue }
                let written = context[run.first!.range.lowerBound..<run.last!.range.upperBound]
                var trimmed = written.trimmingCharacters(in: .punctuationCharacters.subtracting(["."]).union(.whitespaces))
                    .replacingOccurrences(of: "'s", with: "", options: [.anchored, .backwards])
                let tokens = TextParser.tokenize(trimmed)
                guard !tokens.isEmpty else { continue }
                let quoted = written.first.map(quotes.contains) == true
                    && written.reversed().drop { !$0.isLetter && !$0.isNumber && !quotes.contains($0) }.first.map(quotes.contains) == true
                let thing = quoted || isAThingsName(tokens)
                // A thing named anew is the one meant when referred back to:
                // "a packing list" is "my packing list".
                if ["a", "an"].contains(tokens[0]), let space = trimmed.firstIndex(of: " ") {
                    trimmed = "my" + trimmed[space...]
                }
                runs.append(Run(text: trimmed, words: tokens, namesAThing: thing, quoted: quoted, span: start..<(start + length)))
            }
        }
        // Not a part of a thing's name that leaves some of its name out:
        // "ideas note" of "my meeting ideas note".
        let things = runs.filter(\.namesAThing)
        runs.removeAll { run in
            things.contains { thing in
                thing.span != run.span && thing.span.contains(run.span.lowerBound) && thing.span.contains(run.span.upperBound - 1)
                    && !Set(thing.words.filter { !around.contains($0) }).isSubset(of: run.words)
            }
        }
        // Of things, the quoted first.
        runs = runs.filter(\.quoted) + runs.filter { !$0.quoted }
        var result: [Rewrite] = []
        // One word that refers back, then two ("ask him for it back").
        for run in runs {
            for index in referringAt {
                result += replacing([(index, run)], in: clause, words: words)
            }
        }
        // (Two at once only with runs that look like values.)
        let values = runs.filter(\.looksLikeAValue)
        if referringAt.count >= 2 {
            for (first, second) in zip(referringAt, referringAt.dropFirst()) {
                for one in values {
                    for other in values where !other.span.overlaps(one.span) && other.words != one.words {
                        result += replacing([(first, one), (second, other)], in: clause, words: words)
                    }
                }
            }
        }
        return Array(result.prefix(mostRewrites))
    }

    /// The most rewrites of one clause that are tried: each is read, so
    /// this bounds the time a long text with many words referring back
    /// takes (about a millisecond each).
    static let mostRewrites = 400

    /// The clause with each referring word at `replaced` replaced by its run:
    /// as said, and with a particle after the last moved before the run.
    private static func replacing(_ replaced: [(index: Int, run: Run)], in clause: String,
                                  words: [TypedWord]) -> [Rewrite] {
        var text = clause
        // From the end, so earlier ranges stay valid.
        for (index, run) in replaced.sorted(by: { $0.index > $1.index }) {
            let word = words[index]
            // The punctuation after the referring word stays.
            text.replaceSubrange(word.range, with: referring[word.word]!.text(run.text) + TypedWord.trailingMarks(of: clause[word.range]))
        }
        let referents = replaced.map(\.run.words)
        let thing = replaced.allSatisfy(\.run.namesAThing)
        let left = words.indices.filter { referring[words[$0].word] != nil && !replaced.map(\.index).contains($0) }.map { words[$0].word }
        let valuey = replaced.allSatisfy(\.run.looksLikeAValue)
        let asSaid = Rewrite(text: text, referents: referents, namesAThing: thing, left: left, looksLikeValues: valuey)
        if replaced.count == 1, let (index, run) = replaced.first, !words[index].endsClause,
           let particle = particles.first(where: { words[(index + 1)...].map(\.word).starts(with: $0.key) }) {
            let after = words[index + particle.key.count]
            guard !words[index..<(index + particle.key.count)].contains(where: \.endsClause) else { return [asSaid] }
            var moved = clause
            moved.replaceSubrange(words[index].range.lowerBound..<after.range.upperBound,
                                  with: (particle.value + [referring[words[index].word]!.text(run.text)]).joined(separator: " ")
                                    + TypedWord.trailingMarks(of: clause[after.range]))
            // The particle moved first: "show it to me" reads as "show me …".
            return [Rewrite(text: moved, referents: referents, namesAThing: thing, left: left, looksLikeValues: valuey), asSaid]
        }
        return [asSaid]
    }
}
