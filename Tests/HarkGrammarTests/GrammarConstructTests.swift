import Foundation
import HarkGrammar
import Testing

let coffeeGrammar = """
list size = small | medium | large | twelve ounce => 12oz
list roast = light roast | dark roast
list shots = single shot | double shot
list drink = latte | mocha | drip coffee
list milk = milk | oat milk => oat
list sugar = sugar | brown sugar

intent orderDrink:
    (can i get | give me) (a | an) ( [{size}] & [{roast}] & [{shots}] ) {drink} [with ({milk} [and {sugar}] | {sugar} [and {milk}])]
intent pizza:
    pizza with ( cheese & ham & [olives] )
"""

func parseOne(_ grammar: String, _ text: String, app: String = "Cafe") throws -> Parse? {
    let file = try GrammarParser.parse(grammar, path: "g.hark")
    return TextParser(graph: try GrammarCompiler.compile([GrammarInstance(app: app, grammar: file)])).parse(text).first
}

func message(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return String(describing: error)
    }
}

@Suite("Any-order parts")
struct AnyOrderTests {
    @Test("optional parts in any order fill their slots", arguments: [
        ("give me a dark roast large latte", ["size": "large", "roast": "dark roast", "drink": "latte"]),
        ("give me a large dark roast latte", ["size": "large", "roast": "dark roast", "drink": "latte"]),
        ("can i get a double shot twelve ounce light roast mocha", ["size": "12oz", "roast": "light roast", "shots": "double shot", "drink": "mocha"]),
        ("give me a latte", ["drink": "latte"]),
        ("give me an oat milk mocha", nil),
        ("give me a mocha with brown sugar and oat milk", ["drink": "mocha", "milk": "oat", "sugar": "brown sugar"]),
        ("give me a mocha with oat milk and sugar", ["drink": "mocha", "milk": "oat", "sugar": "sugar"]),
    ] as [(String, [String: String]?)])
    func orders(text: String, slots: [String: String]?) throws {
        let best = try parseOne(coffeeGrammar, text)
        if let slots {
            let parse = try #require(best, "not understood: \(text)")
            #expect(parse.intent == "orderDrink")
            #expect(parse.slotValues == slots)
        } else {
            #expect(best == nil)
        }
    }

    @Test("each part at most once, required parts exactly once", arguments: [
        ("pizza with ham cheese", true),
        ("pizza with cheese ham", true),
        ("pizza with olives ham cheese", true),
        ("pizza with cheese olives ham", true),
        ("pizza with cheese", false),
        ("pizza with cheese ham ham", false),
        ("pizza with olives", false),
        ("give me a large large latte", false),
        ("give me a large dark roast light roast latte", false),
    ])
    func onceEach(text: String, understood: Bool) throws {
        #expect((try parseOne(coffeeGrammar, text) != nil) == understood)
    }

