import HarkIntents

/// A slot filled by a parse.
public struct SlotValue: Sendable, Equatable, Hashable {
    public var name: String
    /// The words as spoken.
    public var raw: String
    /// The canonical value (a list synonym's value), or the raw words.
    public var value: String
    /// Whether the words were read as free text (a `text` slot, or a
    /// `{slot or text}` use given words that are none of the list's).
    public var isFreeText: Bool

    public init(name: String, raw: String, value: String, isFreeText: Bool = false) {
        self.name = name
        self.raw = raw
        self.value = value
        self.isFreeText = isFreeText
    }
}

/// One way of reading a sentence: which app and intent, with which slots.
public struct Parse: Sendable, Equatable {
    public var app: String
    public var intent: String
    public var slots: [SlotValue]
    /// Lower is better: words skipped and free-text words cost more than
    /// words the grammar names.
    public var cost: Double
    /// Input words the parse ignored as filler.
    public var skipped: [String]

    /// The slot values by name (the first when a slot repeats).
    public var slotValues: [String: String] {
        var result: [String: String] = [:]
        for slot in slots where result[slot.name] == nil { result[slot.name] = slot.value }
        return result
    }
}

/// Reads text into ranked parses by walking the intent graph.
///
/// Case and punctuation are ignored, a leading wake phrase ("hey siri") and
/// filler words ("um", "uh") may be skipped, and anything else the grammar
/// cannot account for makes the sentence "not understood" (no parse) rather
/// than a guess.
public struct TextParser: Sendable {
    public let graph: IntentGraph
    /// Words that may be dropped anywhere at a small cost.
    public var fillers: Set<String> = ["um", "uh", "uhm", "er", "erm", "hmm", "ah", "oh", "well", "okay", "ok", "so", "please", "like",
                                       // typed in a chat box: "ngl can u pull up my msgs rn", "... for pizza lol"
                                       "ngl", "tbh", "lol", "lmao", "lowkey", "fr", "rn", "literally", "bro",
                                       // said in a hurry or to soften: "ugh cancel my ride", "pull up my
                                       // packing list real quick", "find my garden club note, dear"
                                       "ugh", "umm", "uhh", "mm", "real", "quick", "quickly", "dear", "yeah"]
    /// Phrases that may open a request and are ignored: the recognizer's,
    /// and typed, other assistants' names said out of habit ("Hey Google,
    /// find my store list in TasksNotes").
    public var wakePhrases: [[String]] = TextParser.standardWakePhrases + TextParser.otherAssistantsWakePhrases
    /// What people say before a request out of habit ("Hey Siri, send a
    /// MonkeyChat message"); the recognizer's request search accepts them too.
    public static let standardWakePhrases: [[String]] = [["hey", "siri"], ["hey", "hark"], ["ok", "hark"], ["siri"], ["hark"]]
    /// Other assistants' wake phrases, read in typed text only: heard, each
    /// would be one more way into every sentence of the search.
    public static let otherAssistantsWakePhrases: [[String]] = [["hey", "google"], ["ok", "google"], ["okay", "google"],
                                                                 ["alexa"], ["hey", "alexa"], ["hey", "cortana"]]

    /// Today and the default currency, for built-in slot types (`date`, `currency`).
    public var valueContext: SpokenValueContext

    static let fillerCost = 0.5
    static let freeTextCost = 0.2
    /// A word of a typed name the slot's list does not have: more than free
    /// text, so a name on the list, or words the grammar reads, win.
    static let typedNameCost = 0.3
    /// A typed separator (a colon, a lone dash) read as nothing: less than
    /// a free word, so free text does not take it as a word, but more than
    /// the grammar's word for it, so a form that sets words apart there
    /// wins over free text running across it ("new list camping - tent,
    /// stove" has a title and tasks, not a title "camping - tent, stove").
    static let separatorSkipCost = 0.1

