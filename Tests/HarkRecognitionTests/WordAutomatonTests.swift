import HarkGrammar
@testable import HarkRecognition
import Testing

/// A coffee grammar in the shape that made the search slow: the same lists
/// used in many sentences, each use its own copy in the intent graph.
private let coffeeGrammar = """
slot size: sizes
slot drink: drinks
slot milk: milks
list sizes:
    small
    medium
    large
list drinks:
    latte
    mocha
    drip coffee => drip
list milks:
    whole milk => whole
    oat milk => oat
rule please = please | thanks
intent orderDrink:
    [can i get] [a] {size} {drink} [with {milk}] [<please>]
    [can i get] [a] {drink} [with {milk}] [<please>]
    i want [a] {size} {drink} [with {milk}] [<please>]
    i want [a] {drink} [with {milk}] [<please>]
    give me [a] {drink} [<please>]
"""

private let messagingGrammar = """
slot recipients: contacts
slot content: text
list contacts:
    bobo
    bobo the great
rule app = monkey chat
intent INSendMessageIntent:
    send [a] message to {recipients} [on <app>] [saying {content}]
    <app> {recipients} {content}
"""

private func graph(_ text: String, app: String = "App") throws -> IntentGraph {
    let file = try GrammarParser.parse(text, path: "test.hark")
    return try GrammarCompiler.compile([GrammarInstance(app: app, grammar: file)])
}

private func words(_ s: String) -> [String] { s.split(separator: " ").map(String.init) }

@Suite("The recognizer's word automaton")
struct WordAutomatonTests {
    @Test("accepts exactly the sentences the intent graph accepts")
    func sameLanguage() throws {
        let g = try graph(coffeeGrammar)
        let minimal = try #require(WordAutomaton(minimizing: g))
        let unminimized = WordAutomaton(unminimized: g)
        let sentences = [
            "can i get a large latte with oat milk please", "a small drip coffee", "large mocha thanks",
            "i want mocha", "give me a latte please", "latte with whole milk",
            // not in the grammar
            "give me a large latte", "i want", "can i get", "latte latte", "please", "a", "small", "",
            "give me a latte with oat milk", "i want a large drip",
        ]
        for sentence in sentences {
            #expect(minimal.accepts(words(sentence)) == unminimized.accepts(words(sentence)), "\(sentence)")
        }
        #expect(minimal.accepts(words("can i get a large latte with oat milk please")))
        #expect(!minimal.accepts(words("give me a large latte")))
    }

    @Test("is deterministic and far smaller than the intent graph")
    func deterministicAndSmall() throws {
        let g = try graph(coffeeGrammar)
        let minimal = try #require(WordAutomaton(minimizing: g))
        for arcs in minimal.transitions {
            #expect(Set(arcs.map(\.symbol)).count == arcs.count, "two transitions on one word")
        }
        #expect(minimal.epsilons.allSatisfy { $0.isEmpty })
        // Every use of a list is one copy in the graph; the automaton shares them.
        #expect(minimal.stateCount * 4 < g.stateCount, "\(minimal.stateCount) states from \(g.stateCount)")
    }

    @Test("keeps free-text slots as dictation transitions")
    func dictation() throws {
        let g = try graph(messagingGrammar)
        let minimal = try #require(WordAutomaton(minimizing: g))
        #expect(minimal.accepts(words("send a message to bobo saying please send more bananas")))
        #expect(minimal.accepts(words("monkey chat bobo the great hello")))
        #expect(!minimal.accepts(words("monkey chat bobo")))
        #expect(!minimal.accepts(words("send a message to little bobo")))
        #expect(minimal.transitions.flatMap { $0 }.contains { $0.symbol == .dictation })
    }

    @Test("leaves out the typed names a slot of people's names takes: the recognizer hears the list's names only")
    func typedNamesLeftOut() throws {
        let people = messagingGrammar.replacingOccurrences(of: "contacts", with: "contactName")
        let withNames = try graph(people)
        #expect(withNames.arcs.joined().contains { $0.label == .typedName })
        let minimal = try #require(WordAutomaton(minimizing: withNames))
        let plain = try #require(WordAutomaton(minimizing: try graph(messagingGrammar)))
        #expect(minimal == plain)
        #expect(minimal.accepts(words("send a message to bobo the great")))
        #expect(!minimal.accepts(words("send a message to zuzu")))
        #expect(!minimal.accepts(words("send a message to")))
        // So is free text only typed text takes.
        let typedOnly = try graph(messagingGrammar.replacingOccurrences(of: "to {recipients}", with: "to {recipients or typed text}"))
        #expect(typedOnly.arcs.joined().contains { $0.label == .typedWord })
        #expect(try #require(WordAutomaton(minimizing: typedOnly)) == plain)
    }

    @Test("falls back to the graph's own shape past the state budget")
    func budget() throws {
        let g = try graph(coffeeGrammar)
        #expect(WordAutomaton(minimizing: g, budget: 3) == nil)
        let fallback = WordAutomaton(unminimized: g)
        #expect(fallback.stateCount == g.stateCount)
        #expect(fallback.accepts(words("a small drip coffee")))
    }

    @Test("takes endings after an app's name at a sentence's end only, held once")
    func endingsAfterName() throws {
        let g = try graph(messagingGrammar + """

            intent INStartAudioCallIntent:
                call {recipients} [on <app>]
                hang up
            """)
        let minimal = try #require(WordAutomaton(minimizing: g))
        let endings = [["no", "scratch", "that"], ["scratch", "that"], ["for", "me"]]
        let ended = minimal.ending(after: [["on", "monkey", "chat"]], with: endings)
        for sentence in ["send a message to bobo on monkey chat", "call bobo on monkey chat", "call bobo the great"] {
            // The sentence still ends, or goes on, as before.
            #expect(ended.accepts(words(sentence)))
            #expect(ended.accepts(words(sentence + " saying hi")) == minimal.accepts(words(sentence + " saying hi")))
        }
        #expect(ended.accepts(words("send a message to bobo on monkey chat scratch that")))
        #expect(ended.accepts(words("send a message to bobo on monkey chat no scratch that")))
        #expect(ended.accepts(words("call bobo on monkey chat for me")))
        #expect(!minimal.accepts(words("call bobo on monkey chat for me")))
        // Not after other words, though "hang up" and "call bobo" end
        // where "… on monkey chat" does; nor in the middle of a sentence.
        #expect(!ended.accepts(words("hang up scratch that")))
        #expect(!ended.accepts(words("call bobo scratch that")))
        #expect(!ended.accepts(words("send a message to bobo on monkey chat scratch that saying hi")))
        #expect(!ended.accepts(words("send a message to bobo on monkey chat no")))
        // One copy of the endings' later words (after "no", "scratch",
        // "for", and their end: "scratch that" after "no" shares its states
        // with "scratch that" alone), and one copy of each of the two
        // states a name ends a sentence in (one where "saying …" may follow).
        #expect(ended.stateCount - minimal.stateCount == 6)
        // No endings, or no name: the automaton unchanged.
        #expect(minimal.ending(after: [["on", "monkey", "chat"]], with: []) == minimal)
        #expect(minimal.ending(after: [["list", "o", "mat"]], with: endings) == minimal)
    }
}