    @Test("the imported Barista grammar's 90 permutations are one any-order sentence")
    func baristaEquivalence() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let imported = try String(contentsOf: repo.appendingPathComponent("models/benchmark-apps/Barista/Barista.hark"), encoding: .utf8)
        // The same lists, one sentence.
        let lists = imported.components(separatedBy: "intent orderDrink:")[0]
        let slots = imported.components(separatedBy: "# The list each {slot} takes its values from.")[1]
        let compact = lists + slots + """
            intent orderDrink:
                (brew | can i get | can i have | i want | get me | give me | i'd like | make me | may i have) (a | an) ( [{size}] & [{roast}] & [{numberOfShots}] ) {coffeeDrink} [with ({milkAmount} [and {sugarAmount}] | {sugarAmount} [and {milkAmount}])]
            """
        func graph(_ text: String) throws -> IntentGraph {
            try GrammarCompiler.compile([GrammarInstance(app: "Barista", grammar: try GrammarParser.parse(text, path: "b.hark"))])
        }
        let full = try graph(imported)
        let small = try graph(compact)
        #expect(small.stateCount * 5 < full.stateCount)
        var fullParser = TextParser(graph: full)
        var smallParser = TextParser(graph: small)
        fullParser.fillers = []
        smallParser.fillers = []
        for (from, to) in [(full, smallParser), (small, fullParser)] {
            for sentence in sampleSentences(from, count: 200, dictation: ["x"]) {
                let a = to.parse(tokens: sentence).first
                #expect(a != nil, "only one grammar accepts: \(sentence.joined(separator: " "))")
            }
        }
        let sentence = "can i get a large double shot dark roast latte with a lot of milk and brown sugar"
        #expect(fullParser.parse(sentence).first?.slotValues == smallParser.parse(sentence).first?.slotValues)
    }

    @Test("six parts compile to shared states, not permutations")
    func sixParts() throws {
        let file = try GrammarParser.parse("intent X:\n    go ( a & b & c & d & e & f )\n", path: "g.hark")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "A", grammar: file)])
        // 720 permutations of 6 words would need thousands of states.
        #expect(graph.stateCount < 64 * 3 + 200)
        let parser = TextParser(graph: graph)
        #expect(parser.parse("go f e d c b a").first?.intent == "X")
        #expect(parser.parse("go a b c d e").isEmpty)
    }

    @Test("any-order mistakes are reported where they are", arguments: [
        ("intent X:\n    go ( a & b & c & d & e & f & g )\n",
         "g.hark:2:8: error: an any-order group may have at most 6 parts, this one has 7; group some parts in a fixed order or split the sentence"),
        ("intent X:\n    go ( a & b | c )\n", "g.hark:2:16: error: cannot mix '|' and '&' in one group; put the alternatives in their own ( ... )"),
        ("intent X:\n    go a & b\n", "g.hark:2:10: error: '&' (any order) is only allowed inside ( ... ); write ( a & b )"),
        ("intent X:\n    go [a & b]\n", "g.hark:2:11: error: '&' (any order) is only allowed inside ( ... ); write ( a & b )"),
        ("intent X:\n    go ( a & )\n", "g.hark:2:14: error: empty part in an any-order group; use [ ... ] for an optional part"),
    ])
    func errors(source: String, expected: String) {
        #expect(message { _ = try GrammarParser.parse(source, path: "g.hark") } == expected)
    }
}

@Suite("Grammar errors")
struct GrammarErrorTests {
    @Test("each error names file:line:column and what was expected", arguments: [
        ("intent X:\n    send (a | b\n", "g.hark:2:16: error: expected ')' before the end of the line"),
        ("intent X:\n    send a]\n", "g.hark:2:11: error: unexpected ']'"),
        ("intent X:\n    send (a | ) more\n", "g.hark:2:15: error: empty alternative; use [ ... ] for an optional part"),
        ("intent X:\n    send ( | a)\n", "g.hark:2:12: error: empty alternative; use [ ... ] for an optional part"),
        ("list x = a | | b\n", "g.hark:1:14: error: empty list value"),
        ("list x =\n", "g.hark:1:6: error: 'x' has no values"),
        ("slot x:\n", "g.hark:1:8: error: expected 'slot x: text' or 'slot x: LIST'"),
        ("slot x: two words\n", "g.hark:1:9: error: expected one slot type after 'slot x:' (text, a list name or a built-in type such as number)"),
        ("intent X:\n    call {who\n", "g.hark:2:10: error: expected a name and '}' after '{' (or '{name or text}', '{name or typed text}')"),
        // Nesting is bounded, so a hostile file cannot exhaust the stack (found by fuzzing).
        ("intent X:\n    send " + String(repeating: "(", count: 60) + "a" + String(repeating: ")", count: 60) + "\n",
         "g.hark:2:60: error: '(' nested more than 50 levels deep; name the inner part as a rule"),
        ("intent X:\n    send " + String(repeating: "[", count: 51) + "a" + String(repeating: "]", count: 51) + "\n",
         "g.hark:2:60: error: '[' nested more than 50 levels deep; name the inner part as a rule"),
    ])
    func syntax(source: String, expected: String) {
        #expect(message { _ = try GrammarParser.parse(source, path: "g.hark") } == expected)
    }

