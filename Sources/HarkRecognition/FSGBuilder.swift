import CPocketSphinx
import HarkGrammar

/// Turns a ``WordAutomaton`` into a pocketsphinx finite-state grammar.
///
/// Word transitions stay word transitions; a dictation transition becomes
/// one transition per phone of the free-text ``PhoneLoop``, each paying the
/// free-text penalty; epsilon moves and acceptance become null transitions
/// (the FSG has a single final state). Each state's outgoing transitions
/// share its probability mass equally, as pocketsphinx's own JSGF compiler
/// does for unweighted alternatives.
///
/// Leading phrases get a start state of their own: half its mass goes
/// straight to the grammar, half to the phrases, each a chain of words
/// ending where the grammar starts.
///
/// With a rejection penalty, a garbage branch runs beside the grammar from
/// the start state: a loop of garbage phones to the final state, each phone
/// paying the penalty.
///
/// Shared continuations are searched once (``factored(_:minimumShared:)``):
/// where every move of one state is also a move of another (optional words
/// leave such pairs: the start state and the state after "hey" differ by
/// "hey" alone), the larger state keeps its own moves and reaches the
/// smaller one's by a null transition. pocketsphinx builds one lexicon tree
/// per state over the words leaving it, so the grammar's openings, repeated
/// in the minimal automaton after every combination of optional lead-ins,
/// are built and searched once. Every sentence keeps its probability.
enum FSGBuilder {
    struct Settings {
        /// Probability factor per phone of free text.
        var freeTextPhonePenalty: Double
        /// Probability factor per phone of the garbage branch; no branch when nil.
        var rejectionPhonePenalty: Double?
        /// The phones the model can pronounce as pseudo-words.
        var phones: [String]
        /// Phrases that may precede any sentence ("hey siri").
        var leadingPhrases: [[String]] = []
    }

    static func build(_ automaton: WordAutomaton, settings: Settings, name: String, decoder: OpaquePointer) throws -> UnsafeMutablePointer<fsg_model_t> {
        let lmath = ps_get_logmath(decoder)
        let config = ps_get_config(decoder)
        let lw = Float(cmd_ln_float_r(config, "-lw"))
        // One extra state: the single final state pocketsphinx wants; one
        // more for the garbage loop.
        let finalState = automaton.stateCount
        let garbageState = automaton.stateCount + 1
        let grammarStates = automaton.stateCount + (settings.rejectionPhonePenalty == nil ? 1 : 2)
        // The leading phrases' start, then one state after each of their words but the last.
        let leadStart = grammarStates
        let leadWords = settings.leadingPhrases.reduce(0) { $0 + $1.count - 1 }
        let moves = (0..<automaton.stateCount).map { from in
            Self.moves(of: automaton, from, garbage: from == automaton.start && settings.rejectionPhonePenalty != nil)
        }
        let (plan, blocks) = Self.sharingBlocks(Self.factored(moves), stateCount: automaton.stateCount)
        // The shared blocks' states come last.
        let blockStart = grammarStates + (settings.leadingPhrases.isEmpty ? 0 : 1 + leadWords)
        let stateCount = blockStart + blocks.count
        func fsgState(_ state: Int) -> Int32 {
            Int32(state < automaton.stateCount ? state : blockStart + state - automaton.stateCount)
        }
        func size(_ state: Int) -> Int {
            state < automaton.stateCount ? moves[state].count : blocks[state - automaton.stateCount].count
        }
        guard let fsg = fsg_model_init(name, lmath, lw, Int32(stateCount)) else {
            throw RecognitionError("pocketsphinx could not allocate a grammar of \(stateCount) states")
        }
        fsg.pointee.start_state = Int32(settings.leadingPhrases.isEmpty ? automaton.start : leadStart)
        fsg.pointee.final_state = Int32(finalState)

        var wordIDs: [String: Int32] = [:]
        func wordID(_ w: String) -> Int32 {
            if let id = wordIDs[w] { return id }
            let id = fsg_model_word_add(fsg, w)
            wordIDs[w] = id
            return id
        }
        let phoneShare = 1.0 / Double(settings.phones.count)
        var hasEpsilons = false
        if !settings.leadingPhrases.isEmpty {
            fsg_model_null_trans_add(fsg, Int32(leadStart), Int32(automaton.start), logmath_log(lmath, 0.5))
            hasEpsilons = true
            let phraseLogp = logmath_log(lmath, 0.5 / Double(settings.leadingPhrases.count))
            var next = leadStart + 1
            for phrase in settings.leadingPhrases {
                var from = leadStart
                for (i, word) in phrase.enumerated() {
                    let last = i == phrase.count - 1
                    let to = last ? automaton.start : next
                    fsg_model_trans_add(fsg, Int32(from), Int32(to), i == 0 ? phraseLogp : 0, wordID(word))
                    if !last { next += 1 }
                    from = to
                }
            }
        }
        for from in 0..<(automaton.stateCount + blocks.count) {
            let fanOut = size(from)
            guard fanOut > 0 else { continue }
            let share = 1.0 / Double(fanOut)
            let logp = logmath_log(lmath, share)
            let (kept, via) = from < automaton.stateCount ? plan[from] : (blocks[from - automaton.stateCount], [])
            // The moves of a state reached by a null transition keep their
            // probability: the null transition carries their share here.
            for shared in via {
                fsg_model_null_trans_add(fsg, fsgState(from), fsgState(shared), logmath_log(lmath, Double(size(shared)) * share))
                hasEpsilons = true
            }
            let from = fsgState(from)
            for move in kept {
                switch move {
                case .final:
                    fsg_model_null_trans_add(fsg, Int32(from), Int32(finalState), logp)
                case .garbage:
                    fsg_model_null_trans_add(fsg, Int32(from), Int32(garbageState), logp)
                case .epsilon(let to):
                    fsg_model_null_trans_add(fsg, Int32(from), Int32(to), logp)
                    hasEpsilons = true
                case .word(let w, let to):
                    fsg_model_trans_add(fsg, Int32(from), Int32(to), logp, wordID(w))
                case .dictation(let to):
                    let logp = logmath_log(lmath, share * phoneShare * settings.freeTextPhonePenalty)
                    for phone in settings.phones {
                        fsg_model_trans_add(fsg, Int32(from), Int32(to), logp, wordID(PhoneLoop.word(phone, .dictation)))
                    }
                }
            }
        }
        if let penalty = settings.rejectionPhonePenalty {
            // Loop or leave, evenly; every phone pays the penalty.
            let logp = logmath_log(lmath, 0.5 * phoneShare * penalty)
            for phone in settings.phones {
                fsg_model_trans_add(fsg, Int32(garbageState), Int32(garbageState), logp, wordID(PhoneLoop.word(phone, .garbage)))
            }
            fsg_model_null_trans_add(fsg, Int32(garbageState), Int32(finalState), logmath_log(lmath, 0.5))
            hasEpsilons = true
        }
        if hasEpsilons { _ = fsg_model_null_trans_closure(fsg, nil) }
        compactTransitionTables(fsg)
        return fsg
    }

