import Foundation
import HarkCatalog
import HarkGrammar

// MARK: - Reading text as a request

/// How the assistant reads text — typed, or the recognizer's words — as a
/// request: the grammars' readings of the whole text first, then the
/// request inside words around it (courtesy, remarks, reasons, a clause
/// beside it, a clause that refers back), never a request the person took
/// back, negated, asked about or told of as done.
extension Assistant {
    /// Typed `text` with an installed app's name written as one word in any
    /// case ("monkeychat", "TASKSNOTES", "list-o-mat") in the words the
    /// grammar has for it ("monkey chat"), also with one typo in it
    /// ("MonkyChat", "monkeyride" for "MonkeyRde"); "MonkeyChat" in camel
    /// case is split by the tokenizer.
    func splittingAppNames(_ text: String) -> String {
        let spaced = appNames.oneWord
        guard !spaced.isEmpty else { return text }
        let tokens = text.split(separator: " ", omittingEmptySubsequences: false)
        return tokens.indices.map { index -> String in
            let token = tokens[index]
            let letters = String(token.lowercased().filter { $0.isLetter || $0.isNumber })
            // (Or with one typo, in a name of eight letters or more: "MonkyChat", "TaskNotes".)
            guard let words = spaced[letters] ?? appNames.name(typedWithATypo: letters) else { return String(token) }
            // Punctuation around the name stays ("monkeychat," → "monkey chat,"),
            // and its capital after a full stop: "…. MonkeyChat Bobo I'm
            // late" opens a sentence (``clauseBreaks(in:)``). Elsewhere in
            // lower case, as free text reads it ("remind me to open monkey chat").
            let leading = token.prefix { !$0.isLetter && !$0.isNumber }
            let capital = index > 0 && tokens[index - 1].last == "." && token.first { $0.isLetter }?.isUppercase == true
            return String(leading) + (capital ? words.prefix(1).uppercased() + words.dropFirst() : words) + TypedWord.trailingMarks(of: token)
        }.joined(separator: " ")
    }

    /// Typed `text` as a request: ``typedForReading(_:)``, and when that
    /// reads as none, or with a value the app may not know (free text), with
    /// its typos mended where that reads (a word the grammars lack one typo
    /// from one word they have: "remnd me", "4 stras", "to the airprot",
    /// "Bobbo"), never a word of a message, a note or a title, and, where it
    /// read before, as the same request with fewer such values.
    func typedRequest(_ text: String) -> String {
        var typed = typedForReading(text)
        var asTyped = requestParses(of: typed).first
        func unknown(_ parse: Parse) -> Int { parse.slots.filter(\.isFreeText).count }
        // Said with hesitations and false starts: read as meant
        // (``Disfluency``), unless that reads as another request, or as
        // this one with fewer values, or as many and more of it left to
        // free text, or what a message or a note says holds a word dropped
        // as said twice ("I'm at the, the station" says so).
        if let (mendedText, dropped, echoed) = Disfluency.mended(text), case let mended = typedForReading(mendedText),
           let parse = requestParses(of: mended).first, !says(any: dropped, in: parse) {
            func freeWords(_ parse: Parse) -> Int { parse.slots.filter(\.isFreeText).reduce(0) { $0 + TextParser.tokenize($1.raw).count } }
            func named(_ parse: Parse) -> Int { Set(parse.slots.map(\.name)).count }
            // Nor where a word said twice in a row (``Disfluency``'s
            // `echoed`) opens what a message or a note says (`content`) as
            // written, and mended it is taken for the carrier before it:
            // "tell Bobo that, that was fun" says "that was fun", not "was
            // fun" (with a hesitation between, "that, uh, that I'll be
            // late", or a dash, "remind me to — to call", the carrier was
            // said again).
            func carrierTook(_ old: Parse) -> Bool {
                parse.slots.contains { slot in
                    guard slot.isFreeText, slot.name == "content",
                          let before = old.slots.first(where: { $0.name == slot.name && $0.isFreeText }) else { return false }
                    let said = TextParser.tokenize(before.raw), mended = TextParser.tokenize(slot.raw)
                    return said.count == mended.count + 1 && echoed.contains(said[0]) && Array(said.dropFirst()) == mended
                }
            }
            let asGood = asTyped.map { old in
                parse.app == old.app && parse.intent == old.intent
                    && (named(parse) > named(old) || named(parse) == named(old) && freeWords(parse) <= freeWords(old))
                    && !carrierTook(old)
            } ?? true
            if asGood { typed = mended; asTyped = parse }
        }
        if asTyped == nil, let restart = Disfluency.restart(text).map(typedForReading), let parse = requestParses(of: restart).first {
            typed = restart; asTyped = parse
        }
        if let asTyped, unknown(asTyped) == 0 { return typed }
        // (As for a request wrapped in words: a long text is no one request to mend.)
        let written = typed.split(separator: " ")
        guard written.count <= 40 else { return typed }
        // Only where some word is none the grammars have.
        guard written.contains(where: { word in
            let letters = word.lowercased().filter(\.isLetter)
            return letters.count >= 4 && !mainParser.knows(letters)
        }) else { return typed }
        let index = typoIndex ?? Typos.Index(mainParser.words, shortest: 4)
        typoIndex = index
        var kept: Set<String> = []
        for _ in 0..<2 {
            var mended: [String: String] = [:]
            let words = written.map { word -> String in
                let letters = word.lowercased().filter(\.isLetter)
                guard letters.count >= 4, letters.count == word.filter(\.isLetter).count, !kept.contains(letters),
                      !mainParser.knows(letters), let meant = index.meant(by: letters)
                else { return String(word) }
                mended[meant] = letters
                let leading = word.prefix { !$0.isLetter }
                return String(leading) + meant + TypedWord.trailingMarks(of: word)
            }
            guard !mended.isEmpty else { return typed }
            let text = words.joined(separator: " ")
            guard let best = requestParses(of: text).first else { return typed }
            // A mended word read as free text was a word of it, as typed.
            let free = Set(best.slots.filter(\.isFreeText).flatMap { TextParser.tokenize($0.raw) })
            let misread = mended.filter { free.contains($0.key) }
            if misread.isEmpty {
                guard let asTyped else { return text }
                return best.app == asTyped.app && best.intent == asTyped.intent && unknown(best) < unknown(asTyped) ? text : typed
            }
            kept.formUnion(misread.values)
        }
        return typed
    }

    /// Typed `text` in the words the grammars read: apps' names written as
    /// one word split (``splittingAppNames(_:)``), an app named by what it
    /// does named (``AppNames/namingVaguelyNamedApps(in:)``).
    func typedForReading(_ text: String) -> String {
        appNames.namingVaguelyNamedApps(in: splittingAppNames(text))
    }

    /// The readings of `text` as a request, best first, without those whose
    /// free text holds the name of the app addressed: free text takes any
    /// words, so "tell Bobo on MonkeyChat" could be a message saying "on
    /// monkey chat"; the app's name is the person addressing the app, never
    /// the message, the note or the list's title. When the reading names no
    /// app elsewhere, any installed app's name in its free text is taken as
    /// the one addressed; another app named in free text that goes to a
    /// named app stays ("remind me to open MonkeyChat in TasksNotes").
    func requestParses(of text: String) -> [Parse] {
        if let known = readingMemo.requests[text] { return known }
        readingMemo.depth += 1
        defer {
            readingMemo.depth -= 1
            if readingMemo.depth == 0 { readingMemo = ReadingMemo() }
        }
        let parses = requestParsesUnremembered(of: text)
        readingMemo.requests[text] = parses
        return parses
    }

    private func requestParsesUnremembered(of text: String) -> [Parse] {
        // "Alexa, add eggs to my shopping list" is said to another
        // assistant; "Alexa, ask MonkeyChat to ..." is said to an app here,
        // out of habit.
        let words = TextParser.tokenize(text)
        if TextParser.otherAssistantsWakePhrases.contains(where: { words.starts(with: $0) }),
           namedApps(in: words).isEmpty { return [] }
        // "…, thanks Hark", "… Over and out.": the request without the
        // sign-off said to Hark (``withoutSignOff(_:)``).
        if let plain = Self.withoutSignOff(text) {
            let parses = requestParses(of: plain)
            if !parses.isEmpty { return parses }
        }
        // "I'd be ever so grateful if you could …", "If it's no trouble,
        // please …", "I'm terribly sorry to be a bother, but would you …":
        // the request without the courtesy before it, when that reads.
        if let plain = Self.withoutCourtesyOpening(text) {
            let parses = requestParses(of: plain)
            if !parses.isEmpty { return parses }
        }
        // "… at your earliest convenience", "…, if that is at all possible":
        // the request without the courtesy after it, when that reads. Not
        // where the request dictates words (a message, a note): those are
        // said as they are ("tell Bobo I'll come if that's at all possible").
        if let plain = Self.withoutCourtesyEnding(text) {
            let parses = requestParses(of: plain)
            // Asked with a hedge at both ends, the ending after a comma, it
            // is said to Hark even after a message's or a note's words:
            // "Could you maybe send a message to Bobo on MonkeyChat saying
            // dinner's at seven, if that's okay?"
            if !parses.isEmpty, Self.hedgedAtBothEnds(text) { return parses }
            // (Nor a message thanks end: "text Bobo on MonkeyChat thanks" says "thanks".)
            if let best = parses.first, !best.slots.contains(where: { $0.name == "content" }),
               !(textSlots[IntentKey(app: best.app, intent: best.intent)] ?? []).contains("content") || Self.endsWithCourtesy(text) {
                return parses
            }
        }
        // "Pay Bobo Jr., not Bobo, $30", "Not the grocery list, the banana
        // stash: add …", "indoors rather than outdoors": read without the
        // alternative set aside (``Contrast``).
        if let contrast = Contrast(text) {
            let parses = requestParses(of: contrast.text)
            if let best = parses.first, !dictatesAcross(contrast, in: best) { return parses }
            // "Pay Bobo 20 dollars on Venmo, not MonkeyPay": the one app named is not the one meant.
            if !namedApps(in: contrast.setAside).isEmpty, namedApps(in: TextParser.tokenize(contrast.text)).isEmpty { return [] }
        }
        // "The banana stash: add peanut butter to it": a thing named before
        // the request, which refers back to it, read as a clause before it
        // (``ReferringBack``). Not where the words that refer back are what
        // a message or a task says ("Bobo: grab it on the way").
        if let colon = text.range(of: ":"), (1...5).contains(TextParser.tokenize(String(text[..<colon.lowerBound])).count),
           TextParser.tokenize(String(text[colon.upperBound...])).contains(where: Self.referringWords.contains) {
            let parses = requestParses(of: text.replacingCharacters(in: colon, with: ","))
            if let best = parses.first, !best.slots.contains(where: { $0.isFreeText && TextParser.tokenize($0.raw).contains(where: Self.referringWords.contains) }) {
                return parses
            }
        }
        let parses = requestParsesAsWritten(of: text)
        if let best = parses.first, let plain = withoutLearnersVerb(best, in: text, words: words) { return plain }
        if let more = valueSaidAfter(in: text, over: parses.first) { return more }
        // "Pay Bobo Jr. 50 dollars on MonkeyPay RIGHT NOW for the taxi!",
        // "request 30 bucks from Little Bobo ASAP for the tickets": read
        // without the words that only hurry, when that reads more values,
        // or as many with fewer the app does not know ("Little Bobo ASAP"
        // is no contact). A message keeps them: "come home ASAP" says so.
        if let calm = Self.withoutUrgency(text) {
            let calmer = requestParses(of: calm)
            if let best = calmer.first, parses.first.map({ Self.readsMore(best, than: $0) }) ?? true { return calmer }
        }
        guard parses.isEmpty else { return parses }
        // Said as a dialect or a politer form says it: read in the words
        // the grammars have, when as written it reads as nothing.
        for plain in Self.plainForms(of: text) {
            let parses = requestParsesAsWritten(of: plain)
            if !parses.isEmpty { return parses }
        }
        // Said as the thing wanted, not as an order: "A Jungle Limo for four
        // to the river with MonkeyRide is what we need", "Bobo's messages
        // flagged in MonkeyChat" (``Nominal``). Only to an app it names.
        let named = namedApps(in: words)
        if !named.isEmpty {
            for order in Nominal.orders(for: text) {
                // (Read whole: a guess at the order it stands for drops no
                // words. Nor may what it takes as free text open it: "send
                // Uninstall …" is no message to "Uninstall", "show me eggs on
                // the grocery list" no list called so; "add coconuts … to the
                // banana stash" adds them.)
                let parses = wholeRequestParses(of: order.text).filter { parse in
                    named.contains(parse.app) && (order.addsItems || !parse.slots.contains { slot in
                        slot.isFreeText && TextParser.tokenize(slot.raw).first == order.thing.first
                    })
                }
                if !parses.isEmpty { return parses }
            }
        }
        // Said in a temper: "where the hell is my MonkeyRide", "send Little
        // Bobo his bloody 20 bucks", "resume the Vine Swing already": read
        // without the words that only say so.
        if let calm = Self.withoutExpletives(text) {
            let parses = requestParses(of: calm)
            if !parses.isEmpty { return parses }
        }
        // A word said again after a hesitation or a comma, said once: "show
        // me the, uh, the banana stash", "mark them as, uh, as read" (and
        // then any correction: "a ride to the, uh, the airport, no, the
        // train station").
        // Not where what a message or a note says holds the word said again:
        // "saying no, no, no" says so three times.
        let once = Self.restartsDropped(from: text)
        if once.text != text {
            let parses = requestParses(of: once.text)
            if let best = parses.first, !says(any: once.repeated, in: best) { return parses }
        }
        // The same with no pause, as a child or someone in a hurry says it:
        // "UnicornPay send send Little Bobo three dollars", "can you can you
        // add crisps to the grocery list". Only when it reads no other way.
        let stuttered = Self.restartsDropped(from: text, unpaused: true)
        if stuttered.text != text, stuttered.text != once.text {
            let parses = requestParses(of: stuttered.text)
            if let best = parses.first, !says(any: stuttered.repeated, in: best) { return parses }
        }
        // (Apps' names in the words the parser reads them as, so the words
        // of a name read before the correction can be found: "list o mat".)
        if let correction = SelfCorrection(splittingAppNames(SelfCorrection.numbersInWords(text))) { return repairedParses(correction, in: text) }
        return []
    }