    @Test("compile errors point at the use or the declaration", arguments: [
        ("intent X:\n    hello <nope>\n", "g.hark:2:11: error: undefined rule <nope>; define it with 'rule nope = ...'"),
        ("rule a = x <b>\nrule b = y <a>\nintent X:\n    go <a>\n", "g.hark:2:12: error: recursive rule: <a> -> <b> -> <a>"),
        ("rule a = x [<a>]\nintent X:\n    go <a>\n", "g.hark:1:13: error: recursive rule: <a> -> <a>"),
        ("intent X:\n    call {who}\n",
         "g.hark:2:10: error: undefined slot {who}; declare it with 'slot who: text', 'slot who: LIST' or 'list who = ...'"),
        ("slot amount: money\nintent X:\n    pay {amount}\n",
         "g.hark:1:14: error: unknown slot type 'money' for slot {amount}; expected text, number, ordinal, currency, time, date, duration, a list defined with 'list money: ...' or an app vocabulary type"),
    ])
    func compile(source: String, expected: String) {
        #expect(message {
            let file = try GrammarParser.parse(source, path: "g.hark")
            _ = try GrammarCompiler.compile([GrammarInstance(app: "A", grammar: file)])
        } == expected)
    }

    @Test("a slot and the list it takes may share a name, in either order")
    func slotAndListShareName() throws {
        let grammar = "slot size: size\nlist size = small | large\nintent X:\n    a {size} one\n"
        #expect(try parseOne(grammar, "a large one")?.slotValues == ["size": "large"])
        let later = "list size = small | large\nintent X:\n    a {size} one\nslot size: size\n"
        #expect(try parseOne(later, "a small one")?.slotValues == ["size": "small"])
    }
}

@Suite("Parser tolerance and ranking")
struct ParserToleranceTests {
    @Test("case, punctuation, fillers and wake phrases are ignored", arguments: [
        "Hey Hark, send a message to Bobo!",
        "um, SEND a message to bobo please",
        "hey siri uh send a message... to bobo",
        "Please, send a message to Bobo.",
        "OK Hark send a, um, message to bobo",
    ])
    func tolerant(text: String) throws {
        let parser = TextParser(graph: try compile(messagingGrammar))
        let best = try #require(parser.parse(text).first, "not understood: \(text)")
        #expect(best.intent == "INSendMessageIntent")
        #expect(best.slotValues == ["recipients": "bobo"])
        #expect(best.cost > 0 || !text.lowercased().contains("um"))
    }

    @Test("fillers cost more than grammar words, so the cleaner reading ranks first")
    func ranking() throws {
        let grammar = """
            slot item: text
            intent Add:
                add {item}
            intent AddPlease:
                add please {item}
            """
        let parses = try #require(try parseOne(grammar, "add please milk").map { [$0] })
        #expect(parses[0].intent == "AddPlease")
        let file = try GrammarParser.parse(grammar, path: "g.hark")
        let all = TextParser(graph: try GrammarCompiler.compile([GrammarInstance(app: "L", grammar: file)])).parse("add please milk")
        #expect(all.map(\.intent) == ["AddPlease", "Add"])
        #expect(all[0].cost < all[1].cost)
    }

    @Test("an intent matched twice gives one parse, the cheaper")
    func oneParsePerIntent() throws {
        let file = try GrammarParser.parse("intent Hello:\n    hello [there]\n    hello there\n", path: "h.hark")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "A", grammar: file), GrammarInstance(app: "A", grammar: file)])
        #expect(TextParser(graph: graph).parse("hello there").count == 1)
    }
}
