/// Reads typed numbers ("25", "$3.50", "8:30pm", "3rd") the way they are
/// spoken, so that typed text reaches the same built-in sub-grammars as
/// speech does.
enum TypedNumbers {
    /// One unit of typed text: its readings, and the typed words it came from.
    struct TypedUnit {
        var readings: [[String]]
        /// Where in the text (a run of non-space characters, or two for
        /// "8 pm"); units split from one run ("MonkeyChat") share it.
        var source: Range<String.Index>
    }

    /// The sentence as units, each with its readings — a word has one, a
    /// typed number two: as typed (for free text) and as spoken words — and
    /// where in `text` it was typed.
    static func units(of text: String) -> [TypedUnit] {
        let pieces = text.split(whereSeparator: { $0.isWhitespace })
        let chunks = pieces.map(String.init)
        var units: [TypedUnit] = []
        func append(_ readings: [[String]], _ first: Int, _ last: Int) {
            units.append(TypedUnit(readings: readings, source: pieces[first].startIndex..<pieces[last].endIndex))
        }
        var i = 0
        while i < chunks.count {
            let chunk = chunks[i]
            let core = trimPunctuation(chunk)
            // A separate "am"/"pm" after a number belongs to it.
            var meridiem: String?
            if i + 1 < chunks.count, let m = meridiemWord(trimPunctuation(chunks[i + 1])), startsWithDigit(core) {
                meridiem = m
            }
            if let spoken = spokenWords(of: core, meridiem: meridiem) {
                let typed = meridiem == nil ? [core.lowercased()] : [core.lowercased(), trimPunctuation(chunks[i + 1]).lowercased()]
                append([typed, spoken], i, meridiem == nil ? i : i + 1)
                i += meridiem == nil ? 1 : 2
                continue
            }
            // A number run into its unit: "5k", "10km", "30min" read as "5 k".
            if let split = core.firstIndex(where: { !($0.isASCII && $0.isNumber) }), split > core.startIndex,
               core[split...].allSatisfy({ $0.isASCII && $0.isLetter }),
               let number = spokenWords(of: String(core[..<split]), meridiem: nil) {
                let unit = SpokenForm.words(of: String(core[split...]))
                append([[core.lowercased()], number + unit, [String(core[..<split])] + unit], i, i)
                i += 1
                continue
            }
            for word in SpokenForm.words(of: chunk) {
                // Chat shorthand: as typed (for free text), or as the words it stands for.
                if let full = shorthand[word] {
                    append([[word], full], i, i)
                    continue
                }
                // "eightish": the word, or the number and "ish" ("eight-ish" is two words already).
                if word.hasSuffix("ish"), word.count > 3, SpokenValueType.isNumberWord(String(word.dropLast(3))) {
                    append([[word], [String(word.dropLast(3)), "ish"]], i, i)
                    continue
                }
                // "Bobo's": the word, or the name and the possessive the grammar spells apart ("{sender}'s").
                if word.hasSuffix("'s"), word.count > 2 {
                    append([[word], [String(word.dropLast(2)), "'s"]], i, i)
                } else {
                    append([[word]], i, i)
                }
            }
            // A colon after a word, or a dash on its own, setting what
            // follows apart ("ListOMat grocery: oat milk, tofu", "new list
            // camping - tent, stove"): nothing, or the word a grammar's
            // typed form reads there ("(typed: colon)").
            if let separator = separatorWord(chunk) {
                append([[], [separator]], i, i)
            }
            i += 1
        }
        return units
    }

    /// The word for a typed separator: "colon" for a run ending in ":"
    /// ("grocery:", ":"), "dash" for a lone "-", "–", "—" or "--"; nil
    /// otherwise ("8:30" and "Weet-Bix" are none).
    static func separatorWord(_ chunk: String) -> String? {
        if chunk.hasSuffix(":") { return "colon" }
        if !chunk.isEmpty, chunk.allSatisfy({ "-–—".contains($0) }), chunk.count <= 2 { return "dash" }
        return nil
    }

    /// What people type for words in a chat box ("msg bobo", "whats my
    /// balance", "remind me tmrw"), read both as typed and as the words.
    /// Only spellings that are no other word a request would use: not
    /// "its", "well", "were", "wed" or "id".
    static let shorthand: [String: [String]] = [
        "msg": ["message"], "msgs": ["messages"], "txt": ["text"], "pls": ["please"], "plz": ["please"],
        "tmrw": ["tomorrow"], "tmr": ["tomorrow"], "tmw": ["tomorrow"], "tomoro": ["tomorrow"], "tonite": ["tonight"],
        "u": ["you"], "ur": ["your"], "r": ["are"], "thx": ["thanks"], "nvm": ["never", "mind"],
        "whats": ["what's"], "thats": ["that's"], "wheres": ["where's"], "hows": ["how's"], "whos": ["who's"],
        "im": ["i'm"], "ive": ["i've"], "dont": ["don't"], "doesnt": ["doesn't"], "didnt": ["didn't"],
        "cant": ["can't"], "isnt": ["isn't"], "arent": ["aren't"], "youre": ["you're"], "theres": ["there's"],
        "lemme": ["let", "me"], "gimme": ["give", "me"], "wanna": ["want", "to"], "gonna": ["going", "to"],
        "what've": ["what", "have"],
    ]