    /// - Parameters:
    ///   - graph: The compiled grammars.
    ///   - valueContext: What converting dates and amounts needs; the local
    ///     date at each parse and US dollars unless given.
    public init(graph: IntentGraph, valueContext: SpokenValueContext = .current) {
        self.graph = graph
        self.valueContext = valueContext
        start = Frontier(Self.closure([graph.start: Hypothesis(cost: 0, path: nil)], in: graph))
        var byWord: [String: [Int: [Int]]] = [:]
        var anyWord: [Int: [Int]] = [:]
        var name: [Int: [Int]] = [:]
        var typedWord: [Int: [Int]] = [:]
        var typedByWord: [String: [Int: [Int]]] = [:]
        var heardOnly: [String: [Int: Set<Int>]] = [:]
        for (state, arcs) in graph.arcs.enumerated() {
            for (index, arc) in arcs.enumerated() {
                switch arc.label {
                case .word(let word):
                    byWord[word, default: [:]][state, default: []].append(index)
                    if graph.isHeardOnly(state: state, arc: index) { heardOnly[word, default: [:]][state, default: []].insert(index) }
                case .anyWord: anyWord[state, default: []].append(index)
                case .typedName: name[state, default: []].append(index)
                case .typedWord: typedWord[state, default: []].append(index)
                case .typedOnlyWord(let word): typedByWord[word, default: [:]][state, default: []].append(index)
                default: break
                }
            }
        }
        wordArcs = byWord.mapValues(ArcIndices.init)
        anyWordArcs = anyWord
        freeTextStates = Set(anyWord.keys)
        nameArcs = name
        nameStates = Set(name.keys)
        typedWordArcs = typedWord
        typedWordStates = Set(typedWord.keys)
        typedOnlyWordArcs = typedByWord.mapValues(ArcIndices.init)
        // A word heard only somewhere (`(heard: on)`, a handful) is read in
        // typed text from its own merged arcs: its heard arcs less the
        // heard-only ones, and its typed-only arcs.
        typedReadingArcs = heardOnly.reduce(into: [:]) { merged, entry in
            let (word, heardOnlyByState) = entry
            var byState = byWord[word] ?? [:]
            for (state, indices) in heardOnlyByState {
                let kept = byState[state]?.filter { !indices.contains($0) } ?? []
                byState[state] = kept.isEmpty ? nil : kept
            }
            merged[word] = ArcIndices(byState.merging(typedByWord[word] ?? [:]) { ($0 + $1).sorted() })
        }
    }

    /// For one word: state → the indices of that state's arcs reading it,
    /// held in three flat arrays of 32-bit numbers (states in increasing
    /// order). As a dictionary of arrays it was an array object for every
    /// state a word is read in: 3 MB of the sample apps' 72,000 arcs; as
    /// `Int`s, 4.2 MB of the sample apps' 222,000 arcs, 32 bits halve it.
    struct ArcIndices: Sendable {
        /// The states, in increasing order.
        private let stateNumbers: [Int32]
        /// Where each state's indices start in ``indices``; one more than states.
        private let first: [Int32]
        private let indices: [Int32]

        init(_ byState: [Int: [Int]]) {
            let states = byState.keys.sorted()
            var first: [Int32] = [0]
            var indices: [Int32] = []
            first.reserveCapacity(states.count + 1)
            indices.reserveCapacity(byState.values.reduce(0) { $0 + $1.count })
            for state in states {
                indices += byState[state]!.lazy.map { Int32($0) }
                first.append(Int32(indices.count))
            }
            stateNumbers = states.map { Int32($0) }
            self.first = first
            self.indices = indices
        }

        static let none = ArcIndices([:])

        var count: Int { stateNumbers.count }

        /// The states, in increasing order.
        var states: LazyMapSequence<[Int32], Int> { stateNumbers.lazy.map { Int($0) } }

        /// Where in ``arc(at:)`` the indices of `state`'s arcs reading the
        /// word lie; empty for a state that reads it not. Positions, not a
        /// slice: the parser's innermost loop then copies no array.
        func positions(of state: Int) -> Range<Int> {
            var low = 0, high = stateNumbers.count
            let wanted = Int32(state)
            while low < high {
                let mid = (low + high) / 2
                if stateNumbers[mid] < wanted { low = mid + 1 } else { high = mid }
            }
            guard low < stateNumbers.count, stateNumbers[low] == wanted else { return 0..<0 }
            return Int(first[low])..<Int(first[low + 1])
        }

        /// The arc index at `position` (from ``positions(of:)``).
        func arc(at position: Int) -> Int { Int(indices[position]) }
    }

    /// Word → state → the indices of that state's arcs reading the word.
    private let wordArcs: [String: ArcIndices]