    /// Whether, read without `contrast`'s alternative, what `parse`
    /// dictates (a slot declared `text`) runs up to where the alternative
    /// was or on past it, so the "not …" was part of it: "tell Bobo I'm
    /// fine, not sick", "add the good olive oil, not the cheap one, and …".
    /// After "not until", whether the words kept after it are dictated
    /// rather than read as a time.
    private func dictatesAcross(_ contrast: Contrast, in parse: Parse) -> Bool {
        let says = textSlots[IntentKey(app: parse.app, intent: parse.intent)] ?? []
        let dictated = parse.slots.filter { says.contains($0.name) }.map { TextParser.tokenize($0.raw) }
        // The first word after the cut.
        let next = TextParser.tokenize(contrast.text).dropFirst(contrast.before.count).first
        if contrast.setAside.isEmpty {
            return next.map { word in dictated.contains { $0.contains(word) } } ?? false
        }
        guard let last = contrast.before.last else { return false }
        // Dictated up to the cut, or across it: "the good olive oil, not
        // the cheap one, and something for …" is one list's items.
        return dictated.contains { words in
            words.last == last || next.map { words.containsRun([last, $0]) } ?? false
        }
    }

    /// Whether what a message or a note says in `parse` (a slot declared
    /// `text`) holds any of `words`.
    private func says(any words: Set<String>, in parse: Parse) -> Bool {
        let says = textSlots[IntentKey(app: parse.app, intent: parse.intent)] ?? []
        return parse.slots.contains { says.contains($0.name) && !words.isDisjoint(with: TextParser.tokenize($0.raw)) }
    }

    /// `text` without a long courtesy it opens with, one the grammars' polite
    /// openings do not have: "I'd be most grateful if you would", "if it's
    /// no trouble", "I'm terribly sorry to be a bother, but", "sorry to
    /// bother you", "I just want to know", "I would be grateful to know",
    /// "dear". What follows may open politely in the grammars' own words
    /// ("please", "would you"). Nil when it opens with none.
    static func withoutCourtesyOpening(_ text: String) -> String? {
        let words = TypedWord.split(text)
        var start = 0
        while start < words.count {
            let rest = words[start...].map(\.word)
            if let length = courtesyOpenings.lazy.compactMap({ WordPattern.match($0, rest) }).first(where: { $0 > 0 }) {
                start += length
            } else if ["dear", "darling", "love"].contains(rest[0]), words[start].endsClause {
                start += 1  // "dear, …"
            } else if rest.count > 1, rest[0] == "my", ["dear", "darling"].contains(rest[1]), words[start + 1].endsClause {
                start += 2
            } else {
                break
            }
        }
        guard start > 0, start < words.count else { return nil }
        return String(text[words[start].range.lowerBound...])
    }

