import HarkGrammar
@testable import HarkRecognition
import Testing

/// Optional lead-ins before every sentence: the minimal automaton repeats
/// the sentences' openings after each combination of them.
private let leadGrammar = """
slot size: sizes
slot drink: drinks
list sizes:
    small
    large
list drinks:
    latte
    mocha
    drip coffee => drip
rule lead = [hey | hi] [actually] [please | can you [please]]
intent orderDrink:
    <lead> [a] {size} {drink} [to go]
    <lead> (make | brew) me [a] {drink}
    <lead> i want [a] [{size}] {drink}
"""

private func words(_ s: String) -> [String] { s.split(separator: " ").map(String.init) }

@Suite("The grammar search shares what states have in common")
struct FSGFactoringTests {
    static func automaton() throws -> WordAutomaton {
        let file = try GrammarParser.parse(leadGrammar, path: "lead.hark")
        return try #require(WordAutomaton(minimizing: GrammarCompiler.compile([GrammarInstance(app: "Cafe", grammar: file)])))
    }

    /// The probability of `words` in the minimal automaton: each state's moves share its mass equally.
    static func probability(_ words: [String], in automaton: WordAutomaton) -> Double {
        var state = automaton.start, p = 1.0
        for word in words {
            let moves = FSGBuilder.moves(of: automaton, state, garbage: false)
            guard case .word(_, let to)? = moves.first(where: { if case .word(word, _) = $0 { true } else { false } }) else { return 0 }
            p /= Double(moves.count)
            state = to
        }
        let moves = FSGBuilder.moves(of: automaton, state, garbage: false)
        return moves.contains(.final) ? p / Double(moves.count) : 0
    }

    /// The same, in the factored search: a state's own moves take their
    /// share; a null transition to a shared state carries that state's share.
    static func probability(_ words: ArraySlice<String>, from state: Int, moves: [[FSGBuilder.Move]],
                            plan: [(kept: [FSGBuilder.Move], via: [Int])]) -> Double {
        let share = 1 / Double(moves[state].count)
        var p = 0.0
        for move in plan[state].kept {
            switch move {
            case .final where words.isEmpty: p += share
            case .word(let w, let to) where w == words.first:
                p += share * probability(words.dropFirst(), from: to, moves: moves, plan: plan)
            default: break
            }
        }
        for shared in plan[state].via {
            p += Double(moves[shared].count) * share * probability(words, from: shared, moves: moves, plan: plan)
        }
        return p
    }

    @Test("every sentence keeps its probability, and no other sentence is added")
    func sameSentences() throws {
        let automaton = try Self.automaton()
        let moves = (0..<automaton.stateCount).map { FSGBuilder.moves(of: automaton, $0, garbage: false) }
        let plan = FSGBuilder.factored(moves, minimumShared: 2)
        let sentences = [
            "large latte", "hey large latte", "hi actually please a small mocha to go", "can you please make me a latte",
            "hey can you i want drip coffee", "actually brew me a mocha", "i want latte", "hey actually can you large drip coffee",
            // not in the grammar
            "hey hey large latte", "please please large latte", "actually hey large latte", "large", "hey", "",
            "make me a large latte", "can you please", "i want a to go",
        ]
        var inGrammar = 0
        for sentence in sentences {
            let expected = Self.probability(words(sentence), in: automaton)
            let factored = Self.probability(ArraySlice(words(sentence)), from: automaton.start, moves: moves, plan: plan)
            #expect(abs(factored - expected) <= 1e-12 * max(expected, 1e-300), "\(sentence): \(factored) against \(expected)")
            if expected > 0 { inGrammar += 1 }
        }
        #expect(inGrammar == 8)
    }

