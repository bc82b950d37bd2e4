import HarkGrammar

/// A grammar ready for the decoder: the intent graph and the words its
/// free-text slots may take; make a new one when the graph changes.
public final class DecoderGrammar: Sendable {
    public let graph: IntentGraph
    public let dictation: DictationVocabulary
    /// What the decoder searches: the graph's word language, minimised.
    let automaton: WordAutomaton

    /// Whether speech no grammar path fits is rejected (a garbage loop
    /// competes with the grammar). Off for answers that are free text alone,
    /// where any speech is an answer.
    public let rejectsOutOfGrammar: Bool

    /// Phrases that may come before any sentence of the grammar and are
    /// not part of the transcript's meaning ("hey siri"): without them in the
    /// search, a request opened by a wake phrase is forced onto the nearest
    /// sentence, or rejected.
    public let leadingPhrases: [[String]]

    /// Phrases that may end a sentence whose last words are one of the
    /// initialiser's `trailingAfter` (an app's name and the word before
    /// it: "… with monkey ride no scratch that", "… on monkey chat for
    /// me"): words after an app's name the grammar has no place for are
    /// otherwise forced onto the nearest sentence, most often another
    /// app's name. They are searched once, whatever the number of
    /// sentences (``WordAutomaton/ending(after:with:)``), and are words of
    /// the transcript: the reader of the request decides what they mean.
    public let trailingPhrases: [[String]]

    /// The apps' names as spoken ("monkey chat", "list o mat"): an
    /// utterance with free text that names none of them must be heard
    /// more surely (``DecoderOptions/minimumFreeTextConfidence``).
    public let appNames: [[String]]

    /// How many apps ``appNames`` name: among several, a request that names
    /// none must be heard more surely (``DecoderOptions/minimumUnnamedConfidence``).
    public let appCount: Int

    public init(graph: IntentGraph, dictation: DictationVocabulary, rejectsOutOfGrammar: Bool = true,
                leadingPhrases: [[String]] = [], trailingPhrases: [[String]] = [], trailingAfter: [[String]] = [],
                appNames: [[String]] = [], appCount: Int = 0) {
        self.appNames = appNames.filter { !$0.isEmpty }
        self.appCount = appCount
        self.graph = graph
        self.dictation = dictation
        self.rejectsOutOfGrammar = rejectsOutOfGrammar
        self.leadingPhrases = leadingPhrases.filter { !$0.isEmpty }
        self.trailingPhrases = trailingPhrases.filter { !$0.isEmpty }
        automaton = (WordAutomaton(minimizing: graph) ?? WordAutomaton(unminimized: graph))
            .ending(after: trailingAfter, with: self.trailingPhrases)
        var hasher = Hasher()
        hasher.combine(automaton)
        hasher.combine(rejectsOutOfGrammar)
        hasher.combine(self.leadingPhrases)
        hasher.combine(dictation.logProbabilities.count)
        searchKey = hasher.finalize()
    }

    /// Whether `words` (the grammar words heard, in order) contain one of
    /// ``appNames`` word for word.
    public func namesApp(_ words: [String]) -> Bool {
        appNames.contains { words.containsRun($0) }
    }

    /// The longest pause inside an app's name (``appNames``) among the
    /// grammar words of `words`, in seconds: between the end of one of the
    /// name's words and the start of the next. Nil when no name of more
    /// than one word is heard.
    public func longestPauseInAppName(_ words: [RecognizedWord]) -> Double? {
        var longest: Double?
        for name in appNames where name.count > 1 && words.count >= name.count {
            for first in 0...(words.count - name.count) {
                let run = words[first..<(first + name.count)]
                guard zip(run, name).allSatisfy({ !$0.isFreeText && $0.word == $1 }) else { continue }
                let pause = zip(run.dropLast(), run.dropFirst()).map { $1.start - $0.end }.max() ?? 0
                longest = max(longest ?? pause, pause)
            }
        }
        return longest
    }

    /// Whether a hypothesis (pocketsphinx's tokens) stops inside the name
    /// of an app after two of its words or more ("… on monkey to"): its
    /// last words begin one of ``appNames``, and the grammar goes on there
    /// with the rest of that name and nothing else. A person does not pause
    /// there (a request whose app's name is heard with a pause inside it is
    /// rejected: ``DecoderOptions/maximumPauseInAppName``); silence after
    /// such a path is the end of what was said, which the search has not
    /// yet read as a whole sentence. One word is not enough: "you" begins
    /// UnicornPay's "you nee corn pay", and "show my … payment code" was
    /// read "show my you" at the pause.
    func stopsInsideAppName(_ tokens: [String]) -> Bool {
        guard let symbols = Self.symbols(of: tokens), let next = continuations(of: symbols),
              next.count == 1, case .word(let word)? = next.first else { return false }
        return appNames.contains { name in
            name.count > 2 && (2..<name.count).contains { begun in
                name[begun] == word && symbols.suffix(begun).elementsEqual(name.prefix(begun).map { .word($0) })
            }
        }
    }

    /// What a hypothesis reads as without its last word, when that word
    /// follows free text and begins naming an app ("… in", before "…
    /// MonkeyChat") in a sentence that has named its app already, before
    /// the free text ("send a message to Bobo on MonkeyChat saying see you
    /// soon in"): a sentence does not name its app twice, and the word is
    /// the free text's last sound read as a word of the grammar. Nil
    /// otherwise.
    func readingWithoutAppRenamed(_ tokens: [String]) -> SentenceReading? {
        guard let symbols = Self.symbols(of: tokens), symbols.count >= 2, case .word = symbols.last,
              symbols[symbols.count - 2] == .dictation,
              let next = continuations(of: symbols), !next.isEmpty else { return nil }
        let firstWords = Set(appNames.compactMap(\.first).map { WordAutomaton.Symbol.word($0) })
        guard next.isSubset(of: firstWords) else { return nil }
        let freeTextStart = symbols.dropLast().lastIndex { $0 != .dictation }.map { $0 + 1 } ?? 0
        let before = symbols[..<freeTextStart].compactMap { symbol -> String? in
            if case .word(let word) = symbol { word } else { nil }
        }
        guard namesApp(before), let last = Self.lastWordIndex(in: tokens) else { return nil }
        return reading(of: Array(tokens[..<last]))
    }