    /// Every word some arc reads (the grammars' words and their lists'),
    /// for telling a typo from a word the grammars have.
    public var words: some Collection<String> { wordArcs.keys }
    /// Whether some arc reads `word`.
    public func knows(_ word: String) -> Bool { wordArcs[word] != nil }
    /// State → the indices of its free-text arcs.
    private let anyWordArcs: [Int: [Int]]
    /// The states with free-text arcs: every word moves them on.
    private let freeTextStates: Set<Int>
    /// State → the indices of its typed-name arcs.
    private let nameArcs: [Int: [Int]]
    /// The states with typed-name arcs: a typed word of a name moves them on.
    private let nameStates: Set<Int>
    /// State → the indices of its arcs of free text only typed text takes.
    private let typedWordArcs: [Int: [Int]]
    /// The states with such arcs: every typed word moves them on.
    private let typedWordStates: Set<Int>
    /// Word → state → the indices of that state's `(typed: ...)` arcs
    /// reading it: a typed token reads these besides its heard arcs. Held
    /// apart, not merged with ``wordArcs`` ("to" is typed-only in one
    /// sentence and heard in thousands of states: merged, 1.4 MB of copies).
    private let typedOnlyWordArcs: [String: ArcIndices]
    /// For the words some `(heard: ...)` arc reads: state → the indices of
    /// that state's arcs reading it in typed text (heard and typed-only
    /// arcs, less the heard-only ones), instead of ``wordArcs`` and
    /// ``typedOnlyWordArcs``.
    private let typedReadingArcs: [String: ArcIndices]

    /// The states a sentence may start in (the start state's closure: 2,535
    /// of the sample apps' 16,617 states), worked out once instead of for
    /// every sentence, where it took most of a short sentence's time.
    private let start: Frontier

    /// The words of `text` as the grammar spells them: lower-cased,
    /// punctuation removed, camel case split and abbreviations read out
    /// ("MonkeyChat, Bobo Jr.!" → ["monkey", "chat", "bobo", "junior"]).
    public static func tokenize(_ text: String) -> [String] {
        SpokenForm.words(of: text)
    }

    /// The parses of `text`, best first, at most one per app and intent;
    /// empty when the text is not understood.
    ///
    /// Numbers typed as digits read as spoken too: "25" as "twenty five",
    /// "$3.50" as "three dollars fifty", "8:30pm" as "eight thirty p m",
    /// "3rd" as "third". A free-text slot's value is the text as it was
    /// typed, its case, digits and inner punctuation kept ("I'm at Pier 39,
    /// gate B"; the punctuation around it is dropped), with a lone
    /// lower-case "i" written "I" (``WrittenForm``).
    public func parse(_ text: String) -> [Parse] {
        var units = TypedNumbers.units(of: text)
        for phrase in wakePhrases {
            let words = units.prefix(phrase.count).compactMap { $0.readings.count == 1 && $0.readings[0].count == 1 ? $0.readings[0][0] : nil }
            if words == phrase, units.count > phrase.count {
                units.removeFirst(phrase.count)
                break
            }
        }
        return parse(readings: units.map(\.readings), typed: Typed(text: text, sources: units.map(\.source)))
    }

    /// The parses of already tokenised words, best first.
    public func parse(tokens: [String]) -> [Parse] {
        parse(readings: tokens.map { [[$0]] }, typed: nil)
    }

    /// The text a sentence was typed as, and where each of its units came from.
    struct Typed {
        let text: String
        let sources: [Range<String.Index>]

        /// The typed text of units `first...last`, without the punctuation
        /// around it: a "?" at the end is as likely the request's ("Can
        /// MonkeyChat tell Bobo the game starts at six?") as the message's.
        func text(of units: ClosedRange<Int>) -> String {
            TypedNumbers.trimPunctuation(String(text[sources[units.lowerBound].lowerBound..<sources[units.upperBound].upperBound]))
        }

