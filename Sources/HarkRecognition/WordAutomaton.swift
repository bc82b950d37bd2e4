import HarkGrammar

/// The recognizer's view of an ``IntentGraph``: the same word language with
/// the parser's tags erased, determinised and minimised.
///
/// The intent graph is an NFA built for the parser: every use of a list or
/// rule is its own copy, and tags (intent, slot, value) mark where values
/// start and end. pocketsphinx's FSG search runs one HMM chain per word
/// transition leaving an active state, so the same word reachable from many
/// NFA states ("large" after each of fifty sentence prefixes) is searched
/// many times over, and every epsilon adds null transitions to follow each
/// frame. A minimal DFA over words accepts exactly the same sentences with
/// one transition per distinct (state, word): the search is smaller and
/// faster, and the parser recovers the tags by reading the transcript
/// against the intent graph itself.
///
/// Minimisation is Brzozowski's: determinise the reversed automaton, then
/// determinise its reverse. Both steps are subset constructions; a state
/// budget guards against the exponential worst case, and the caller falls
/// back to the intent graph's own shape when it is exceeded.
struct WordAutomaton: Hashable {
    /// What a transition consumes.
    enum Symbol: Hashable, Comparable {
        /// One word of the grammar.
        case word(String)
        /// One word of dictation (a free-text slot).
        case dictation
    }

    struct Transition: Hashable {
        var symbol: Symbol
        var to: Int
    }

    /// Outgoing transitions per state, sorted by symbol.
    var transitions: [[Transition]]
    /// Moves that consume nothing: none once minimised.
    var epsilons: [[Int]]
    var start: Int
    var finals: Set<Int>

    var stateCount: Int { transitions.count }
    var transitionCount: Int { transitions.reduce(0) { $0 + $1.count } }

    /// The minimal deterministic automaton of `graph`'s word language, or
    /// nil when a step would need more than `budget` states.
    init?(minimizing graph: IntentGraph, budget: Int = 200_000) {
        let nfa = NFA(graph)
        guard let dfa = nfa.determinized(budget: budget),
              let minimal = dfa.reversed().determinized(budget: budget)?.reversed().determinized(budget: budget)
        else { return nil }
        self = minimal.automaton()
    }

    /// `graph`'s word language in the graph's own shape: tags become
    /// epsilon moves. The fallback when minimising would be too costly.
    init(unminimized graph: IntentGraph) {
        self = NFA(graph).automaton()
    }

    init(transitions: [[Transition]], epsilons: [[Int]]? = nil, start: Int, finals: Set<Int>) {
        self.transitions = transitions
        self.epsilons = epsilons ?? Array(repeating: [], count: transitions.count)
        self.start = start
        self.finals = finals
    }

    /// `states` and every state their epsilon moves reach.
    private func epsilonClosure(_ states: Set<Int>) -> Set<Int> {
        var result = states
        var stack = Array(states)
        while let s = stack.popLast() {
            for t in epsilons[s] where result.insert(t).inserted { stack.append(t) }
        }
        return result
    }

    /// Whether the automaton accepts `words`; dictation accepts any word.
    /// For tests and diagnostics.
    func accepts(_ words: [String]) -> Bool {
        var current = epsilonClosure([start])
        for word in words {
            var next: Set<Int> = []
            for s in current {
                for t in transitions[s] where t.symbol == .word(word) || t.symbol == .dictation { next.insert(t.to) }
            }
            current = epsilonClosure(next)
        }
        return !current.isDisjoint(with: finals)
    }

    /// The states reached by exactly `symbols` (a dictation symbol only
    /// where the automaton has free text, a word only where it has that
    /// word); nil when they begin no sentence.
    private func states(after symbols: some Sequence<Symbol>) -> Set<Int>? {
        var current = epsilonClosure([start])
        for symbol in symbols {
            var next: Set<Int> = []
            for s in current {
                for t in transitions[s] where t.symbol == symbol { next.insert(t.to) }
            }
            if next.isEmpty { return nil }
            current = epsilonClosure(next)
        }
        return current
    }

    /// What may come next after exactly `symbols`; nil when they begin no sentence.
    func continuations(of symbols: some Sequence<Symbol>) -> Set<Symbol>? {
        states(after: symbols).map { Set($0.flatMap { transitions[$0].map(\.symbol) }) }
    }