    /// `text` without the words that only say the person is cross or
    /// impatient ("the hell", "bloody", "freaking", "already", "even");
    /// nil when it has none.
    static func withoutExpletives(_ text: String) -> String? {
        let words = TypedWord.split(text)
        let bare = words.map(\.word)
        var cut: [Range<String.Index>] = []
        var index = 0
        while index < words.count {
            if let phrase = expletives.first(where: { bare[index...].starts(with: $0) }) {
                let last = words[index + phrase.count - 1]
                // The mark after it stays with the word before: "…, already."
                let end = last.endsClause ? text.index(before: last.range.upperBound) : last.range.upperBound
                cut.append(words[index].range.lowerBound..<end)
                index += phrase.count
            } else {
                index += 1
            }
        }
        guard !cut.isEmpty else { return nil }
        var calm = text
        for range in cut.reversed() { calm.removeSubrange(range) }
        let spaced = calm.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // (A comma left before a mark goes: "…, already." → "….")
        return spaced.replacingOccurrences(of: #"\s*,?\s*([.?!,;])"#, with: "$1", options: .regularExpression)
    }

    private static let expletives: [[String]] = [
        ["the", "hell"], ["the", "heck"], ["on", "earth"], ["bloody"], ["damn"], ["damned"], ["goddamn"], ["freaking"], ["freakin"],
        ["frigging"], ["friggin"], ["fricking"], ["flipping"], ["effing"], ["already"], ["even"],
    ]

    /// Whether `text` ends with one of ``courtesyEndings`` ("… at your
    /// earliest convenience"), not only thanks.
    static func endsWithCourtesy(_ text: String) -> Bool {
        let bare = TypedWord.split(text).map(\.word)
        return bare.indices.dropFirst().contains { ends(bare, from: $0, with: courtesyEndings) }
    }

    /// `text` without a courtesy it ends with: "at your earliest
    /// convenience", "if that is at all possible", "if you don't mind",
    /// "when you get a chance", thanks. Nil when it ends with none, or is nothing else.
    static func withoutCourtesyEnding(_ text: String) -> String? {
        let words = TypedWord.split(text)
        let bare = words.map(\.word)
        guard let start = bare.indices.dropFirst().first(where: { start in
            ends(bare, from: start, with: courtesyEndings) || (!thanksTakers.contains(bare[start - 1]) && ends(bare, from: start, with: thanks))
        }) else { return nil }
        var end = words[start - 1].range.upperBound
        // (The comma before it goes too: "…, if you don't mind".)
        while end > text.startIndex, ",;:".contains(text[text.index(before: end)]) { end = text.index(before: end) }
        return String(text[..<end])
    }

    /// Whether `text` opens with a hedge ("could you maybe", "I think I'd
    /// like to", "would it be possible to") and ends, after a comma, with a
    /// courtesy (``courtesyEndings``).
    static func hedgedAtBothEnds(_ text: String) -> Bool {
        let words = TypedWord.split(text)
        let bare = words.map(\.word)
        let spoken = Array(bare.drop { ["hey", "hi", "ok", "okay", "so", "um", "uh", "erm"].contains($0) })
        guard hedgeOpenings.contains(where: { spoken.starts(with: $0) }) else { return false }
        return bare.indices.dropFirst().contains { start in
            text[words[start - 1].range].hasSuffix(",") && ends(bare, from: start, with: courtesyEndings)
        }
    }

    private static let hedgeOpenings: [[String]] = [
        ["could", "you"], ["would", "you"], ["can", "you"], ["could", "i"], ["would", "it", "be"], ["is", "it", "possible"],
        ["i", "think"], ["i'd", "like"], ["i", "would", "like"], ["maybe"], ["do", "you", "think"], ["i", "was", "wondering"],
        ["i'm", "wondering"],
    ]

    /// Whether `bare[start...]` is all one of `patterns`.
    private static func ends(_ bare: [String], from start: Int, with patterns: [[WordPattern]]) -> Bool {
        patterns.contains { WordPattern.match($0, Array(bare[start...])) == bare.count - start }
    }

    /// Thanks at the end of a request: "pay Zuzu 20 bucks on MonkeyPay for
    /// the cab thx" is a note "the cab".
    private static let thanks: [[WordPattern]] = [
        [.one([["thanks"], ["thank", "you"], ["thx"], ["ty"], ["cheers"], ["many", "thanks"]]),
         .optional([["so", "much"], ["very", "much"], ["a", "lot"], ["a", "bunch"], ["again"]])],
    ]
    /// Words after which thanks are what is said or given, not said to Hark:
    /// "remind me to say thank you", "buy Zuzu a thank you".
    private static let thanksTakers: Set<String> = [
        "say", "says", "said", "saying", "a", "an", "the", "to", "for", "and", "or", "my", "your", "his", "her", "our",
        "their", "big", "huge", "of", "with", "without", "no",
    ]

    private static let courtesyEndings: [[WordPattern]] = [
        // "at your earliest convenience"
        [.one([["at", "your"]]), .optional([["earliest"]]), .one([["convenience"]])],
        // "if that is at all possible", "if it's possible"
        [.one([["if"]]), .one([["that", "is"], ["that's"], ["it", "is"], ["it's"]]), .optional([["at", "all"]]), .one([["possible"]])],
        [.one([["if", "possible"], ["if", "at", "all", "possible"]])],
        // "if that's okay", "if it's alright"
        [.one([["if"]]), .one([["that's"], ["that", "is"], ["it's"], ["it", "is"]]),
         .one([["okay"], ["ok"], ["alright"], ["all", "right"], ["fine"], ["cool"]]), .optional([["with", "you"]])],
        // "if you don't mind", "if you would be so kind"
        [.one([["if", "you"]]), .one([["don't", "mind"], ["do", "not", "mind"], ["wouldn't", "mind"], ["would", "not", "mind"],
                                     ["would", "be", "so", "kind"], ["would", "be", "so", "good"], ["please"]])],
        // "when you get a chance", "whenever you have a moment"
        [.one([["when", "you"], ["whenever", "you"]]), .one([["get"], ["have"], ["find"]]), .one([["a"]]),
         .one([["chance"], ["moment"], ["minute"], ["second"]])],
    ]

    private static let intensifiers: [[String]] = [
        ["most"], ["very"], ["ever", "so"], ["so"], ["really"], ["extremely"], ["terribly"], ["awfully"], ["truly"], ["eternally"],
    ]
    private static let courtesyOpenings: [[WordPattern]] = [
        // "I'd be ever so grateful if you could"
        [.one([["i'd"], ["i", "would"], ["i", "should"], ["i'll"], ["i", "will"], ["we'd"], ["we", "would"]]), .one([["be"]]),
         .many(intensifiers), .one([["grateful"], ["obliged"], ["thankful"], ["pleased"], ["happy"], ["delighted"]]),
         .one([["if", "you"]]), .one([["could"], ["would"], ["can"], ["will"], ["might"]]), .optional([["please"]])],
        // "if it's no trouble (at all)"
        [.one([["if"]]), .one([["it's"], ["it", "is"], ["that's"], ["that", "is"]]),
         .one([["no"], ["not", "too", "much"], ["not", "much", "of", "a"]]), .one([["trouble"], ["bother"], ["problem"]]),
         .optional([["at", "all"]]), .optional([["for", "you"]])],
        // "I just want to know", "I'd like to know": the question follows.
        [.one([["i"], ["i'd"]]), .optional([["just"], ["really"], ["only"]]),
         .one([["want", "to", "know"], ["wanted", "to", "know"], ["need", "to", "know"], ["like", "to", "know"], ["would", "like", "to", "know"]])],
        // "I would be grateful to know", "I'd be interested to hear": the question follows.
        [.one([["i'd"], ["i", "would"], ["i", "should"], ["we'd"], ["we", "would"]]), .one([["be"]]), .many(intensifiers),
         .one([["grateful"], ["obliged"], ["pleased"], ["happy"], ["glad"], ["interested"]]), .one([["to", "know"], ["to", "hear"], ["to", "learn"]])],
        // "could you please be so good as to", "please be so kind as to"
        [.optional([["could", "you"], ["would", "you"], ["will", "you"], ["can", "you"]]), .optional([["please"], ["kindly"]]),
         .one([["be", "so"]]), .one([["good"], ["kind"]]), .one([["as", "to"]])],
        // "I'm terribly sorry to be a bother, but"
        [.optional([["i'm"], ["i", "am"]]), .many(intensifiers), .one([["sorry", "to"]]),
         .one([["bother", "you"], ["trouble", "you"], ["disturb", "you"], ["be", "a", "bother"], ["be", "a", "nuisance"], ["be", "a", "pain"]]),
         .optional([["again"]]), .optional([["but"]])],
    ]

    /// "I need add limes to the grocery list" reads as written as a task
    /// "add limes" ("I need … on my list" takes any words): the verb a
    /// learner put after "I need" is no part of free text. The plainer
    /// form's readings (``plainForms(of:)``), when it reads as the same
    /// intent with that free text less the verb; nil otherwise ("I need
    /// limes on my list" stays).
    private func withoutLearnersVerb(_ best: Parse, in text: String, words: [String]) -> [Parse]? {
        guard let verb = Self.verbAfterWant(in: words),
              let slot = best.slots.first(where: { $0.isFreeText && TextParser.tokenize($0.raw).first == verb }),
              let plain = Self.plainForms(of: text).lazy.map(requestParsesAsWritten).first(where: { !$0.isEmpty }),
              plain[0].app == best.app, plain[0].intent == best.intent,
              let shorter = plain[0].slots.first(where: { $0.name == slot.name }),
              TextParser.tokenize(shorter.raw) == Array(TextParser.tokenize(slot.raw).dropFirst()) else { return nil }
        return plain
    }

    /// Whether a correction's words were read as a value of a list the
    /// request had named from its list, as words that open like a place in
    /// the sentence: "add eggs to my grocery list in ListOMat, no wait, in
    /// TasksNotes" is no list called "in tasks notes".
    static func misplacesCorrection(_ parse: Parse, basis: Parse) -> Bool {
        let listed = Set(basis.slots.filter { !$0.isFreeText }.map(\.name))
        return parse.slots.contains { slot in
            slot.isFreeText && listed.contains(slot.name)
                && TextParser.tokenize(slot.raw).first.map { ["in", "on", "to", "at", "with", "from", "for", "into", "onto"].contains($0) } == true
        }
    }

    /// A request the person corrected once — "video Bobo, no wait, Bobo
    /// Jr., on MonkeyChat" — read with the correction in place of what it
    /// corrects: the first of ``SelfCorrection/candidates(basis:)`` that
    /// reads as a request, and, where the words before the correction read
    /// on their own, as the same intent with no value fewer, none read
    /// where it does not go (``misplacesCorrection(_:basis:)``). Nothing when
    /// the correction takes the request back ("…, no wait, don't, he's
    /// asleep", "…, no wait, never mind") or no candidate reads.
    private func repairedParses(_ correction: SelfCorrection, in text: String) -> [Parse] {
        let words = TextParser.tokenize(text)
        guard !correction.refuses, !Self.takeBacks.contains(where: words.containsRun) else { return [] }
        let basis = requestParses(of: correction.beforeText).first
        for candidate in correction.candidates(basis: basis) where SelfCorrection(candidate.text) == nil {
            let parses = requestParses(of: candidate.text)
            guard let best = parses.first else { continue }
            if let basis, best.intent != basis.intent || best.slots.count < basis.slots.count
                || Self.misplacesCorrection(best, basis: basis) { continue }
            return parses
        }
        return []
    }

    /// `text` in plainer words, each way it may be: "me" before what is the
    /// person's own as "my" ("cancel me lift", "carry on with me workout"),
    /// "there" as a filler before where the request goes dropped ("open up
    /// me shopping note there in MonkeyNotes"), and a verb after "would you
    /// mind" in its plain form ("would you mind sending" → "would you mind
    /// send", as the grammars' polite openings have it; "sending" may be
    /// "send" or "sende", "getting" "gett" or "get": the one the grammar
    /// reads is taken), "what'd", "where'd" as "what did", "where did"
    /// ("what'd Bobo send me"), and the words a learner of English leaves
    /// in or out: "to" after "I want", "I need", "I would like" before a
    /// verb ("I want put coconuts …"), "you" after "please" ("please you
    /// put …"). Empty when nothing changes.
    static func plainForms(of text: String) -> [String] {
        let words = text.split(separator: " ").map(String.init)
        let bare = words.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        var plain: [String] = [], gerund: Int?
        for (index, word) in words.enumerated() {
            let next = index + 1 < words.count ? bare[index + 1] : nil
            let endsClause = word.last?.isPunctuation ?? false
            if index > 0, !endsClause, let next, bare[index] == "me", !notOwned.contains(next) {
                plain.append("my")
            } else if index > 0, !endsClause, let next, bare[index] == "there", ["on", "in", "with", "using"].contains(next) {
                continue
            } else if let question = Self.didContractions[bare[index]] {
                // "what'd Bobo send me": "what did".
                plain += [question, "did" + (endsClause ? String(word.last!) : "")]
            } else if index > 0, bare[index] == "you", bare[index - 1] == "please", let next, !["to", "can", "could", "for", "so", "very"].contains(next) {
                // "please you put …": "please put …".
                continue
            } else if index > 0, !endsClause, let next, next != "to", Self.wantsBeforeVerb(bare[..<(index + 1)]) {
                // "I want put coconuts …", "I need give Bobo …", "I would
                // like begin …": the "to" a learner leaves out.
                plain += [word, "to"]
            } else {
                if gerund == nil, bare[index].hasSuffix("ing"), bare[index].count > 5,
                   bare[..<index].suffix(2).contains("mind"), index >= 1, ["mind", "just"].contains(bare[index - 1]) {
                    gerund = plain.count
                }
                plain.append(word)
            }
        }
        guard let gerund else { return plain == words ? [] : [plain.joined(separator: " ")] }
        let stem = String(plain[gerund].lowercased().trimmingCharacters(in: .punctuationCharacters).dropLast(3))
        var stems = [stem, stem + "e"]
        if let last = stem.last, stem.count > 2, stem.dropLast().last == last { stems.append(String(stem.dropLast())) }
        return stems.map { base in
            var form = plain
            form[gerund] = base
            return form.joined(separator: " ")
        }
    }

    /// The word after "I want", "I need", "I would like" or "I'd like"
    /// where it is not "to": the verb a learner says without it.
    static func verbAfterWant(in words: [String]) -> String? {
        words.indices.dropLast().first { index in
            words[index + 1] != "to" && wantsBeforeVerb(words[...index])
        }.map { words[$0 + 1] }
    }

    /// Whether `words` end in "I want", "I need", "I would like", "I'd
    /// like" or "I wish", which take "to" before a verb.
    static func wantsBeforeVerb(_ words: ArraySlice<String>) -> Bool {
        [["i", "want"], ["i", "need"], ["i'd", "like"], ["would", "like"], ["i", "wish"]].contains { words.suffix(2).elementsEqual($0) }
    }

    /// "what'd", "where'd", … said for "what did", "where did".
    static let didContractions: [String: String] = ["what'd": "what", "where'd": "where", "when'd": "when", "how'd": "how", "why'd": "why"]

    /// Words after "me" that show it is the person spoken of, not the
    /// person's own: "send me a ride", "remind me to", "tell me how", "get me home".
    private static let notOwned: Set<String> = [
        "to", "a", "an", "the", "up", "in", "on", "at", "for", "with", "from", "know", "some", "my", "your", "his",
        "her", "their", "our", "how", "what", "when", "where", "whether", "if", "that", "this", "these", "those",
        "about", "back", "through", "out", "off", "down", "again", "please", "now", "and", "or", "so", "one", "any",
        "anything", "something", "home", "there", "here", "today", "tomorrow", "tonight", "all", "every", "each",
        "more", "less", "by", "into", "onto", "over", "after", "before", "as", "too", "first", "last", "next",
    ]

    private func requestParsesAsWritten(of text: String) -> [Parse] {
        if let known = readingMemo.asWritten[text] { return known }
        let parses = requestParsesAsWrittenUnremembered(of: text)
        readingMemo.asWritten[text] = parses
        return parses
    }

    private func requestParsesAsWrittenUnremembered(of text: String) -> [Parse] {
        let whole = wholeRequestParses(of: text)
        if let best = whole.first, let shorter = withoutAfterthought(best, in: text) { return shorter }
        if let best = whole.first, saysItToAnotherApp(best, in: text) { return [] }
        guard whole.isEmpty else { return whole }
        // The rest is for typed text around a request, which must name its
        // app: a bare command next to a remark is more likely the remark's
        // than anyone's request.
        let words = TextParser.tokenize(text)
        let named = namedApps(in: words)
        guard !named.isEmpty else { return closedRequestBesideAFewWords(in: text, words: words) }
        // A clause or sentence beside the request that is no part of it: "So
        // I'm late, get me a ride to work on MonkeyRide", "bring up my
        // MonkeyPay code, I'm at the counter", "MonkeyFit, that's enough for
        // today, end the run", "Can you mark run five k as done in
        // MonkeyTodo? I did it this morning".
        let cuts = Self.clauseBreaks(in: text)
        // Not when the person corrected themselves ("…, no wait, …", "…, I
        // mean …") or took the request back at the end ("start a run in
        // MonkeyFit, actually no, my knee still hurts, never mind"); "never
        // mind, cancel my ride" is a request.
        let lastClause = TextParser.tokenize(String(text[(cuts.last?.upperBound ?? text.startIndex)...]))
        // (A bare "sorry", "wait" or "no" between commas corrects too: "pay
        // Bobo, sorry, Little Bobo ten dollars".)
        let correctedClause = cuts.contains { TextParser.tokenize(String(text[$0.upperBound...])).starts(with: ["i", "mean"]) }
            || Self.correctsItself(typed: text, saying: true)
        guard !Self.correctsItself(words), !correctedClause,
              !Self.takeBacks.contains(where: lastClause.containsRun) else { return [] }
        if text.contains(","), cuts.isEmpty { return [] }  // only a stray comma: read as typed
        let beside = request(besideClausesIn: text, cuts: cuts, named: named, lastClause: lastClause)
        // A clause that refers back to what one before it named: "Bobo the
        // Great just landed, message him on MonkeyChat that …". Taken over
        // a reading of the clauses as said when it holds more values the
        // app knows, or as many and more values, or as many and fewer it
        // does not know ("I started a packing list in MonkeyTodo, add
        // sunscreen to it": not a task "sunscreen to it" on no list).
        let back = request(referringBackIn: text, cuts: cuts, named: named)
        guard let first = back.first else { return beside }
        guard let other = beside.first else { return back }
        func known(_ parse: Parse) -> Int { parse.slots.filter { !$0.isFreeText }.count }
        func unknown(_ parse: Parse) -> Int { parse.slots.filter(\.isFreeText).count }
        if known(first) != known(other) { return known(first) > known(other) ? back : beside }
        if first.slots.count != other.slots.count { return first.slots.count > other.slots.count ? back : beside }
        return unknown(first) < unknown(other) ? back : beside
    }

    /// A value said after the request in a clause of its own, as if
    /// answering what Hark would ask next: "Get a MonkeyRide to the zoo
    /// for two of us, a Monkey Pool will do", "What's my MonkeyPay
    /// balance? The savings account", "Start a Bananarific in MonkeyFit,
    /// indoors, it's pouring". The request read with the clause's words
    /// joined to it (bare, or after "in", "for" or "with") when that gives
    /// everything the request without them gives and one value more, a
    /// value the app knows, said in those words; nil otherwise. Never a
    /// message's or a note's words: a free-text reading takes no clause.
    private func valueSaidAfter(in text: String, over asWritten: Parse?) -> [Parse]? {
        let cuts = Self.clauseBreaks(in: text)
        guard !cuts.isEmpty, cuts.count <= 4 else { return nil }
        // The last clause, or the one before a last that is a remark ("…, indoors, it's pouring").
        for index in cuts.indices.reversed().prefix(2) {
            let end = index + 1 < cuts.count ? cuts[index + 1].lowerBound : text.endIndex
            var words = TextParser.tokenize(String(text[cuts[index].upperBound..<end]))
            if let opener = Self.afterthoughtOpeners.first(where: words.starts(with:)) { words.removeFirst(opener.count) }
            if let closer = Self.afterthoughtClosers.first(where: words.endsWithRun) { words.removeLast(closer.count) }
            // (A value, not a clause with a verb of its own: "… if it is not too much trouble".)
            guard (1...4).contains(words.count), !words.contains(where: Self.notInAValue.contains) else { continue }
            let head = String(text[..<cuts[index].lowerBound]), rest = String(text[end...])
            guard let base = requestParsesAsWritten(of: head + rest).first else { continue }
            let baseSlots = Set(base.slots.map { [$0.name, $0.value] })
            for connector in ["", "in", "for", "with"] {
                let joined = ([head, connector] + words).filter { !$0.isEmpty }.joined(separator: " ") + rest
                let parses = requestParsesAsWritten(of: joined)
                guard let best = parses.first, best.app == base.app, best.intent == base.intent,
                      best.slots.count == base.slots.count + 1,
                      baseSlots.isSubset(of: best.slots.map { [$0.name, $0.value] }),
                      let added = best.slots.first(where: { !baseSlots.contains([$0.name, $0.value]) }),
                      !added.isFreeText, words.containsRun(TextParser.tokenize(added.raw)),
                      // (Not a value said again: "Rate my last MonkeyRide one star. One!")
                      !base.slots.contains(where: { TextParser.tokenize($0.raw).containsRun(words) }) else { continue }
                // Not where the request as written already reads as much.
                if let asWritten, asWritten.app == best.app, asWritten.intent == best.intent,
                   asWritten.slots.count >= best.slots.count { return nil }
                return parses
            }
        }
        return nil
    }

    private static let referringWords: Set<String> = ["it", "them", "there", "him", "her"]

    /// Whether `parse` reads more of a request than `other`: more values,
    /// or as many with fewer of them words the app does not know.
    static func readsMore(_ parse: Parse, than other: Parse) -> Bool {
        if parse.slots.count != other.slots.count { return parse.slots.count > other.slots.count }
        return parse.slots.filter(\.isFreeText).count < other.slots.filter(\.isFreeText).count
    }

    /// `text` without the words that only say it is urgent ("right now",
    /// "ASAP", "immediately"), or nil when it has none.
    static func withoutUrgency(_ text: String) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        guard urgency.firstMatch(in: text, range: range) != nil else { return nil }
        let calm = urgency.stringByReplacingMatches(in: text, range: range, withTemplate: "")
        return TextParser.tokenize(calm).isEmpty ? nil : calm
    }