        /// Whether unit `unit`, read as `readings`, can be (part of) a name
        /// no list has: typed with a capital ("Zuzu", "Mary-Ann"), letters
        /// only, not the sentence's first word (whose capital says nothing)
        /// and not "I", "I'm", ….
        func isName(_ unit: Int, readings: [[String]]) -> Bool {
            guard unit > 0, readings.count == 1, let first = text[sources[unit]].first(where: { $0.isLetter }),
                  first.isUppercase, text[sources[unit]].first.map({ $0.isLetter || $0 == "\"" || $0 == "'" }) == true
            else { return false }
            return readings[0].allSatisfy { token in
                !token.isEmpty && token.allSatisfy { $0.isLetter || $0 == "'" } && !Self.notNames.contains(token)
            }
        }

        /// Whether unit `unit` is a name no list has, with the possessive
        /// ("Zuzu's"): read as the name, then the grammar's "'s"
        /// (``TypedNumbers``'s second reading of a word ending in "'s").
        func isPossessiveName(_ unit: Int, readings: [[String]]) -> Bool {
            guard readings.count == 2, readings[1].count == 2, readings[1][1] == "'s" else { return false }
            return isName(unit, readings: [[readings[1][0]]])
        }

        private static let notNames: Set<String> = ["i", "i'm", "i'll", "i've", "i'd"]
    }

    /// The parses of a sentence whose units each have one or more readings
    /// (a typed number: as typed, or as its spoken words).
    func parse(readings units: [[[String]]], typed: Typed?) -> [Parse] {
        guard !units.isEmpty, graph.stateCount > 0 else { return [] }
        var frontier = start
        for (unit, readings) in units.enumerated() {
            var merged: [Int: Hypothesis] = [:]
            let isName = typed?.isName(unit, readings: readings) ?? false
            let isPossessiveName = !isName && (typed?.isPossessiveName(unit, readings: readings) ?? false)
            for (index, reading) in readings.enumerated() {
                var current = frontier
                if reading.isEmpty {
                    current = Frontier(frontier.states.mapValues { Hypothesis(cost: $0.cost + Self.separatorSkipCost, path: $0.path) })
                }
                for (position, token) in reading.enumerated() {
                    let name = isName || (isPossessiveName && index == 1 && position == 0)
                    current = Frontier(step(current, token, unit: unit, typed: typed != nil, isName: name))
                    if current.states.isEmpty { break }
                }
                for (state, hyp) in current.states where merged[state].map({ hyp.cost < $0.cost }) ?? true {
                    merged[state] = hyp
                }
            }
            if merged.isEmpty { return [] }
            frontier = Frontier(merged)
        }
        var best: [IntentKey: Parse] = [:]
        for state in frontier.order {
            guard let key = graph.finals[state], let hyp = frontier.states[state],
                  let parse = makeParse(key: key, hypothesis: hyp, typed: typed) else { continue }
            if let existing = best[key], existing.cost <= parse.cost { continue }
            best[key] = parse
        }
        return best.values.sorted { ($0.cost, $0.app, $0.intent) < ($1.cost, $1.app, $1.intent) }
    }