    /// Whether the automaton accepts exactly `symbols` (a dictation symbol
    /// only where the automaton has free text, a word only where it has
    /// that word), and if so whether a longer sentence could follow.
    func reading(of symbols: some Sequence<Symbol>) -> SentenceReading {
        guard let current = states(after: symbols) else { return .notASentence }
        guard !current.isDisjoint(with: finals) else { return .unfinished }
        return current.contains { !transitions[$0].isEmpty } ? .complete(extendable: true) : .complete(extendable: false)
    }

    /// The same automaton where a sentence ending in one of `names` may
    /// go on with one of `endings` ("… with monkey ride no scratch that").
    ///
    /// Each state such a sentence ends in gets a copy that also begins the
    /// endings, and the last word of each name's path leads there instead;
    /// the endings' later words are one small automaton that every copy
    /// shares. Written into the grammar after each name instead, the
    /// endings took every place the name is used in (mid-sentence too,
    /// "… on monkey chat saying …"), each its own copy after minimising:
    /// the sample apps' grammar grew by 300 states and 1,600 transitions,
    /// about 2.4 MB of search. A copy is needed: the minimal automaton
    /// merges states by what may follow, so the state after "… on monkey
    /// chat" at a sentence's end is the one nearly every sentence ends in.
    ///
    /// A path of a name's words into a state (found word by word back from
    /// its last) is taken as the name; where the same words lead there
    /// otherwise, the endings follow them too.
    func ending(after names: [[String]], with endings: [[String]]) -> WordAutomaton {
        let endings = endings.filter { !$0.isEmpty }
        let names = names.filter { !$0.isEmpty }
        guard !endings.isEmpty, !names.isEmpty else { return self }
        var incoming = Array(repeating: [(from: Int, word: String)](), count: stateCount)
        for (from, moves) in transitions.enumerated() {
            for move in moves { if case .word(let word) = move.symbol { incoming[move.to].append((from, word)) } }
        }
        // Whether some path of exactly `words` leads into `state`.
        func entered(_ state: Int, by words: ArraySlice<String>) -> Bool {
            guard let last = words.last else { return true }
            return incoming[state].contains { $0.word == last && entered($0.from, by: words.dropLast()) }
        }
        // The transitions that end a name and may end the sentence.
        var redirected: [(from: Int, index: Int)] = []
        for (from, moves) in transitions.enumerated() {
            for (index, move) in moves.enumerated() where finals.contains(move.to) {
                guard case .word(let word) = move.symbol else { continue }
                if names.contains(where: { $0.last == word && entered(from, by: $0.dropLast()) }) {
                    redirected.append((from, index))
                }
            }
        }
        guard !redirected.isEmpty else { return self }

        // The endings as a trie, then states with the same moves merged
        // (the minimal automaton of a finite language); the root is not a
        // state: its moves begin each copy.
        var trie: [[String: Int]] = [[:]]
        var trieFinals: Set<Int> = []
        for ending in endings {
            var state = 0
            for word in ending {
                if let next = trie[state][word] { state = next; continue }
                trie.append([:])
                trie[state][word] = trie.count - 1
                state = trie.count - 1
            }
            trieFinals.insert(state)
        }
        struct Signature: Hashable { var accepts: Bool; var moves: [Transition] }
        var result = self
        var merged: [Int: Int] = [:]
        var bySignature: [Signature: Int] = [:]
        var first: [Transition] = []
        // Children before parents: every trie state is numbered after its parent.
        for state in trie.indices.reversed() {
            let moves = trie[state].map { Transition(symbol: .word($0.key), to: merged[$0.value]!) }.sorted { $0.symbol < $1.symbol }
            if state == 0 { first = moves; break }
            let signature = Signature(accepts: trieFinals.contains(state), moves: moves)
            if let same = bySignature[signature] { merged[state] = same; continue }
            let new = result.transitions.count
            result.transitions.append(moves)
            result.epsilons.append([])
            if signature.accepts { result.finals.insert(new) }
            bySignature[signature] = new
            merged[state] = new
        }
        var copies: [Int: Int] = [:]
        for (from, index) in redirected {
            let end = transitions[from][index].to
            if copies[end] == nil {
                copies[end] = result.transitions.count
                result.transitions.append((transitions[end] + first).sorted { $0.symbol < $1.symbol })
                result.epsilons.append(epsilons[end])
                result.finals.insert(copies[end]!)
            }
            result.transitions[from][index].to = copies[end]!
        }
        return result
    }
}