    private static let urgency = try! NSRegularExpression(
        pattern: "\\s*,?\\s*\\b(?:right\\s+now|asap|a\\.s\\.a\\.p\\.?|as\\s+soon\\s+as\\s+(?:possible|you\\s+can)|immediately|urgently|right\\s+away|straight\\s+away|this\\s+(?:instant|minute|second))\\b[!.]*(?=\\s|,|$|[!?.])",
        options: [.caseInsensitive])

    /// `text` without a sign-off said to Hark after the request, or nil:
    /// thanks naming Hark ("…, thanks Hark", "…? Cheers, Hark."), a radio
    /// sign-off ("… Over and out."), or thanks or "that's all" after a
    /// request that opens by addressing Hark ("Hey Hark, send … saying the
    /// meeting moved to three, thanks."). Bare thanks after a message to
    /// no one in particular may be the message's ("… saying see you, thanks").
    static func withoutSignOff(_ text: String) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        guard let match = signOff.firstMatch(in: text, range: range), let cut = Range(match.range, in: text),
              let said = Range(match.range(at: 1), in: text) else { return nil }
        let words = TextParser.tokenize(String(text[said]))
        let toHark = words.contains { ["hark", "computer"].contains($0) } || words.starts(with: ["over", "and", "out"])
            || words.starts(with: ["that'll", "be", "all"]) || words.starts(with: ["that", "will", "be", "all"])
        let opensToHark = [["hey", "hark"], ["ok", "hark"], ["okay", "hark"], ["hark"], ["computer"], ["hi", "hark"]]
            .contains { TextParser.tokenize(text).starts(with: $0) }
        guard toHark || opensToHark else { return nil }
        let plain = String(text[..<cut.lowerBound])
        return TextParser.tokenize(plain).isEmpty ? nil : plain
    }

    private static let signOff = try! NSRegularExpression(
        pattern: "[,.;!?]\\s*((?:(?:many\\s+)?(?:thanks|thank\\s+you|cheers|ta|thx)(?:\\s+(?:so\\s+much|a\\s+lot|very\\s+much|again|a\\s+bunch))?(?:\\s*,?\\s*(?:hark|computer|mate|buddy))?|over\\s+and\\s+out|that['’]?s\\s+all(?:\\s+for\\s+now)?(?:\\s*,?\\s*thanks)?|that\\s+is\\s+all|that['’]?ll\\s+be\\s+all|that\\s+will\\s+be\\s+all)(?:\\s*,?\\s*(?:hark|computer))?)\\s*[.!]*\\s*$",
        options: [.caseInsensitive])

    /// Words no value said after the request holds: a subject, a verb that tells.
    private static let notInAValue: Set<String> = [
        "i", "i'm", "i've", "i'd", "we", "you", "he", "she", "they", "it", "it's", "is", "are", "was", "were", "has", "have", "had",
        "don't", "can't", "not", "no", "never", "mind",
    ]

    /// Words before a value said after the request: "…, make it a Monkey Pool".
    private static let afterthoughtOpeners: [[String]] = [["make", "it"], ["make", "that"], ["and"], ["preferably"], ["ideally"]]
    /// Words after it: "…, a Monkey Pool will do", "…, indoors please".
    private static let afterthoughtClosers: [[String]] = [
        ["will", "do"], ["is", "fine"], ["would", "be", "great"], ["would", "be", "good"], ["would", "be", "best"],
        ["is", "best"], ["works"], ["please"], ["if", "possible"], ["thanks"],
    ]

    /// The request in one of the clauses of `text` beside others that are no
    /// part of it (see ``requestParsesAsWritten(of:)``).
    private func request(besideClausesIn text: String, cuts: [Range<String.Index>], named: Set<String>, lastClause: [String]) -> [Parse] {
        // The last clause asks the app it names for what the ones before it
        // say: "My coach wants me to do a five k Bananarific outside, can you
        // set that up in MonkeyFit?", "I can't find my training list
        // anywhere, can TasksNotes pull it up?".
        // (Read as if the clauses before it ended naming the app.)
        if let last = cuts.last, let app = named.first(where: { app in
            (appNames.spoken[app] ?? []).contains { lastClause.containsRun($0) }
        }), let name = appNames.spoken[app]?.first,
           Self.asksForIt(lastClause.removingRuns(of: appNames.spoken[app] ?? [])) {
            let head = Self.naming(name, after: text[..<last.lowerBound])
            let parses = wholeRequestParses(of: head).filter { $0.app == app }
            if !parses.isEmpty { return parses }
            let inside = request(inside: head, naming: [app])
            if !inside.isEmpty { return inside }
        }
        // Each clause after a cut and before it, then each clause between
        // two: "Ugh, that driver was awful. Rate my last MonkeyRide one star. One!".
        let middles = zip(cuts, cuts.dropFirst()).map { text[$0.upperBound..<$1.lowerBound] }
        for part in cuts.flatMap({ [text[$0.upperBound...], text[..<$0.lowerBound]] }) + middles {
            // (A clause may open with a courtesy of its own: "don't move any money yet, I just want to know what's in my savings".)
            var parses = wholeRequestParses(of: String(part)).filter { named.contains($0.app) }
            if parses.isEmpty, let plain = Self.withoutCourtesyOpening(String(part)) {
                parses = wholeRequestParses(of: plain).filter { named.contains($0.app) }
            }
            // Not when taken back in a later clause ("book a Banana Car
            // on MonkeyRide… wait, never mind, I'll walk", "start a
            // Coconut Crunch in MonkeyFit, hmm, no, not today").
            if !parses.isEmpty { return Self.takenBack(in: text, after: part.endIndex, breaks: cuts) ? [] : parses }
        }
        let wrapped = request(inside: text, naming: named)
        // (Taken back in a clause after the first: the request is in one before it.)
        if !wrapped.isEmpty, let first = cuts.first, Self.takenBack(in: text, after: first.upperBound, breaks: cuts) { return [] }
        guard wrapped.isEmpty else { return wrapped }
        // A clause beside a request wrapped in words of its own: "I'm at the
        // till, pull up my MonkeyPay code so they can scan it".
        for cut in cuts {
            for part in [text[cut.upperBound...], text[..<cut.lowerBound]] {
                let parses = request(inside: String(part), naming: named)
                if !parses.isEmpty { return Self.takenBack(in: text, after: part.endIndex, breaks: cuts) ? [] : parses }
            }
        }
        // A clause that names no app beside one that names the app it is for
        // and asks nothing: "The driver on my last MonkeyRide was lovely, give
        // her five stars". Not beside a condition or a question ("if
        // MonkeyRide is late, cancel it"): the request may not be meant now.
        if named.count == 1, let app = named.first, let name = appNames.spoken[app]?.first, !text.contains("?") {
            for cut in cuts {
                let before = TextParser.tokenize(String(text[..<cut.lowerBound]))
                guard let first = before.first, !Self.conditions.contains(first), !Self.opensWithAQuestion(before) else { continue }
                let part = String(text[cut.upperBound...])
                guard namedApps(in: TextParser.tokenize(part)).isEmpty, !namedApps(in: before).isEmpty else { continue }
                let parses = wholeRequestParses(of: Self.naming(name, after: part)).filter { $0.app == app }
                if !parses.isEmpty { return parses }
            }
        }
        return []
    }

    /// The request in the words after a cut whose word that refers back
    /// ("him", "it", "his", "there") reads, replaced by a run of the words
    /// before the cut, as a request to an app named in the text in which
    /// the run is a value the app knows, not free text
    /// (``ReferringBack``). The app may be named before the cut: "I
    /// started a packing list in MonkeyTodo, add sunscreen to it".
    private func request(referringBackIn text: String, cuts: [Range<String.Index>], named: Set<String>) -> [Parse] {
        // (As for a request wrapped in words: a long text is no one request.)
        // Nor in words that take a request back.
        let all = TextParser.tokenize(text)
        guard all.count <= 40, !Self.takeBacks.contains(where: all.containsRun) else { return [] }
        let names = appNames.spoken.values.flatMap { $0 }
        // Each rewrite read costs about a millisecond: a bound on them all.
        var budget = ReferringBack.mostRewrites
        for cut in cuts {
            let clause = String(text[cut.upperBound...])
            let words = TextParser.tokenize(clause)
            let namesItsApp = !namedApps(in: words).isEmpty
            // Not a clause that tells what someone will do ("…, I'll tell
            // him myself").
            guard namesItsApp || named.count == 1, !Self.tellers.contains(words.first ?? "") else { continue }
            let name = namesItsApp ? nil : named.first.flatMap { appNames.spoken[$0]?.first }
            let rewrites = ReferringBack.rewrites(of: clause, after: String(text[..<cut.lowerBound]), names: names)
            func reading(_ rewrite: ReferringBack.Rewrite, titles: Bool, _ parse: (String) -> [Parse]) -> [Parse] {
                guard budget > 0 else { return [] }
                budget -= 1
                return parse(name.map { Self.naming($0, after: rewrite.text) } ?? rewrite.text).filter { parse in
                    // (Never what a message or a note says.)
                    let dictated = textSlots[IntentKey(app: parse.app, intent: parse.intent)] ?? []
                    let says = parse.slots.filter { dictated.contains($0.name) }.flatMap { TextParser.tokenize($0.raw) }
                    return named.contains(parse.app) && rewrite.left.allSatisfy(says.contains) && rewrite.referents.allSatisfy { referent in
                        parse.slots.contains { slot in
                            slot.name != Catalog.appSlot && !dictated.contains(slot.name) && (titles || !slot.isFreeText)
                                && ReferringBack.holds(slot, referent)
                        }
                    }
                }
            }
            // First a value the app knows; then a title said as one that it
            // may not know yet, as free text ("my 'call the plumber' task").
            for titles in [false, true] {
                for rewrite in rewrites where !titles || rewrite.namesAThing {
                    let parses = reading(rewrite, titles: titles) { wholeRequestParses(of: $0) }
                    if !parses.isEmpty { return parses }
                }
            }
            // Then read as any request is ("let's get back into my
            // Bananarific"), for the runs that look most like values; not
            // a clause of clauses, which would be read so again.
            guard Self.clauseBreaks(in: clause).isEmpty else { continue }
            for rewrite in rewrites.filter(\.looksLikeValues).prefix(ReferringBack.mostReadInFull) {
                let parses = reading(rewrite, titles: rewrite.namesAThing) { requestParses(of: $0) }
                if !parses.isEmpty { return parses }
            }
        }
        return []
    }

    /// Words that open a clause telling what someone does or will do.
    private static let tellers: Set<String> = [
        "i'll", "i'm", "i've", "i", "we", "we'll", "we're", "he", "he'll", "he's", "she", "she'll", "she's", "they", "they'll",
        "they're",
    ]

    /// `clause` as if it ended naming the app by `name` ("… on monkey fit"):
    /// a clause whose app is named in another clause beside it.
    static func naming(_ name: [String], after clause: some StringProtocol) -> String {
        String(clause) + " on " + name.joined(separator: " ")
    }

    /// Words that open a clause saying when or whether a request holds.
    private static let conditions: Set<String> = [
        "if", "when", "whenever", "after", "before", "once", "unless", "until", "till", "while", "as", "in", "because", "cause",
    ]

    /// Whether free text ends by naming an app that is not installed, and
    /// the words before that name are another request of their own: "send
    /// Bobo fifty bucks on Venmo" is a payment said to Venmo, not a message
    /// to Bobo saying "fifty bucks on Venmo" ("send Bobo fifty bucks" is a
    /// payment). Typed, the name is written with a capital; heard, it is one
    /// of the grammar's apps that are not installed ("… on venmo"). "text
    /// Bobo I'm on Venmo now", "remind me to call Bobo in March" read as the
    /// same request without their ends, and stay.
    private func saysItToAnotherApp(_ best: Parse, in text: String) -> Bool {
        guard best.slots.last?.isFreeText == true, best.slotValues[Catalog.appSlot] == nil else { return false }
        var words = TypedWord.split(text)[...]
        // "… on Venmo", "… using the Uber app": a name written with a
        // capital, after a word that says where it goes.
        var typed = words
        if typed.last?.word == "app" { typed = typed.dropLast() }
        if let name = typed.popLast(), name.startsWithCapital, !Self.notAName.contains(name.word), namedApps(in: [name.word]).isEmpty {
            words = typed
        } else if let said = otherApp(in: text).map({ TextParser.tokenize($0.raw) }), said.count < words.count,
                  words.suffix(said.count).map(\.word) == said {
            // Heard, names have no capitals: "… on venmo", "… with cash
            // app", an app the grammar knows is not installed.
            words = words.dropLast(said.count)
        } else {
            return false
        }
        if words.last?.word == "the" { words = words.dropLast() }
        guard let channel = words.popLast(), Self.channels.contains(channel.word), !words.isEmpty,
              let head = wholeRequestParses(of: String(text[..<channel.range.lowerBound])).first else { return false }
        return head.intent != best.intent && !head.slots.contains(where: \.isFreeText)
    }

    /// A request that names no app, with no free text, beside a clause of
    /// three words at most that is no part of it: "pause workout, doorbell",
    /// "cancel my ride, plans changed", "okay I'm back, resume my workout".
    /// Only one such clause, none that corrects or takes the request back
    /// ("cancel my ride, no, wait"), and none with free text: "call mum,
    /// she said" is no request Hark could tell from a remark's words. Not
    /// beside a question ("Is it raining? Take me to the airport") or a
    /// condition ("if he calls, cancel my ride"): the request may not be
    /// meant now.
    private func closedRequestBesideAFewWords(in text: String, words: [String]) -> [Parse] {
        let cuts = Self.clauseBreaks(in: text)
        guard cuts.count == 1, let cut = cuts.first, !text.contains("?"), !Self.correctsItself(words), !words.contains("no"),
              !Self.takeBacks.contains(where: words.containsRun) else { return [] }
        for (request, other) in [(text[..<cut.lowerBound], text[cut.upperBound...]), (text[cut.upperBound...], text[..<cut.lowerBound])] {
            let aside = TextParser.tokenize(String(other))
            guard (1...3).contains(aside.count), let first = aside.first, !Self.conditions.contains(first) else { continue }
            let parses = wholeRequestParses(of: String(request))
            if let best = parses.first, !best.slots.contains(where: \.isFreeText) { return parses }
        }
        return []
    }

    /// The readings of `text` without a clause said after the request and
    /// taken into its free text — "pay Bobo 40 bucks for the groceries, I
    /// promised him yesterday", "what rides go to the airport, I've got a
    /// flight at nine", "make a note saying 4719, just so I don't lose it" —
    /// when the words before that clause are the same request. The clause
    /// must open as a remark does (a person saying something of themselves
    /// or others, a reason, thanks); a message's words are all the message
    /// ("tell Bobo I'm late, I'll be there soon"), and a note's lose only a
    /// reason given for taking it. Nil when there is no such clause.
    private func withoutAfterthought(_ best: Parse, in text: String) -> [Parse]? {
        let free = freeTextSlots(of: best)
        guard !free.isEmpty else { return nil }
        let isMessage = best.intent == "INSendMessageIntent"
        for cut in Self.clauseBreaks(in: text).reversed() {
            let tail = TextParser.tokenize(String(text[cut.upperBound...]))
            // "…, can you settle that on MonkeyPay": the free text ends before where it goes.
            let asksForIt = Self.asksForIt(tail)
            let said = asksForIt ? Array(tail.prefix { !Self.channels.contains($0) }) : tail
            guard let slot = free.first(where: { TextParser.tokenize($0.raw).endsWithRun(said) }) else { continue }
            // A message's or a note's dictated words (`content`, always free text).
            let isDictated = slot.name == "content"
            if isDictated && isMessage { return nil }
            let courtesy = Self.isCourtesy(tail)
            // (The clause asks for what was just said, of the app it names.)
            let aside = Self.opensAReason(tail) || courtesy || asksForIt || (!isDictated && Self.opensARemark(tail))
            guard aside || !isDictated else { continue }
            let head = wholeRequestParses(of: String(text[..<cut.lowerBound]), namedOutside: asksForIt ? best.app : nil)
            // Courtesy says nothing of the request: what comes before it is the request, whatever it reads as
            // ("add phone charger to my packing note, ta" appends to the note, no task "… note, ta").
            if let first = head.first, courtesy || (first.app == best.app && first.intent == best.intent) {
                // Any clause after a place or a title that is, without it,
                // one the app knows: "Book a MonkeyRide to the airport, my
                // flight leaves at six", "… from work to the zoo? The kids
                // are already waiting there".
                if aside || first.slots.contains(where: { $0.name == slot.name && !$0.isFreeText }) { return head }
            }
        }
        return nil
    }

    /// Whether words are only courtesy said to Hark or a tag after a
    /// request: "thank you ever so much", "thanks, dear", "yeah?", "real
    /// quick", "if you please".
    static func isCourtesy(_ words: [String]) -> Bool {
        guard let first = words.first, courtesyOpeners.contains(first) else { return false }
        return words.allSatisfy(courtesyWords.contains)
    }

    private static let courtesyOpeners: Set<String> = [
        "thank", "thanks", "dear", "please", "yeah", "cheers", "real", "if", "many", "much", "ta", "mate",
    ]
    private static let courtesyWords: Set<String> = courtesyOpeners.union([
        "you", "so", "much", "very", "ever", "a", "lot", "quick", "kindly", "love", "mate", "my", "in", "advance", "again",
    ])

    /// Whether words ask for what was said before them, as one thing: "can
    /// you settle that on MonkeyPay", "please do it", "could you sort that
    /// out for me". A verb, then "that", "it" or "this", then at most where
    /// it goes ("on MonkeyPay") or "for me".
    static func asksForIt(_ words: [String]) -> Bool {
        var rest = words[...]
        if let first = rest.first, ["can", "could", "would", "will"].contains(first) {
            rest = rest.dropFirst()
            if rest.first == "you" { rest = rest.dropFirst() }
        }
        if rest.first == "please" { rest = rest.dropFirst() }
        guard let verb = rest.first, !questionWords.contains(verb), !persons.contains(verb),
              rest.count >= 2, ["that", "it", "this"].contains(rest[rest.startIndex + 1]) else { return false }
        rest = rest.dropFirst(2)
        if let particle = rest.first, ["out", "up"].contains(particle) { rest = rest.dropFirst() }
        if rest.starts(with: ["for", "me"]) { rest = rest.dropFirst(2) }
        if rest.first == "please" { rest = rest.dropFirst() }
        return rest.isEmpty || (channels.contains(rest.first!) && rest.count <= 4)
    }

    /// Whether words open a reason given for a request: "just so I don't
    /// lose it", "because he's waiting", "in case I forget".
    static func opensAReason(_ words: [String]) -> Bool {
        reasonOpenings.contains { words.starts(with: $0) }
    }

    /// Whether words open a remark of the person's own after a request: "I
    /// promised him yesterday", "she's waiting", "thanks a lot", "if that's okay".
    static func opensARemark(_ words: [String]) -> Bool {
        guard let first = words.first else { return false }
        return remarkOpeners.contains(first) || opensAReason(words)
            || [["if", "that's"], ["if", "you"], ["if", "possible"], ["thank", "you"]].contains { words.starts(with: $0) }
    }

    private static let reasonOpenings: [[String]] = [
        ["just", "so"], ["so", "that"], ["so", "i"], ["so", "we"], ["so", "he"], ["so", "she"], ["so", "they"],
        ["in", "case"], ["because"], ["cause"], ["'cause"], ["coz"], ["cuz"], ["cos"], ["since", "i"], ["as", "i"],
    ]

    private static let remarkOpeners: Set<String> = [
        "i", "i'm", "i've", "i'll", "i'd", "he", "he's", "she", "she's", "they", "they're", "we", "we're", "we've",
        "it's", "that's", "there's", "you're", "thanks", "cheers", "ta",
    ]

    /// Where typed text breaks into clauses or sentences, in order: each
    /// comma, semicolon, question or exclamation mark, ellipsis, and a full stop
    /// before a capital ("Hi. Send ..."; "Bobo Jr. sent me" is one clause),
    /// with the spaces after it; only breaks with words on both sides.
    static func clauseBreaks(in text: String) -> [Range<String.Index>] {
        var breaks: [Range<String.Index>] = []
        var index = text.startIndex
        while index < text.endIndex {
            let mark = text[index]
            // An ellipsis is one mark: "… on MonkeyChat... actually never mind".
            let ellipsis = mark == "\u{2026}" || text[index...].hasPrefix("...")
            var end = text.index(index, offsetBy: ellipsis && mark == "." ? 3 : 1)
            while end < text.endIndex, text[end].isWhitespace { end = text.index(after: end) }
            // A comma between digits is inside a number ("$1,200"), not a break.
            let insideNumber = mark == "," && index > text.startIndex && text[text.index(before: index)].isNumber
                && end == text.index(after: index) && end < text.endIndex && text[end].isNumber
            let breaksHere = (",;?!".contains(mark) && !insideNumber) || ellipsis
                || (mark == "." && end > text.index(after: index) && end < text.endIndex && text[end].isUppercase)
            if breaksHere, text[..<index].contains(where: \.isLetter), text[end...].contains(where: \.isLetter) {
                breaks.append(index..<end)
            }
            index = breaksHere ? end : text.index(after: index)
        }
        return breaks
    }

    /// The longest run of `text`'s words that reads as a request to one of
    /// the apps `named` in the text — "Would you mind starting a yoga
    /// session for me on MonkeyFit, dear" — when the whole does not read: a
    /// typed request wrapped in words of its own. The run must hold at least
    /// half the words, and the words left out must not tell of the past
    /// ("did MonkeyFit record my walk yesterday"): talk that only mentions an
    /// app, or tells of a request, is not one. Nor may the words after the
    /// run open as a value would ("… for the pizza", "… from Bobo", "… that the oven goes
    /// to 180"): dropping them would lose what the person asked for.
    private func request(inside text: String, naming named: Set<String>) -> [Parse] {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count > 2, words.count <= 40 else { return [] }
        let tokens = words.map { TextParser.tokenize($0) }
        let nameWords = Set(named.flatMap { appNames.spoken[$0] ?? [] }.joined())
        // The runs read: the longest first, down to half the words; then,
        // shorter, a run that ends the text after "so" that closes a clause
        // of its own ("I think I left the stove on so cancel my MonkeyRide
        // ride").
        let shortest = max(2, (words.count + 1) / 2)
        var runs: [(start: Int, length: Int)] = []
        for length in stride(from: words.count - 1, through: shortest, by: -1) {
            for start in 0...(words.count - length) { runs.append((start, length)) }
        }
        for start in 3..<max(3, words.count - 2) where words.count - start < shortest && tokens[start - 1] == ["so"] {
            runs.append((start, words.count - start))
        }
        for (start, length) in runs {
            // The words cut before and after the run.
            let head = Array(tokens[..<start].joined()), tail = Array(tokens[(start + length)...].joined())
            let left = head + tail
            // A question may say after it when what it asks about
            // happened: "did I miss any calls on MonkeyChat while I was
            // in the shower" (only a question: see `onlyReads` below).
            let tellsOfThePast = left.contains(where: Self.tellsOfThePast.contains)
            let saysWhenAfter = tellsOfThePast && head.isEmpty && ["while", "when"].contains(tail.first ?? "")
            guard saysWhenAfter || !tellsOfThePast, !Self.correctsItself(left) else { continue }
            // "Who put all these bananas on the grocery list?" asks who
            // did it; "why" too, but for "why don't you …".
            if let first = head.first, Self.asksAboutIt(first, then: head.dropFirst().first) { continue }
            // Nor a request said not to be done: "don't start a Vine Swing
            // in MonkeyFit", "no need to book a MonkeyRide".
            if Self.negates(head) { continue }
            // Nor one taken back after it: "cancel my MonkeyRide ride nvm dont, keep it".
            if Self.takeBacks.contains(where: tail.containsRun) { continue }
            if Self.opensAValue(tail) { continue }
            // Nor may the run stop or start inside a number: "send Bobo
            // twelve dollars | fifty with MonkeyPay" is no payment of 12.
            if let next = tail.first, SpokenValueType.isNumberWord(next) { continue }
            if let before = head.last, let first = tokens[start].first,
               SpokenValueType.isNumberWord(before), SpokenValueType.isNumberWord(first) { continue }
            // Named outside the run, the app's name must not be what free
            // text stops at: "tell Bobo on | MonkeyChat" is no message saying "on".
            let run = Array(tokens[start..<(start + length)].joined())
            let namedInside = !namedApps(in: run).isEmpty
            let cutAfter = start + length < words.count
            // The app whose name alone was cut after the run, if any: it
            // names the app as "in MonkeyRide" would.
            let tailNames = Self.channels.contains(run.last ?? "") ? nil
                : named.first { Self.onlyNames(tail, of: appNames.spoken[$0] ?? []) }
            let parses = wholeRequestParses(of: words[start..<(start + length)].joined(separator: " "), namedOutside: tailNames).filter { parse in
                let free = freeTextSlots(of: parse)
                // A run that cuts an app's name leaves part of it to be read as free text.
                let holdsPartOfName = free.contains { $0.raw.split(separator: " ").contains { nameWords.contains(String($0)) } }
                // Free text that ends the run would have gone on into the
                // words cut after it: "… that the oven | goes to 180".
                let text = textSlots[IntentKey(app: parse.app, intent: parse.intent)] ?? []
                // Only the app's name cut after it ("…, MonkeyRide", "… please
                // MonkeyFit") says where the request goes, not more of it;
                // not after a word that would carry it ("tell Bobo on | MonkeyChat").
                let namedByTail = tailNames == parse.app
                let freeTextCut = cutAfter && !namedByTail
                    && free.contains { text.contains($0.name) && run.endsWithRun(TextParser.tokenize($0.raw)) }
                return named.contains(parse.app) && !holdsPartOfName && !freeTextCut && (namedInside || namedByTail || free.isEmpty)
                    && (!saysWhenAfter || Self.onlyReads(parse.intent))
            }
            if !parses.isEmpty { return parses }
        }
        return []
    }

    /// The slots of `parse` read as free text: a reading whose free text
    /// holds an app's name is not taken (see ``wholeRequestParses(of:)``).
    private func freeTextSlots(of parse: Parse) -> [SlotValue] {
        parse.slots.filter(\.isFreeText)
    }

    /// `parse` with each value the app has a list for (a place) given as
    /// words on no list in lower case — heard, or typed so — written as a
    /// name: "union station" → "Union Station". A place typed with capitals
    /// stays as typed; a message, note or title stays as it was said.
    private func namingUnlistedValues(_ parse: Parse) -> Parse {
        var parse = parse
        let unlisted = unlistedValue(in: parse)
        for index in parse.slots.indices where unlisted(parse.slots[index]) {
            parse.slots[index].value = Self.withoutRestarts(parse.slots[index].value)
        }
        return Self.namingFreeText(in: parse, where: unlisted)
    }

    /// A value said with a hesitation or a restart inside it as meant: "the,
    /// um, the opera house" → "the opera house". Only for values the app
    /// has a list for (a place), never for what a message says.
    static func withoutRestarts(_ text: String) -> String {
        restartsDropped(from: text).text
    }

    /// ``withoutRestarts(_:)``'s text, and the words said again in it.
    /// `unpaused`: words said twice with nothing between are said once too
    /// (a run of two or more words: "can you can you").
    static func restartsDropped(from text: String, unpaused: Bool = false) -> (text: String, repeated: Set<String>) {
        func bare(_ word: String) -> String { word.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        var words: [String] = []
        var repeated: Set<String> = []
        var paused = false
        for word in text.split(separator: " ").map(String.init) {
            if TextParser.hesitations.contains(bare(word)) {
                paused = true
                continue
            }
            // A word said again after a hesitation or a comma is said once
            // ("Bora Bora" stays).
            if let last = words.last, bare(last) == bare(word), paused || unpaused || last.last?.isPunctuation == true {
                words.removeLast()
                repeated.insert(bare(word))
            }
            words.append(word)
            paused = false
            // "can you can you": the two words said again.
            if unpaused, words.count >= 4, bare(words[words.count - 1]) == bare(words[words.count - 3]),
               bare(words[words.count - 2]) == bare(words[words.count - 4]) {
                repeated.formUnion([bare(words[words.count - 2]), bare(words[words.count - 1])])
                words.removeLast(2)
            }
        }
        let result = words.joined(separator: " ").trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))
        return result.isEmpty || result == text ? (text, []) : (result, repeated)
    }

    /// `parse` with the free-text values `chosen` picks, when in lower case, written as names.
    static func namingFreeText(in parse: Parse, where chosen: (SlotValue) -> Bool) -> Parse {
        var named = parse
        for (index, slot) in parse.slots.enumerated() where slot.isFreeText && chosen(slot) && slot.value == slot.value.lowercased() {
            named.slots[index].value = WrittenForm.name(slot.value)
        }
        return named
    }

    /// Whether `parse` gives a value the app has a list for (a place) as
    /// words on no list.
    private func givesUnlistedValue(_ parse: Parse) -> Bool {
        parse.slots.contains(where: unlistedValue(in: parse))
    }

    /// Whether a slot of `parse` is a value the app has a list for given as
    /// free text (`{slot or text}`), not a slot declared `text`.
    private func unlistedValue(in parse: Parse) -> (SlotValue) -> Bool {
        let text = textSlots[IntentKey(app: parse.app, intent: parse.intent)] ?? []
        return { $0.isFreeText && !text.contains($0.name) }
    }

    /// The installed apps whose names the words hold.
    func namedApps(in words: [String]) -> Set<String> {
        Set(appNames.spoken.filter { _, names in names.contains { words.containsRun($0) } }.keys)
    }

    /// Words beside a request-like run that make it a story or a question
    /// about what happened, not a request.
    static let tellsOfThePast: Set<String> = ["did", "didn't", "yesterday", "ago", "already", "earlier", "last", "was", "were", "had", "hadn't", "used"]

    /// Whether words cut after a request open a value its carrier would
    /// take: what a message says, what a payment is for, what a note is
    /// called ("for the pizza", "that the oven goes to 180"); not "for me".
    static func opensAValue(_ tail: [String]) -> Bool {
        guard tail.count >= 2, valueOpeners.contains(tail[0]) else { return false }
        return !["me", "us", "you", "now", "good"].contains(tail[1])
    }

    /// Whether `tail` is only one of `names`, with "please" or a hesitation
    /// beside it: "please MonkeyFit".
    static func onlyNames(_ tail: [String], of names: [[String]]) -> Bool {
        let rest = tail.filter { $0 != "please" && !TextParser.hesitations.contains($0) }
        return !rest.isEmpty && names.contains(rest)
    }

    private static let valueOpeners: Set<String> = ["that", "saying", "says", "for", "to", "from", "called", "named", "titled", "about"]

    /// - Parameter namedOutside: An app named beside `text`, as if it named it.
    private func wholeRequestParses(of text: String, namedOutside: String? = nil) -> [Parse] {
        let tokens = TextParser.tokenize(text)
        let tellsOfADebt = Self.onlyTellsOfADebt(tokens)
        return mainParser.parse(text).map(namingUnlistedValues).filter { parse in
            // "… on Venmo": a request for an app that is not installed.
            if parse.slotValues[Catalog.otherAppSlot] != nil { return false }
            let namesNoApp = parse.slotValues[Catalog.appSlot] == nil && parse.app != namedOutside
            // A place on no list is taken only from a request that names its
            // app ("MonkeyRide, take me to Union Square"): "Take me to church"
            // is a song.
            if namesNoApp, givesUnlistedValue(parse) { return false }
            let names = namesNoApp ? appNames.spoken.values.flatMap { $0 } : appNames.spoken[parse.app] ?? []
            // Free text that ends in the word that would carry the app's
            // name, the name right after it: "tell Bobo on MonkeyChat" is no
            // message saying "on" to a MonkeyChat named bare at the end.
            // With the name carried by a word of its own, the free text's
            // "on" is its own: "remind me to put the kettle on in TasksNotes".
            let carriesTheName = zip(parse.slots, parse.slots.dropFirst()).contains { slot, next in
                let words = slot.raw.split(separator: " ").map(String.init)
                return slot.isFreeText && next.name == Catalog.appSlot
                    && Self.channels.contains(words.last ?? "")
                    && tokens.containsRun(words + next.raw.split(separator: " ").map(String.init))
            }
            if carriesTheName { return false }
            // "I owe Zuzu twenty dollars" said to no app tells of a debt, as
            // "Bobo owes me twenty dollars" does: it is a payment when the
            // person asks for one ("…, pay her") or says it to the app.
            if namesNoApp, parse.intent == "INSendPaymentIntent", tellsOfADebt { return false }
            return !freeTextSlots(of: parse).contains { slot in
                let words = slot.raw.split(separator: " ").map(String.init)
                return names.contains { words.containsRun($0) }
                    || (namesNoApp && (Self.opensWithAnotherApp(words) || Self.opensWithAnotherApp(typed: slot.value)))
                    || Self.saysNothing(words)
                    // "make a new list" names no list "new".
                    || (slot.name == "title" && words.count == 1 && Self.notTitles.contains(words[0].lowercased()))
                    // A message that is only when it was sent tells of one: "I
                    // sent Bobo a message yesterday", "I texted Bobo an hour ago".
                    || (parse.intent == "INSendMessageIntent" && slot.name == "content" && Self.onlyTellsWhenInThePast(words))
                    // A note whose words are only an answer ("note that no") notes nothing.
                    || (parse.intent != "INSendMessageIntent" && !words.isEmpty && words.allSatisfy(Self.answerWords.contains))
                    || Self.takesItBack(words) || Self.endsTakingItBack(words) || Self.opensTakingItBack(words)
                    || (parse.intent != "INSendMessageIntent" && Self.retractsMidway(words)) || Self.retractsAfterAClause(typed: slot.value)
                    || Self.correctsItself(words) || Self.correctsItself(typed: slot.value, saying: ["content", "note"].contains(slot.name))
                    // (A task that opens with "you" is said to someone: "add you
                    // totally to list", "did you put the eggs on the list".)
                    || (slot.name == "taskTitles" && (Self.endsNamingAContainer(words) || Self.opensWithAQuestion(words) || words.first == "you"))
            }
        }.map(Self.punctuatingDictation)
    }

    /// `parse` with the punctuation said in its dictated words written
    /// ("… late comma see you soon period" → "… late, see you soon.").
    static func punctuatingDictation(_ parse: Parse) -> Parse {
        var parse = parse
        for index in parse.slots.indices where parse.slots[index].isFreeText {
            parse.slots[index].value = SpokenPunctuation.written(parse.slots[index].value)
        }
        return parse
    }

    /// The app a request is for that is not installed, as the grammar's
    /// `<other_app>` reads it in the first reading of `text` that names one:
    /// its value is the app ("Transfer fifty dollars on Venmo": "Venmo"),
    /// its raw words what was said ("cash app", "venmo"); nil when no
    /// reading names one.
    func otherApp(in text: String) -> SlotValue? {
        mainParser.parse(splittingAppNames(text)).lazy.compactMap { parse in
            parse.slots.first { $0.name == Catalog.otherAppSlot }
        }.first
    }

    /// Whether free text opens by naming where the words should go, then
    /// saying them — "on MonkeyMail saying hello", "with Signal that I'm
    /// outside" — or is nothing but where they should go: "on Telegram",
    /// "via WhatsApp", "using the Slack app". In a request that names no
    /// installed app, that names one that is not installed, and it is not
    /// taken as a message to MonkeyChat whose words are "on telegram".
    /// A message that says more ("on my way", "on time for dinner") is a
    /// message.
    ///
    /// The same after words that only say what kind of message it is — "a
    /// voice note on Telegram", "a photo over WhatsApp" —: "Send Bobo a
    /// voice note on Telegram" asks Telegram, not MonkeyChat, to send it.
    static func opensWithAnotherApp(_ words: [String]) -> Bool {
        let article = words.first == "a" ? 1 : 0
        if let kind = messageKinds.first(where: { words.dropFirst(article).starts(with: $0) }) {
            // Only where it goes, after the kind of message: "a voice note saying …" stays a message.
            let channel = article + kind.count
            guard words.count - channel >= 2, bareChannels.contains(words[channel]) else { return false }
            return isAppName(words[(channel + 1)...])
        }
        guard words.count >= 2, channels.contains(words[0]) else { return false }
        // Only where it goes. "with" and "in" take a word too readily as a
        // message ("with love", "in five"): with them, only "… app" is one.
        if isAppName(words[1...]), bareChannels.contains(words[0]) || words.last == "app" { return true }
        guard words.count >= 3 else { return false }
        for carrier in 2...min(4, words.count - 1) {
            let rest = words[carrier...]
            if rest.first == "saying" || rest.starts(with: ["that", "says"]) || rest.starts(with: ["to", "say"])
                || rest.starts(with: ["telling"]) || rest.starts(with: ["and", "say"]) {
                return true
            }
            // "on iMessage that I'm home"; not "in the morning that …".
            if rest.first == "that", words[0] != "in", isAppName(words[1..<carrier]) { return true }
        }
        return false
    }

    /// The same for typed free text that opens with where it goes, a name
    /// written as one, then a comma: "take a note in Evernote, buy stamps",
    /// "text Bobo on Signal, I'm outside". A place or a time written so ("in
    /// five, ...", "on my way, ...") is not a name.
    static func opensWithAnotherApp(typed text: String) -> Bool {
        // "Send Bobo a WhatsApp saying I'm outside": a message of a kind
        // written as a name, then its words.
        // (The article may be the sentence's: "WhatsApp saying I'm outside".)
        // "Send Bobo a WhatsApp message saying …", "… a Signal message":
        // the kind of message may follow the name, and then nothing.
        let said = text.split(separator: " ")
        let words = said.map { $0.lowercased() }
        let name = ["a", "an"].contains(words.first) ? 1 : 0
        if words.count >= name + 2, said[name].first?.isUppercase == true,
           !notAName.contains(words[name]), !messageKinds.contains([words[name]]) {
            let kind = messageKinds.first { words[(name + 1)...].starts(with: $0) }
            let after = name + 1 + (kind?.count ?? 0)
            if kind != nil && after == words.count { return true }
            if words.count >= after + 2, words[after] == "saying" || words[after...].starts(with: ["that", "says"]) { return true }
        }
        guard let comma = text.firstIndex(of: ",") else { return false }
        let head = text[..<comma].split(separator: " ")
        guard (2...3).contains(head.count), channels.contains(head[0].lowercased()),
              head[1].first?.isUppercase == true else { return false }
        return isAppName(ArraySlice(head.dropFirst().map { $0.lowercased() }))
    }

    /// Whether free text is only words that point at something said
    /// elsewhere — "Note that down" (a note saying "down"), "Write that
    /// down somewhere", "Add it to my list", "Text Bobo that": a request with nothing in it to write, not
    /// one whose words are "down"; nor one whose words are only a
    /// hesitation ("message Bobo on MonkeyChat um"). A short message that says something
    /// ("on it", "here", "now") is a message.
    ///
    /// The same for words that are only a person ("add you to the
    /// reminders": a task "you"), only the word that would carry a title
    /// ("make a note called": a note saying "called"), or that stop on an
    /// article ("new note like the"): what was to be written was not said.
    static func saysNothing(_ words: [String]) -> Bool {
        guard !words.isEmpty else { return false }
        if let last = words.last, articles.contains(last) { return true }
        return words.allSatisfy {
            pointingWords.contains($0) || persons.contains($0) || titleCarriers.contains($0) || TextParser.hesitations.contains($0)
        }
    }

    private static let articles: Set<String> = ["the", "a", "an"]
    private static let answerWords: Set<String> = ["no", "yes", "yeah", "yep", "nope", "nah", "okay", "ok"]

    /// Whether words tell of a debt without asking for it to be paid: "I
    /// owe Zuzu twenty dollars" ("I owe Zuzu twenty dollars, pay her" asks).
    static func onlyTellsOfADebt(_ words: [String]) -> Bool {
        (words.containsRun(["i", "owe"]) || words.containsRun(["i", "still", "owe"]))
            && !words.contains(where: ["pay", "send", "give", "transfer", "wire", "settle"].contains)
    }

    /// Whether words are only a time in the past: "yesterday", "last week",
    /// "an hour ago", "earlier".
    static func onlyTellsWhenInThePast(_ words: [String]) -> Bool {
        !words.isEmpty && words.allSatisfy(pastTimeWords.contains)
            && words.contains(where: ["yesterday", "ago", "last", "earlier"].contains)
    }

    private static let pastTimeWords: Set<String> = [
        "yesterday", "last", "week", "night", "month", "year", "ago", "an", "a", "one", "two", "few", "that", "hour", "hours",
        "minute", "minutes", "day", "days", "earlier", "this", "morning", "evening", "afternoon", "already", "just", "back",
    ]
    private static let persons: Set<String> = ["i", "me", "you", "him", "her", "us"]
    private static let titleCarriers: Set<String> = ["called", "named", "titled", "saying"]
    /// Words that say a list or note is new, not what it is called.
    private static let notTitles: Set<String> = ["new", "fresh", "another", "blank", "empty"]

    /// Whether words said before a request say not to do it: "don't",
    /// "do not", "never", "no need to", "you needn't", "I won't" — but not
    /// "don't forget to" (remember to) or "why don't you" (a suggestion).
    static func negates(_ words: [String]) -> Bool {
        guard !words.contains("forget"), words.first != "why" else { return false }
        return words.contains(where: negations.contains) || words.containsRun(["no", "need"])
    }

    private static let negations: Set<String> = ["don't", "dont", "not", "never", "needn't", "shouldn't", "mustn't", "won't", "wont"]

    /// Whether words cut before a request that open with `first` (and
    /// `second`) ask about it rather than ask for it: "who (put …)", "whose",
    /// "why" but for "why don't you", "why not".
    static func asksAboutIt(_ first: String, then second: String?) -> Bool {
        if ["who", "whom", "whose", "who'd"].contains(first) { return true }
        return first == "why" && !["don't", "dont", "not"].contains(second ?? "")
    }

    /// Whether free text only takes the request back: "remind me to, no
    /// wait, never mind" is no reminder to "no wait never mind". It must
    /// hold a word of correction ("no", "wait", "actually") as well: "tell
    /// Bobo never mind" is a message.
    static func takesItBack(_ words: [String]) -> Bool {
        let rest = words.filter { !correctionWords.contains($0) && !TextParser.hesitations.contains($0) }
        return rest.count < words.count && retractions.contains(rest)
    }

    /// How many words at the end of `words` take the request back, the
    /// words of correction before the retraction too ("… with MonkeyRide no
    /// wait never mind": 4), or nil when it does not end so.
    static func retractionTail(_ words: [String]) -> Int? {
        guard let retraction = retractions.filter({ words.count > $0.count && words.suffix($0.count).elementsEqual($0) })
            .max(by: { $0.count < $1.count }) else { return nil }
        var start = words.count - retraction.count
        while start > 1, retractionOpeners.contains(words[start - 1]) { start -= 1 }
        return words.count - start
    }

    /// What may follow an app's name at the end of a heard request
    /// (``DecoderGrammar/trailingPhrases``).
    ///
    /// - A request taken back: "… with MonkeyRide, no, scratch that".
    ///   Without it such speech is forced onto the nearest sentence, most
    ///   often another app's name ("… with monkey ride via snapchat").
    ///   Heard unsurely, the tail is dropped and the request taken
    ///   (``withoutUnsureRetraction(_:)``).
    /// - "for me": with the retractions and not this, "… on MonkeyChat for
    ///   me" was heard "… forget it". ("please" and "thanks" here were
    ///   heard in other apps' names: "MonkeyFitness" as "monkey fit thanks".)
    static let heardEndings: [[String]] = {
        let retracted: [[String]] = [["never", "mind"], ["scratch", "that"], ["forget", "it"], ["cancel", "that"]]
        let openers: [[String]] = [[], ["no"], ["wait"], ["no", "wait"]]
        return openers.flatMap { opener in retracted.map { opener + $0 } } + [["for", "me"]]
    }()

    /// The words before an app's name that ``heardEndings`` may follow:
    /// `<via_text>`'s heard words in `models/domains/_common.hark` ("…
    /// with MonkeyRide, no, scratch that"). Not after a name alone: a
    /// request opening with its app takes none. `SelfCorrectionTests`
    /// (`heardEndingsAgreeWithReader`) fails if the two lists part.
    static let heardEndingsFollow = ["in", "on", "with", "using", "through", "via", "from"]

    /// The words of correction said before a retraction: "actually never
    /// mind", "oh forget it", "no wait, never mind".
    private static let retractionOpeners: Set<String> = ["no", "wait", "actually", "oh"]

    /// Whether free text, a message's too, opens by taking the request back
    /// with a word of correction before the retraction: "tell Little Bobo
    /// actually never mind, he's probably asleep", "remind me to, oh forget
    /// it, …". "Tell Bobo never mind" and "tell Bobo no, never mind" say
    /// it to their reader.
    static func opensTakingItBack(_ words: [String]) -> Bool {
        let spoken = words.drop { TextParser.hesitations.contains($0) }
        guard let first = spoken.first, first != "no" ? retractionOpeners.contains(first) : spoken.starts(with: ["no", "wait"]) else { return false }
        let rest = spoken.drop { retractionOpeners.contains($0) || TextParser.hesitations.contains($0) }
        return retractions.contains { rest.starts(with: $0) }
    }

    /// Whether free text, a message's too, ends by taking the request back
    /// with a word of correction before the retraction: "text Bobo that I'm
    /// running late, actually never mind", "remind me to call the vet, oh
    /// forget it". A message ending in the retraction alone ("tell Bobo
    /// never mind") says it to its reader.
    static func endsTakingItBack(_ words: [String]) -> Bool {
        retractions.contains { retraction in
            guard words.count > retraction.count + 1, words.suffix(retraction.count).elementsEqual(retraction) else { return false }
            return retractionOpeners.contains(words[words.count - retraction.count - 1])
        }
    }

    /// Whether free text other than a message's takes the request back
    /// midway, with more after it: "remind me to, actually forget it, I'll
    /// remember". A message may say so to its reader ("tell Bobo oh forget
    /// it, I'll buy it myself").
    static func retractsMidway(_ words: [String]) -> Bool {
        words.indices.contains { index in
            retractionOpeners.contains(words[index])
                && retractions.contains { words[(index + 1)...].starts(with: $0) }
        }
    }

    /// The same in typed free text, a message's too, where a clause before
    /// the retraction ends with a comma: "text Bobo I'm outside, oh never
    /// mind, he just saw me". "Tell Bobo oh forget it, I'll buy it myself"
    /// opens with it, and says it to Bobo.
    static func retractsAfterAClause(typed value: String) -> Bool {
        value.lowercased().range(of: retractionAfterAClause, options: .regularExpression) != nil
    }

    /// ``retractsAfterAClause(typed:)``'s pattern, made once from the openers and retractions.
    private static let retractionAfterAClause: String = {
        let openers = retractionOpeners.joined(separator: "|")
        let said = retractions.map { $0.joined(separator: " ") }.joined(separator: "|")
        return #"(,|\.\.\.|\u2026)\s*(("# + openers + #")[\s,]+)+("# + said + #")\b"#
    }()

    /// Whether a task's free text ends by naming where it goes — "paint the
    /// fence to my weekend note", "bread to grocery list" —: the words are a
    /// request to put the task somewhere, not the task (read so, the note or
    /// list was lost and the task went to the app's default list).
    static func endsNamingAContainer(_ words: [String]) -> Bool {
        guard let last = words.last, ["note", "notes", "list"].contains(last) else { return false }
        let tail = words.suffix(5)
        return tail.indices.dropLast().contains { index in
            // Not "a to do list".
            ["to", "on", "onto", "into", "in"].contains(tail[index]) && index + 1 < tail.endIndex - 1 && tail[index + 1] != "do"
        }
    }

    /// Whether a task's free text opens with a question word — "remind me
    /// why we bought this speaker" heard as "remind me to why …", "remind
    /// me to who you are" —: a question for the person's own memory, not a
    /// thing to do. A task that asks something further on ("check why the
    /// sink leaks") is a task.
    static func opensWithAQuestion(_ words: [String]) -> Bool {
        words.first.map(questionWords.contains) ?? false
    }

    private static let questionWords: Set<String> = ["why", "who", "whom", "whose", "how", "whether", "where", "what", "when", "which"]

    /// Whether words hold the person correcting themselves — "call the
    /// plumber to my shopping note, no wait, to my house note" —: which part
    /// they meant is not for Hark to guess, so the request is not read from
    /// them (they say it again).
    static func correctsItself(_ words: [String]) -> Bool {
        selfCorrections.contains { words.containsRun($0) }
    }

    /// The same in typed free text: a bare "no", "sorry" or "wait" between
    /// commas ("add mangoes to the banana stash, no, papayas", "add eggs,
    /// sorry, add oat milk"); in free text other than what a message or a
    /// note says, ", I mean" too ("show me the training list, I mean the
    /// packing list"), where a message may mean it ("tell Bobo I'm sorry,
    /// I mean it"), and a bare "no", "sorry" or "wait" after a comma at its
    /// end ("mark buy iPhone as, wait, as done": a task "buy iPhone as, wait").
    static func correctsItself(typed value: String, saying: Bool = false) -> Bool {
        let lowered = value.lowercased()
        let bare = SelfCorrection.typedMarkers.joined(separator: "|")
        return SelfCorrection.typedMarkers.contains { lowered.contains(", \($0),") }
            || (!saying && lowered.range(of: #",\s*(i mean\b|("# + bare + #")$)"#, options: .regularExpression) != nil)
    }

    /// Whether what follows `position` in `text` takes a request back: a
    /// retraction in any clause of it ("…, wait, never mind, I'll walk"), or
    /// a clause that is only a refusal ("…, hmm, no, not today", "…,
    /// actually no"). `breaks` are the text's ``clauseBreaks(in:)``.
    /// A "no" asked of someone else ("… in List-o-Mat — what else, babe?
    /// No? That's it then") refuses nothing.
    static func takenBack(in text: String, after position: String.Index, breaks: [Range<String.Index>]) -> Bool {
        var clauses: [(words: Substring, asked: Bool)] = []
        var start = position
        for cut in breaks where cut.lowerBound >= position {
            clauses.append((text[start..<cut.lowerBound], text[cut].contains("?")))
            start = cut.upperBound
        }
        clauses.append((text[start...], text[start...].hasSuffix("?")))
        return clauses.contains { clause, asked in
            let words = TextParser.tokenize(String(clause))
            let meant = words.filter { !correctionWords.contains($0) && !TextParser.hesitations.contains($0) }
            return takeBacks.contains(where: words.containsRun) || (meant.isEmpty && words.contains("no") && !asked)
        }
    }

    /// What takes a request back when said after it: a retraction, but not
    /// "cancel that" ("cancel that MonkeyFit workout" is a request).
    private static let takeBacks = retractions.subtracting([["cancel", "that"]])

    private static let selfCorrections: [[String]] = [
        ["no", "wait"], ["wait", "no"], ["actually", "no"], ["no", "actually"], ["scratch", "that"], ["scrap", "that"], ["sorry", "i", "mean"],
        ["no", "i", "mean"], ["i", "mean", "no"],
    ]

    private static let correctionWords: Set<String> = ["no", "wait", "actually", "hold", "on", "sorry", "oh", "nothing"]
    private static let retractions: Set<[String]> = [
        ["never", "mind"], ["nevermind"], ["nvm"], ["forget", "it"], ["forget", "that"], ["forget", "about", "it"], ["scratch", "that"],
        ["scrap", "that"], ["scrap", "it"], ["cancel", "that"], ["forget", "i", "said", "anything"], ["forget", "i", "said", "that"],
    ]

    private static let pointingWords: Set<String> = [
        "down", "up", "off", "out", "it", "that", "this", "these", "those", "them", "something", "anything", "stuff",
        "somewhere", "anywhere",
    ]

    /// Words that say where a message goes: "on Signal", "via WhatsApp".
    private static let channels: Set<String> = ["on", "in", "via", "using", "through", "with", "over"]
    /// Those after which a name alone is where it goes ("on Telegram", "over Viber").
    private static let bareChannels: Set<String> = ["on", "via", "using", "through", "over"]

    /// Words that say what kind of message is sent, not what it says ("a voice note on Telegram").
    private static let messageKinds: [[String]] = [
        ["voice", "note"], ["voice", "message"], ["voice", "memo"], ["voice", "mail"], ["message"], ["text"], ["note"],
        ["photo"], ["picture"], ["video"], ["gif"], ["sticker"], ["emoji"],
    ]

    /// Whether `words` can be an app's name: one or two words ("telegram",
    /// "i message", "the Slack app"), none of them a word that makes the
    /// phrase a time, a place or a manner ("my way", "time", "Monday"). After
    /// "the" only "… app" is a name: "the train", "the back door" are not.
    private static func isAppName(_ words: ArraySlice<String>) -> Bool {
        var name = words
        if name.last == "app" { name = name.dropLast() } else if name.first == "the" { return false }
        if name.first == "the" { name = name.dropFirst() }
        return (1...2).contains(name.count) && !name.contains { notAName.contains($0) }
    }

    /// Words that follow "on", "via", … in a short message without naming
    /// an app: "on time", "on my way", "through tomorrow".
    private static let notAName: Set<String> = [
        "my", "a", "an", "your", "our", "his", "their", "its", "every", "next", "last", "some", "this", "that",
        "time", "it", "them", "him", "her", "me", "us", "you", "there", "here", "now", "way", "foot",
        "today", "tonight", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "weekend", "break", "schedule", "track", "board", "hold", "duty", "call", "purpose", "fire",
        "lunch", "dinner", "breakfast", "coffee", "drinks", "christmas", "easter", "summer", "winter",
    ]
}

/// The readings made during one reading of a request (``Assistant/readingMemo``).
struct ReadingMemo {
    var requests: [String: [Parse]] = [:]
    var asWritten: [String: [Parse]] = [:]
    /// How many readings are under way, one inside another.
    var depth = 0
}