    /// The states reachable by reading one word, with their cheapest paths.
    /// States are visited in order so that ties always break the same way.
    private func step(_ frontier: Frontier, _ token: String, unit: Int, typed: Bool, isName: Bool) -> [Int: Hypothesis] {
        var next: [Int: Hypothesis] = [:]
        func offer(_ state: Int, _ hyp: Hypothesis) {
            if let existing = next[state], existing.cost <= hyp.cost { return }
            next[state] = hyp
        }
        // Typed, a token reads its heard arcs but the heard-only ones, and
        // its typed-only arcs.
        let merged = typed ? typedReadingArcs[token] : nil
        let reading = merged ?? wordArcs[token] ?? ArcIndices.none
        let typedReading = typed && merged == nil ? typedOnlyWordArcs[token] : nil
        let filler = fillers.contains(token)
        // Only states with an arc that reads the token (or any word) move on,
        // unless the token is a filler, which every state may skip. They are
        // visited in increasing order, each state's arcs in their order, as
        // a walk over every state and arc would, so ties break the same way.
        let visited: [Int]
        let names = isName ? nameStates : [], typedFree = typed ? typedWordStates : []
        if filler || reading.count + (typedReading?.count ?? 0) + freeTextStates.count + names.count + typedFree.count >= frontier.order.count {
            visited = frontier.order
        } else {
            var states = freeTextStates.union(reading.states)
            if let typedReading { states.formUnion(typedReading.states) }
            visited = states.union(names).union(typedFree).filter { frontier.states[$0] != nil }.sorted()
        }
        for state in visited {
            guard let hyp = frontier.states[state] else { continue }
            let heardWords = reading.positions(of: state)
            let typedOnlyWords = typedReading.map { typedReading in typedReading.positions(of: state).map(typedReading.arc(at:)) } ?? []
            let free = anyWordArcs[state] ?? []
            let name = isName ? nameArcs[state] ?? [] : [], typedOnly = typed ? typedWordArcs[state] ?? [] : []
            if !heardWords.isEmpty || !free.isEmpty || !name.isEmpty || !typedOnly.isEmpty || !typedOnlyWords.isEmpty {
                let arcs = graph.arcs[state]
                func follow(_ index: Int) {
                    let arc = arcs[index]
                    let cost: Double, step: PathNode.Step
                    switch arc.label {
                    case .anyWord, .typedWord: (cost, step) = (hyp.cost + Self.freeTextCost, .freeWord(token, unit: unit))
                    case .typedName: (cost, step) = (hyp.cost + Self.typedNameCost, .freeWord(token, unit: unit))
                    default: (cost, step) = (hyp.cost, .word(token, unit: unit))
                    }
                    offer(arc.to, Hypothesis(cost: cost, path: PathNode(step, hyp.path)))
                }
                // Most states read only the word's heard arcs: no array,
                // concatenation or sort then.
                let others = free + name + typedOnly + typedOnlyWords
                if others.isEmpty {
                    for position in heardWords { follow(reading.arc(at: position)) }
                } else {
                    (heardWords.map(reading.arc(at:)) + others).sorted().forEach(follow)
                }
            }
            if filler {
                offer(state, Hypothesis(cost: hyp.cost + Self.fillerCost, path: PathNode(.skip(token), hyp.path)))
            }
        }
        return next.isEmpty ? next : Self.closure(next, in: graph)
    }

    /// States with their cheapest paths, and the states in increasing
    /// order: the order they are visited in, so that ties always break the
    /// same way.
    struct Frontier: Sendable {
        let states: [Int: Hypothesis]
        let order: [Int]
        init(_ states: [Int: Hypothesis]) {
            self.states = states
            order = states.keys.sorted()
        }
    }

    // MARK: - Search

    final class PathNode: @unchecked Sendable {
        /// A word read, with the number of the unit of the sentence it is in.
        enum Step { case word(String, unit: Int), freeWord(String, unit: Int), skip(String), tag(ArcLabel) }
        let step: Step
        let parent: PathNode?
        init(_ step: Step, _ parent: PathNode?) {
            self.step = step
            self.parent = parent
        }
    }

    struct Hypothesis: Sendable {
        var cost: Double
        var path: PathNode?
    }

    /// Follows arcs that consume no word, keeping the cheapest way to each state.
    private static func closure(_ seeds: [Int: Hypothesis], in graph: IntentGraph) -> [Int: Hypothesis] {
        var best = seeds
        var queue = Array(seeds.keys.sorted().reversed())
        while let state = queue.popLast() {
            guard let hyp = best[state] else { continue }
            for arc in graph.arcs[state] where !arc.label.consumesWord {
                let path: PathNode? = arc.label == .epsilon ? hyp.path : PathNode(.tag(arc.label), hyp.path)
                if let existing = best[arc.to], existing.cost <= hyp.cost { continue }
                best[arc.to] = Hypothesis(cost: hyp.cost, path: path)
                queue.append(arc.to)
            }
        }
        return best
    }

    /// Sounds of hesitation, never words of free text at its ends: "text
    /// Bobo, uh, did you feed the cat" says "did you feed the cat".
    /// Only these: "okay", "so", "like" or "well" may open a message.
    public static let hesitations: Set<String> = ["um", "uh", "uhm", "umm", "uhh", "er", "erm", "hmm", "mm"]

    /// Drops hesitations from both ends of free text's words (and the typed
    /// units they are in), unless nothing else is left.
    static func trimHesitations(_ words: inout [String], _ units: inout [Int]) {
        guard words.count == units.count, words.contains(where: { !hesitations.contains($0) }) else { return }
        while let first = words.first, hesitations.contains(first) { words.removeFirst(); units.removeFirst() }
        while let last = words.last, hesitations.contains(last) { words.removeLast(); units.removeLast() }
    }