    /// Shrinks the hash tables sphinxbase keeps each state's transitions in
    /// to one bucket each, the entries chained in the order the tables gave
    /// them, so every walk over a state's arcs sees the same arcs in the
    /// same order.
    ///
    /// sphinxbase gives every state with transitions a table of at least
    /// 101 buckets of 32 bytes (`hash_table_new(5, ...)` in `fsg_model.c`),
    /// one for its words and one for its null transitions: 11.6 MB for the
    /// sample apps' 3,081 states, most of whose states have a handful of
    /// destinations. Nothing searches the tables by key once the grammar is
    /// built (pocketsphinx's FSG search and lexicon tree only walk them, and
    /// walking an empty bucket costs as much as an arc: the search walks the
    /// arcs of every state it reaches, every frame, for null transitions);
    /// sphinxbase's own later additions (the silence and filler self-loops
    /// the search adds) still find a key by walking the chain.
    ///
    /// The tables are reached through `fsg_model_t.trans`, an array of
    /// `{null_trans, trans}` per state (`trans_list_s`, private to
    /// sphinxbase 5prealpha's `fsg_model.c`). The layout is checked first
    /// against the public arc iterator; if it does not hold, nothing is
    /// changed.
    static func compactTransitionTables(_ fsg: UnsafeMutablePointer<fsg_model_t>) {
        guard let lists = fsg.pointee.trans else { return }
        let tables = UnsafeMutableRawPointer(lists).assumingMemoryBound(to: UnsafeMutablePointer<hash_table_t>?.self)
        let states = Int(fsg.pointee.n_state)
        for state in 0..<states where arcs(of: fsg, state) != arcsInTables(tables[2 * state], tables[2 * state + 1]) {
            return
        }
        for slot in 0..<(2 * states) {
            if let table = tables[slot] { HashTables.chainInOneBucket(table) }
        }
    }

    /// The number of arcs (a word transition, or a null one) out of `state`, by sphinxbase's iterator.
    static func arcs(of fsg: UnsafeMutablePointer<fsg_model_t>, _ state: Int) -> Int {
        var count = 0
        var itor = fsg_model_arcs(fsg, Int32(state))
        while itor != nil {
            count += 1
            itor = fsg_arciter_next(itor)
        }
        return count
    }

    /// The arcs in a state's two tables: one per null transition (keyed by
    /// destination), a list of words per word destination.
    private static func arcsInTables(_ nulls: UnsafeMutablePointer<hash_table_t>?, _ words: UnsafeMutablePointer<hash_table_t>?) -> Int {
        var count = 0
        if let nulls { count += HashTables.entries(of: nulls).count }
        if let words {
            for entry in HashTables.entries(of: words) {
                var node = entry.val?.assumingMemoryBound(to: gnode_t.self)
                while let n = node {
                    count += 1
                    node = n.pointee.next
                }
            }
        }
        return count
    }