/// A nondeterministic automaton over ``WordAutomaton/Symbol`` with epsilon
/// moves and any number of start states: the form every step of the
/// minimisation works on.
private struct NFA {
    var moves: [[(symbol: WordAutomaton.Symbol, to: Int)]]
    var epsilons: [[Int]]
    var starts: [Int]
    var finals: Set<Int>

    init(moves: [[(symbol: WordAutomaton.Symbol, to: Int)]], epsilons: [[Int]], starts: [Int], finals: Set<Int>) {
        self.moves = moves
        self.epsilons = epsilons
        self.starts = starts
        self.finals = finals
    }

    /// The intent graph with its tags as epsilon moves.
    init(_ graph: IntentGraph) {
        var moves = Array(repeating: [(symbol: WordAutomaton.Symbol, to: Int)](), count: graph.stateCount)
        var epsilons = Array(repeating: [Int](), count: graph.stateCount)
        for (from, arcs) in graph.arcs.enumerated() {
            // Typed text only: no words to hear it by.
            for arc in arcs where !arc.label.isTypedOnly {
                switch arc.label {
                case .word(let w): moves[from].append((.word(w), arc.to))
                case .anyWord: moves[from].append((.dictation, arc.to))
                default: epsilons[from].append(arc.to)
                }
            }
        }
        self.init(moves: moves, epsilons: epsilons, starts: [graph.start], finals: Set(graph.finals.keys))
    }

    /// The reverse automaton: every move turned around, finals as starts.
    func reversed() -> NFA {
        var moves = Array(repeating: [(symbol: WordAutomaton.Symbol, to: Int)](), count: self.moves.count)
        var epsilons = Array(repeating: [Int](), count: self.moves.count)
        for from in self.moves.indices {
            for move in self.moves[from] { moves[move.to].append((move.symbol, from)) }
            for to in self.epsilons[from] { epsilons[to].append(from) }
        }
        return NFA(moves: moves, epsilons: epsilons, starts: finals.sorted(), finals: Set(starts))
    }

    /// Every state reachable from `states` by epsilon moves, sorted.
    private func closure(_ states: some Sequence<Int>, seen: inout [Bool]) -> [Int] {
        var stack = Array(states)
        var result: [Int] = []
        for s in stack where !seen[s] { seen[s] = true; result.append(s) }
        stack = result
        while let s = stack.popLast() {
            for t in epsilons[s] where !seen[t] {
                seen[t] = true
                result.append(t)
                stack.append(t)
            }
        }
        for s in result { seen[s] = false }
        // Only states that consume a word or accept tell subsets apart.
        return result.filter { !moves[$0].isEmpty || finals.contains($0) }.sorted()
    }

    /// The subset construction; nil past `budget` states.
    func determinized(budget: Int) -> NFA? {
        var seen = Array(repeating: false, count: moves.count)
        var index: [[Int]: Int] = [:]
        var subsets: [[Int]] = []
        var result = NFA(moves: [], epsilons: [], starts: [0], finals: [])

        func intern(_ subset: [Int]) -> Int? {
            if let i = index[subset] { return i }
            guard subsets.count < budget else { return nil }
            index[subset] = subsets.count
            subsets.append(subset)
            result.moves.append([])
            result.epsilons.append([])
            if subset.contains(where: finals.contains) { result.finals.insert(subsets.count - 1) }
            return subsets.count - 1
        }

        guard intern(closure(starts, seen: &seen)) != nil else { return nil }
        var next = 0
        while next < subsets.count {
            var targets: [WordAutomaton.Symbol: [Int]] = [:]
            for s in subsets[next] {
                for move in moves[s] { targets[move.symbol, default: []].append(move.to) }
            }
            for symbol in targets.keys.sorted() {
                let subset = closure(targets[symbol]!, seen: &seen)
                // A dead end (no word leaves it, not final) is no state at all.
                guard !subset.isEmpty else { continue }
                guard let to = intern(subset) else { return nil }
                result.moves[next].append((symbol, to))
            }
            next += 1
        }
        return result
    }

    /// The automaton as a ``WordAutomaton`` (one start state).
    func automaton() -> WordAutomaton {
        WordAutomaton(
            transitions: moves.map { $0.map { WordAutomaton.Transition(symbol: $0.symbol, to: $0.to) } },
            epsilons: epsilons, start: starts[0], finals: finals)
    }
}