    static func startsWithDigit(_ s: String) -> Bool { s.first?.isASCII == true && s.first!.isNumber }

    static func trimPunctuation(_ s: String) -> String {
        let keep: (Character) -> Bool = { $0.isLetter || $0.isNumber || "$€£".contains($0) }
        var chars = Substring(s)
        while let c = chars.first, !keep(c) { chars = chars.dropFirst() }
        while let c = chars.last, !keep(c) { chars = chars.dropLast() }
        return String(chars)
    }

    static func meridiemWord(_ s: String) -> String? {
        switch s.lowercased().filter({ $0 != "." }) {
        case "am": return "am"
        case "pm": return "pm"
        default: return nil
        }
    }

    /// An unsigned integer with optional thousands commas: "1,200" → 1200.
    static func integer(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.first != ",", s.last != ",", s.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "," }) else { return nil }
        if s.contains(",") {
            let groups = s.split(separator: ",", omittingEmptySubsequences: false)
            guard groups.dropFirst().allSatisfy({ $0.count == 3 }), groups[0].count <= 3 else { return nil }
        }
        return Int(s.filter { $0 != "," })
    }

    /// The spoken words of a typed number, nil when `core` is not one.
    static func spokenWords(of core: String, meridiem separate: String?) -> [String]? {
        guard let first = core.first else { return nil }
        let lower = core.lowercased()
        // Money: $25, $3.50, €5, £0.80.
        if "$€£".contains(first) {
            let (major, minor): (String, String) = first == "$" ? ("dollars", "cents") : first == "€" ? ("euros", "cents") : ("pounds", "pence")
            let amount = lower.dropFirst()
            let parts = amount.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, let whole = integer(parts[0]) else { return nil }
            var cents = 0
            if parts.count == 2 {
                guard parts[1].count == 2, let c = Int(parts[1]) else { return nil }
                cents = c
            }
            if whole == 0, cents > 0 { return SpokenValueType.words(for: cents).map { $0 + [minor] } }
            guard let words = SpokenValueType.words(for: whole) else { return nil }
            return words + [major] + (cents > 0 ? SpokenValueType.words(for: cents)! : [])
        }
        guard startsWithDigit(core) else { return nil }
        // Ordinals: 1st, 22nd, 3rd, 4th.
        for suffix in ["st", "nd", "rd", "th"] where lower.hasSuffix(suffix) {
            guard let n = Int(lower.dropLast(2)) else { return nil }
            return SpokenValueType.ordinalWords(for: n)
        }
        // Times: 8:30, 8:30pm, 8am, 14:05.
        var body = Substring(lower)
        var meridiem = separate
        for suffix in ["am", "pm"] where body.hasSuffix(suffix) {
            meridiem = suffix
            body = body.dropLast(2)
        }
        if body.contains(":") || meridiem != nil {
            let parts = body.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let hour = Int(parts[0]), (0...23).contains(hour) else { return nil }
            var minute = 0
            if parts.count == 2 {
                guard parts[1].count == 2, let m = Int(parts[1]), (0...59).contains(m) else { return nil }
                minute = m
            }
            var h12 = hour
            if hour > 12 {
                guard meridiem != "am" else { return nil }
                h12 = hour - 12
                meridiem = "pm"
            } else if hour == 0 {
                guard meridiem == nil else { return nil }
                h12 = 12
                meridiem = "am"
            }
            var words = SpokenValueType.words(for: h12)!
            if minute == 0 {
                if parts.count == 2, meridiem == nil { words.append("o'clock") }
            } else if minute < 10 {
                words += ["oh"] + SpokenValueType.words(for: minute)!
            } else {
                words += SpokenValueType.words(for: minute)!
            }
            if let meridiem { words += meridiem == "am" ? ["a", "m"] : ["p", "m"] }
            return words
        }
        // Plain numbers: 25, 1,200, 2.5.
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = integer(parts[0]), var words = SpokenValueType.words(for: whole) else { return nil }
        if parts.count == 2 {
            guard (1...3).contains(parts[1].count), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            words.append("point")
            for digit in parts[1] {
                let d = Int(String(digit))!
                words.append(d == 0 ? "zero" : BuiltinGrammar.units[d - 1])
            }
        }
        return words
    }
}

extension SpokenForm {
    /// Typed text as it is said: numbers, amounts and times as words ("$45"
    /// → "forty five dollars", "9am" → "nine a m") and chat shorthand in
    /// full ("tmrw" → "tomorrow"). For comparing a value with a label
    /// written either way.
    public static func saidWords(of text: String) -> [String] {
        TypedNumbers.units(of: text).flatMap { $0.readings.last ?? [] }
    }
}