    @Test("the openings repeated after each lead-in are kept once, reached by null transitions that never loop")
    func shared() throws {
        let automaton = try Self.automaton()
        let moves = (0..<automaton.stateCount).map { FSGBuilder.moves(of: automaton, $0, garbage: false) }
        let plan = FSGBuilder.factored(moves, minimumShared: 2)
        let before = moves.joined().count { if case .word = $0 { true } else { false } }
        let after = plan.map(\.kept).joined().count { if case .word = $0 { true } else { false } }
        // Measured: 71 word transitions become 28.
        #expect(after * 2 < before, "\(after) word transitions of \(before)")
        #expect(!plan[automaton.start].via.isEmpty)
        for (state, step) in plan.enumerated() {
            for shared in step.via { #expect(moves[shared].count < moves[state].count) }
        }
        // Each move is kept in exactly one place.
        for state in plan.indices {
            func expanded(_ s: Int) -> [FSGBuilder.Move] { plan[s].kept + plan[s].via.flatMap(expanded) }
            #expect(expanded(state).sorted { "\($0)" < "\($1)" } == moves[state].sorted { "\($0)" < "\($1)" })
        }
    }

    @Test("a state whose moves no other state's contain is left as it is")
    func nothingShared() {
        let moves: [[FSGBuilder.Move]] = [[.word("a", to: 1), .word("b", to: 1)], [.word("c", to: 2), .final], [.final]]
        let plan = FSGBuilder.factored(moves, minimumShared: 2)
        #expect(plan.allSatisfy { $0.via.isEmpty })
        #expect(plan.map(\.kept) == moves)
    }

    /// Requests that may name their app, or another one that ends the
    /// sentence wherever it comes (a terminal slot, as the catalog's apps
    /// that are not installed).
    static let otherAppGrammar = """
        slot drink: drinks
        list drinks:
            latte
            mocha
        list other:
            star bucks => Starbucks
            costa
            peets
            dunkin
        rule via = (at | with | from) (cafe | {other})
        intent orderDrink:
            [a] {drink} [<via>] [to go]
            make me [a] {drink} [<via>] [please]
            [<via>] i want [a] {drink}
        """

    @Test("moves that several states hold alike are searched once, each sentence keeping its probability")
    func sharedBlocks() throws {
        let file = try GrammarParser.parse(Self.otherAppGrammar, path: "other.hark")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "Cafe", grammar: file, terminalSlots: ["other"])])
        let automaton = try #require(WordAutomaton(minimizing: graph))
        let moves = (0..<automaton.stateCount).map { FSGBuilder.moves(of: automaton, $0, garbage: false) }
        let (plan, blocks) = FSGBuilder.sharingBlocks(FSGBuilder.factored(moves), stateCount: automaton.stateCount, minimumSaved: 8)
        // The other cafés' first words, after "at", "with", "from" in three
        // places, all leading to the same end: one block, held by each.
        #expect(blocks.count == 1, "\(blocks)")
        let block = try #require(blocks.first)
        #expect(Set(block.compactMap { if case .word(let w, _) = $0 { w } else { nil } }) == ["star", "costa", "peets", "dunkin"])
        let holders = plan.indices.filter { plan[$0].via.contains(automaton.stateCount) }
        #expect(holders.count >= 3, "\(holders)")
        for state in holders {
            #expect(!plan[state].kept.contains { block.contains($0) })
        }
        func size(_ s: Int) -> Int { s < moves.count ? moves[s].count : blocks[s - moves.count].count }
        func probability(_ words: ArraySlice<String>, from state: Int) -> Double {
            let share = 1 / Double(size(state))
            var p = 0.0
            let (kept, via) = state < moves.count ? plan[state] : (blocks[state - moves.count], [])
            for move in kept {
                switch move {
                case .final where words.isEmpty: p += share
                case .word(let w, let to) where w == words.first: p += share * probability(words.dropFirst(), from: to)
                case .dictation(let to) where !words.isEmpty: p += share * probability(words.dropFirst(), from: to)
                default: break
                }
            }
            for shared in via { p += Double(size(shared)) * share * probability(words, from: shared) }
            return p
        }
        let sentences = ["a latte with cafe to go", "a latte at costa", "make me a mocha from star bucks",
                         "at dunkin", "make me a mocha with cafe please", "latte at peets", "with cafe i want latte",
                         // not in the grammar
                         "a latte costa", "make me a mocha from star", "dunkin i want a latte"]
        var inGrammar = 0
        for sentence in sentences {
            let expected = Self.probability(words(sentence), in: automaton)
            let shared = probability(ArraySlice(words(sentence)), from: automaton.start)
            #expect(abs(shared - expected) <= 1e-12 * max(expected, 1e-300), "\(sentence): \(shared) against \(expected)")
            if expected > 0 { inGrammar += 1 }
        }
        #expect(inGrammar == 7)
        // A terminal slot's reading ends the sentence; what follows is free text.
        let parse = try #require(TextParser(graph: graph).parse("at costa i want a latte").first)
        #expect(parse.slotValues["other"] == "costa" && parse.slotValues["drink"] == nil)
    }
}