    /// Where the free text at the end of a hypothesis begins, and what the
    /// hypothesis reads as without it, when it is fewer than
    /// ``shortestEndedFreeText`` phones and the words before them are a
    /// whole sentence ending in an app's name ("send a message to Bobo on
    /// monkey chat" and two phones): the phones are the name's last sound
    /// ("… ch | aa t"), as its path placed it, not a message begun. Nil
    /// otherwise. (After other words, "send a text to little bobo | on",
    /// the phones are a word of a sentence the person has not finished.)
    func nameTail(_ tokens: [String]) -> (start: Int, reading: SentenceReading)? {
        guard let symbols = Self.symbols(of: tokens) else { return nil }
        let phones = symbols.reversed().prefix { $0 == .dictation }.count
        guard (1..<Self.shortestEndedFreeText).contains(phones) else { return nil }
        let before = symbols.dropLast(phones)
        guard appNames.contains(where: { name in before.suffix(name.count).elementsEqual(name.map { .word($0) }) }),
              let last = Self.lastWordIndex(in: tokens) else { return nil }
        let reading = reading(of: Array(tokens[...last]))
        guard case .complete = reading else { return nil }
        return (last + 1, reading)
    }

    /// The index of a hypothesis's last word of the grammar (not free
    /// text, a filler or a silence).
    private static func lastWordIndex(in tokens: [String]) -> Int? {
        tokens.lastIndex { PhoneLoop.kind(of: $0) == nil && PocketSphinxDecoder.spokenWord($0) != nil }
    }

    /// A hypothesis's tokens as the automaton's symbols (fillers and
    /// silences left out); nil when it holds words of the garbage loop.
    private static func symbols(of tokens: [String]) -> [WordAutomaton.Symbol]? {
        var symbols: [WordAutomaton.Symbol] = []
        for token in tokens {
            switch PhoneLoop.kind(of: token) {
            case .garbage: return nil
            case .dictation: symbols.append(.dictation)
            case nil:
                if let word = PocketSphinxDecoder.spokenWord(token) { symbols.append(.word(word)) }
            }
        }
        return symbols
    }

    /// What `read` makes of `symbols`, or, when that is nil, of them
    /// without a leading phrase ("hey siri") they begin with.
    private func readingPastLeadingPhrase<T>(_ symbols: [WordAutomaton.Symbol],
                                             _ read: (ArraySlice<WordAutomaton.Symbol>) -> T?) -> T? {
        if let result = read(symbols[...]) { return result }
        for phrase in leadingPhrases where symbols.starts(with: phrase.map { .word($0) }) {
            if let result = read(symbols.dropFirst(phrase.count)) { return result }
        }
        return nil
    }

    /// What may follow `symbols` in the grammar, a leading phrase allowed
    /// before them; nil when they begin no sentence.
    private func continuations(of symbols: [WordAutomaton.Symbol]) -> Set<WordAutomaton.Symbol>? {
        readingPastLeadingPhrase(symbols) { automaton.continuations(of: $0) }
    }

    /// The same for grammars the decoder searches the same way: a new
    /// assistant over the same apps and vocabulary reuses the decoder's
    /// search instead of rebuilding it.
    let searchKey: Int

    /// States and transitions of the search (dictation counted once).
    public var searchSize: (states: Int, transitions: Int) {
        (automaton.stateCount, automaton.transitionCount)
    }

    /// Phones of free text below which a sentence ending in it is unfinished.
    static let shortestEndedFreeText = 4
    /// Phones of free text below which a run of it holds no words: in the
    /// fixtures, a run of one phone was the tail of the grammar word before
    /// it, where the n-gram pass found a word all the same.
    static let shortestFreeText = 2

    /// Whether a hypothesis — pocketsphinx's tokens, free text as phone-loop
    /// pseudo-words — is a whole sentence of the grammar: what lets a short
    /// pause end the utterance. A sentence ending in free text is
    /// ``SentenceReading/endsInFreeText(likelyEnded:)`` (not yet judged).
    /// A leading phrase ("hey hark") may come first; fillers and silences
    /// are skipped; anything of the garbage loop is never a sentence.
    ///
    /// Free text of fewer than ``shortestEndedFreeText`` phones has hardly
    /// begun, and the sentence is ``SentenceReading/unfinished``: at a
    /// pause, a word of the command is often read as free text ("send a
    /// text to little bobo on …", the message taking "on"), which ended
    /// the utterance there.
    func reading(of tokens: [String]) -> SentenceReading {
        guard let symbols = Self.symbols(of: tokens), let last = symbols.last else { return .notASentence }
        let best = readingPastLeadingPhrase(symbols) { part -> SentenceReading? in
            let reading = automaton.reading(of: part)
            return reading == .notASentence ? nil : reading
        } ?? .notASentence
        // Free text at the end: whether it is finished is for the dictation
        // to judge (``PocketSphinxDecoder`` does, with its language model).
        if last == .dictation, case .complete = best {
            let phones = symbols.reversed().prefix { $0 == .dictation }.count
            return phones < Self.shortestEndedFreeText ? .unfinished : .endsInFreeText(likelyEnded: false)
        }
        return best
    }
}