    /// The plan with moves that many states share, word for word and
    /// destination for destination, searched once: word moves held by
    /// exactly the same states, where sharing them saves at least
    /// `minimumSaved` copies (moves × holders beyond the first), become a
    /// state of their own (numbered from `stateCount` on, in `blocks`),
    /// which each of those states reaches by a null transition instead of
    /// its own copies. Every path keeps its probability, as with
    /// ``factored(_:minimumShared:)``. The bound leaves the rest of the
    /// grammar as it was searched: the next largest sharing in the sample
    /// apps is the numbers' 27 first words in 2 to 8 places (189 copies).
    ///
    /// What it is for: the names of apps that are not installed (`<other_app>`
    /// in the shared `<via>`) follow "on", "with", … in 69 places of the
    /// sample apps' minimal automaton and all end the sentence, so there
    /// they are the same moves; copied into each place, the lexicon tree
    /// grew from 242,314 nodes to 274,344, shared to 262,640.
    static func sharingBlocks(_ plan: [(kept: [Move], via: [Int])], stateCount: Int, minimumSaved: Int = 400)
        -> (plan: [(kept: [Move], via: [Int])], blocks: [[Move]]) {
        var holders: [Move: [Int]] = [:]
        for (state, entry) in plan.enumerated() {
            for move in entry.kept { if case .word = move { holders[move, default: []].append(state) } }
        }
        // Moves grouped by who holds them, in the order the first holder keeps them.
        var groups: [[Int]: [Move]] = [:]
        var order: [[Int]] = []
        for (state, entry) in plan.enumerated() {
            for move in entry.kept {
                guard let held = holders[move], held.count >= 2, held[0] == state else { continue }
                if groups[held] == nil { order.append(held) }
                groups[held, default: []].append(move)
            }
        }
        var plan = plan
        var blocks: [[Move]] = []
        for held in order {
            guard let block = groups[held], block.count * (held.count - 1) >= minimumSaved else { continue }
            let shared = Set(block)
            for state in held {
                plan[state].kept.removeAll { shared.contains($0) }
                plan[state].via.append(stateCount + blocks.count)
            }
            blocks.append(block)
        }
        return (plan, blocks)
    }

    /// One way out of a state.
    enum Move: Hashable {
        case word(String, to: Int)
        case dictation(to: Int)
        case epsilon(to: Int)
        /// Acceptance: the null transition to the FSG's final state.
        case final
        /// The start state's null transition to the garbage loop.
        case garbage
    }

    /// Every way out of `state`, each taking an equal share of its probability.
    static func moves(of automaton: WordAutomaton, _ state: Int, garbage: Bool) -> [Move] {
        var moves: [Move] = automaton.transitions[state].map { transition in
            switch transition.symbol {
            case .word(let w): .word(w, to: transition.to)
            case .dictation: .dictation(to: transition.to)
            }
        }
        moves += automaton.epsilons[state].map { .epsilon(to: $0) }
        if automaton.finals.contains(state) { moves.append(.final) }
        if garbage { moves.append(.garbage) }
        return moves
    }

    /// For each state, the moves it keeps and the states whose moves it
    /// takes by a null transition instead of its own copies: each such
    /// state's moves are all moves of this one (so the language and every
    /// path's probability stay the same), and there are fewer of them (so
    /// null transitions never form a loop). The largest such state is taken
    /// first, then the largest among what is left, while one of at least
    /// `minimumShared` moves fits.
    ///
    /// 8 by measurement, every sample app installed (`HARK_POCKETSPHINX_LOG`
    /// gives the lexicon tree's nodes): sharing down to 2 moves takes the
    /// tree from 250,789 nodes to 136,170, but the search then heard one
    /// fixture ("video call Bobo the Great on MonkeyChat", espeak-gb)
    /// otherwise; pocketsphinx's search is not quite the same over a
    /// differently shaped network of the same sentences. 8 keeps 154,871
    /// nodes and every fixture's reading, barista-dev's 98.7%, and takes
    /// `hark listen` from 190.5 to 177 MiB.
    static func factored(_ moves: [[Move]], minimumShared: Int = 8) -> [(kept: [Move], via: [Int])] {
        let sets = moves.map(Set.init)
        var having: [Move: [Int]] = [:]
        for (state, set) in sets.enumerated() where set.count >= minimumShared {
            for move in set { having[move, default: []].append(state) }
        }
        return moves.indices.map { state in
            var left = sets[state]
            var via: [Int] = []
            while true {
                var best: Int?
                var seen = Set<Int>()
                for move in left {
                    for other in having[move] ?? [] where other != state && seen.insert(other).inserted {
                        // Only states of at least minimumShared moves are in `having`.
                        let size = sets[other].count
                        guard size < sets[state].count else { continue }
                        // The largest; of equals, the first (the same FSG every run).
                        if let best, sets[best].count > size || (sets[best].count == size && best < other) { continue }
                        guard sets[other].isSubset(of: left) else { continue }
                        best = other
                    }
                }
                guard let best else { break }
                via.append(best)
                left.subtract(sets[best])
            }
            return (moves[state].filter(left.contains), via)
        }
    }
}