    /// Courtesy said to Hark at the end of a request, never the end of a
    /// list's title, a task or a note: "start a list for the church bake
    /// sale please", "… the theatre tickets, dear", "… thank you ever so much".
    /// Not "thank you" or "thanks" alone ("remind me to say thank you").
    public static let courtesyEndings: [[String]] = [
        ["please"], ["dear"], ["if", "you", "please"], ["thank", "you", "dear"], ["thanks", "dear"],
        ["thank", "you", "very", "much"], ["thank", "you", "so", "much"], ["thank", "you", "ever", "so", "much"],
        ["thanks", "a", "lot"], ["thanks", "so", "much"], ["thanks", "very", "much"], ["many", "thanks"],
    ]

    /// ``courtesyEndings``, the longest first: "thank you dear" before "dear".
    private static let courtesyEndingsLongestFirst = courtesyEndings.sorted { $0.count > $1.count }

    /// Drops courtesy from the end of free text's words (and their typed
    /// units), ``courtesyEndings`` one after another, unless nothing else is left.
    static func trimCourtesy(_ words: inout [String], _ units: inout [Int]) {
        guard words.count == units.count else { return }
        while let ending = courtesyEndingsLongestFirst.first(where: { words.count > $0.count && words.suffix($0.count).elementsEqual($0) }) {
            words.removeLast(ending.count); units.removeLast(ending.count)
        }
    }

    /// The slots of a path; nil when a built-in value does not convert
    /// (such as "february thirtieth").
    private func makeParse(key: IntentKey, hypothesis: Hypothesis, typed: Typed?) -> Parse? {
        var steps: [PathNode.Step] = []
        var node = hypothesis.path
        while let n = node {
            steps.append(n.step)
            node = n.parent
        }
        steps.reverse()

        var slots: [SlotValue] = []
        var skipped: [String] = []
        // Open slots, innermost last: name, words, the units they are in, value tags, free text read.
        var open: [(name: String, words: [String], units: [Int], values: [String], free: Bool)] = []
        for step in steps {
            switch step {
            case .word(let w, let unit):
                for i in open.indices { open[i].words.append(w); open[i].units.append(unit) }
            case .freeWord(let w, let unit):
                for i in open.indices { open[i].words.append(w); open[i].units.append(unit) }
                if !open.isEmpty { open[open.count - 1].free = true }
            case .skip(let w):
                skipped.append(w)
            case .tag(.beginSlot(let name)):
                open.append((name, [], [], [], false))
            case .tag(.value(let tag)):
                if !open.isEmpty { open[open.count - 1].values.append(tag) }
            case .tag(.endSlot(let name)):
                guard let index = open.lastIndex(where: { $0.name == name }) else { continue }
                var slot = open.remove(at: index)
                if slot.free, slot.values.isEmpty {
                    Self.trimHesitations(&slot.words, &slot.units)
                    // A message's words are the sender's to the end ("… come home please").
                    if key.intent != "INSendMessageIntent" { Self.trimCourtesy(&slot.words, &slot.units) }
                }
                let raw = slot.words.joined(separator: " ")
                var value = slot.values.first ?? raw
                if let first = slot.values.first, let type = SpokenValueType(tag: first) {
                    guard let converted = type.canonicalValue(operations: Array(slot.values.dropFirst()),
                                                              context: valueContext) else { return nil }
                    value = converted
                } else if slot.free, slot.values.isEmpty {
                    if let typed, let first = slot.units.first, let last = slot.units.last {
                        value = typed.text(of: first...last)
                        // A name read without its possessive ("Zuzu's" as "zuzu" then "'s").
                        if slot.words.last?.hasSuffix("'s") == false {
                            for suffix in ["'s", "\u{2019}s"] where value.lowercased().hasSuffix(suffix) {
                                value = String(value.dropLast(suffix.count))
                            }
                        }
                    }
                    value = WrittenForm.text(value)
                }
                slots.append(SlotValue(name: name, raw: raw, value: value, isFreeText: slot.free))
            case .tag:
                break
            }
        }
        return Parse(app: key.app, intent: key.intent, slots: slots, cost: hypothesis.cost, skipped: skipped)
    }
}
