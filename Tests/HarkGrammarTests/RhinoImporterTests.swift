import Foundation
@testable import HarkGrammar
import Testing

/// A small coffee context using every construct the importer translates.
private let coffeeYAML = """
    # A coffee context, Rhino style.
    context:
      expressions:
        orderDrink:
          - "[can I get, I'd like, give me] (a, an) (@size) $drink:drink (with $milk:milk)"
          - '@polite $drink:drink please'   # single quotes
          - "[brew, make me] [a, ] $drink:drink"
        cancelOrder:
          - cancel (my) order
      slots:
        drink:
          - "latte"
          - 'iced coffee'
          - "Flat White"     # capitalised: spoken lower-case, value kept
        milk: [milk, "soy milk", 'rock & roll']
        cupSize:
          - large
          - "twelve ounce"
      macros:
        size:
          - "$cupSize:size"
        polite:
          - "[could you, would you] make me [a, one]"
    """

private func translate(_ yaml: String, path: String = "ctx.yaml") throws(GrammarError) -> RhinoImporter.Result {
    try RhinoImporter.translate(yaml, path: path)
}

private func parser(for grammar: String) throws -> TextParser {
    let file = try GrammarParser.parse(grammar, path: "imported.hark")
    return TextParser(graph: try GrammarCompiler.compile([GrammarInstance(app: "Coffee", grammar: file)]))
}

/// The error a translation throws, or a test failure.
private func importError(_ yaml: String) -> GrammarError? {
    do {
        _ = try translate(yaml)
        Issue.record("expected an error for:\n\(yaml)")
        return nil
    } catch {
        return error
    }
}

@Suite("Rhino importer")
struct RhinoImporterTests {
    @Test("each construct becomes its Hark form")
    func constructs() throws {
        let result = try translate(coffeeYAML)
        let text = result.grammar
        #expect(result.intents == ["orderDrink", "cancelOrder"])
        // Required choice → ( | ), optional → [ | ], slot → {name}, macro → <name>, "I'd" kept.
        #expect(text.contains("    (can i get | i'd like | give me) [a | an] [<size>] {drink} [with {milk}]\n"))
        #expect(text.contains("    <polite> {drink} please\n"))
        // A choice with an empty alternative is optional.
        #expect(text.contains("    (brew | make me) [a] {drink}\n"))
        #expect(text.contains("intent cancelOrder:\n    cancel [my] order\n"))
        #expect(text.contains("rule polite:\n    (could you | would you) make me (a | one)\n"))
        #expect(text.contains("rule size:\n    {size}\n"))
        // Slots declare their type; lists hold the values.
        #expect(text.contains("slot drink: drink\n"))
        #expect(text.contains("slot size: cupSize\n"))
        #expect(text.contains("list drink:\n    latte\n    iced coffee\n    flat white => Flat White\n"))
        #expect(text.contains("list milk:\n    milk\n    soy milk\n    rock and roll => rock & roll\n"))
        #expect(text.contains("list cupSize:\n    large\n    twelve ounce\n"))
        // Header names the source, not its folder.
        #expect(text.hasPrefix("# Imported from ctx.yaml (a Picovoice Rhino context)"))
    }

    @Test("the output is deterministic and names only the file")
    func deterministic() throws {
        let a = try translate(coffeeYAML, path: "/some/where/ctx.yaml")
        let b = try translate(coffeeYAML, path: "ctx.yaml")
        #expect(a == b)
    }

    @Test("the translated grammar parses coffee sentences into intents and slots",
          arguments: [
              ("can I get a large latte with soy milk", "orderDrink", ["size": "large", "drink": "latte", "milk": "soy milk"]),
              ("I'd like an iced coffee", "orderDrink", ["drink": "iced coffee"]),
              ("give me twelve ounce flat white with rock and roll", "orderDrink",
               ["size": "twelve ounce", "drink": "Flat White", "milk": "rock & roll"]),
              ("would you make me one latte please", "orderDrink", ["drink": "latte"]),
              ("make me latte", "orderDrink", ["drink": "latte"]),
              ("cancel my order", "cancelOrder", [:]),
          ])
    func parsesSentences(sentence: String, intent: String, slots: [String: String]) throws {
        let parse = try #require(try parser(for: translate(coffeeYAML).grammar).parse(sentence).first)
        #expect(parse.intent == intent)
        #expect(parse.slotValues == slots)
    }

    @Test("sentences outside the context are not understood")
    func rejects() throws {
        let p = try parser(for: translate(coffeeYAML).grammar)
        #expect(p.parse("can I get a latte with oat milk").isEmpty)
        #expect(p.parse("brew me a latte").isEmpty)
        #expect(p.parse("I'd like a").isEmpty)
    }

    @Test("quoted strings: escapes in double quotes, doubled quotes in single quotes, '#' inside quotes")
    func quotedStrings() throws {
        let yaml = """
            context:
              expressions:
                say:
                  - "I'd like \\"$thing:thing\\" # not a comment"
                  - 'it''s $thing:thing'
              slots:
                thing: ["tea\\u0020time", 'o''clock']
            """
        // '"' and '#' are not Rhino expression characters: the quoted text reached the expression parser.
        let error = try #require(importError(yaml))
        #expect(error.location.line == 4)
        #expect("\(error)".contains("unexpected '\"'"))

        let fixed = yaml.replacingOccurrences(of: "\\\"$thing:thing\\\" # not a comment", with: "$thing:thing")
        let text = try translate(fixed).grammar
        #expect(text.contains("    it's {thing}\n"))
        #expect(text.contains("list thing:\n    tea time\n    o'clock\n"))
        #expect(try parser(for: text).parse("it's o'clock").first?.slotValues == ["thing": "o'clock"])
    }

    @Test("comments, blank lines, document start and a list at its key's indentation")
    func yamlLayout() throws {
        let yaml = """
            # leading comment
            ---
            context:   # trailing comment

              expressions:
                go:
                - "go $place:place"   # list at the key's indentation
              # comment between keys
              slots:
                place:
                - home
                - "work" # comment after a quoted value
              macros:
            """
        let text = try translate(yaml).grammar
        #expect(text.contains("intent go:\n    go {place}\n"))
        #expect(text.contains("list place:\n    home\n    work\n"))
    }

    @Test("YAML errors name file:line:column",
          arguments: [
              ("context:\n  expressions:\n\tgo:\n", 3, "tabs"),
              ("context:\n  expressions:\n    go:\n      - \"go home\n", 4, "unterminated string"),
              ("context:\n  expressions:\n    go:\n      - [go, come] home\n", 4, "quote Rhino expressions"),
              ("context:\n  expressions:\n    go:\n      - @home\n", 4, "quote it"),
              ("context:\n  expressions:\n    go:\n      - go\n    go:\n      - come\n", 5, "appears twice"),
              ("context:\n  expressions:\n    go: &anchor\n", 3, "expected a list of strings for intent 'go'"),
              ("context:\n  expressions:\n    go:\n      - *nowhere\n", 4, "unknown alias '*nowhere'"),
              ("context:\n  expressions:\n    go:\n      - go\n---\ncontext:\n", 5, "only one YAML document"),
              ("context:\n  expressions:\n    go: [\"go\"]\n  [a]: b\n", 4, "a mapping key must be a string"),
              ("contexts:\n  expressions: {}\n", 1, "expected the key 'context:'"),
              ("context:\n  expressions:\n    go:\n      - go\n  entities:\n", 5, "unexpected key 'entities'"),
              ("context:\n  expressions:\n    go:\n      - key: value\n", 4, "expected a string in the list of intent 'go'"),
              ("", 1, "empty"),
          ])
    func yamlErrors(yaml: String, line: Int, message: String) throws {
        let error = try #require(importError(yaml))
        #expect(error.location.file == "ctx.yaml")
        #expect(error.location.line == line, "\(error)")
        #expect("\(error)".hasPrefix("ctx.yaml:\(line):"))
        #expect("\(error)".contains(message), "\(error)")
    }

    @Test("expression errors name file:line:column",
          arguments: [
              ("\"go $place:spot\"", "unknown slot type 'place'", 13),
              ("\"go $pv.Colour:n\"", "unknown slot type 'pv.Colour'; this Rhino built-in slot type is not supported (pv.Alphabetic, pv.Alphanumeric, pv.Percent, ", 13),
              ("\"go @away\"", "unknown macro '@away'", 13),
              ("\"go [home, work\"", "expected ']'", 24),
              ("\"go home!\"", "unexpected '!'", 17),
              ("\"go $spot\"", "expected '$type:name'", 13),
              ("\"go, home\"", "',' outside", 12),
              ("\"go " + String(repeating: "(", count: 60) + "home" + String(repeating: ")", count: 60) + "\"",
               "'(' nested more than 50 levels deep", 63),
          ])
    func expressionErrors(expression: String, message: String, column: Int) throws {
        let yaml = "context:\n  expressions:\n    go:\n      - \(expression)\n  slots:\n    spot: [home]\n"
        let error = try #require(importError(yaml))
        #expect(error.location.line == 4)
        #expect(error.location.column == column, "\(error)")
        #expect("\(error)".contains(message), "\(error)")
    }

    @Test("Rhino's integer and ordinal built-in slots become Hark's number and ordinal")
    func builtinSlots() throws {
        let yaml = """
            context:
              expressions:
                setTimer:
                  - "set [a] timer for $pv.TwoDigitInteger:minutes minutes"
                  - "pick the $pv.TwoDigitOrdinal:position [one]"
            """
        let result = try RhinoImporter.translate(yaml, path: "ctx.yaml")
        #expect(result.grammar.contains("slot minutes: number"))
        #expect(result.grammar.contains("slot position: ordinal"))
        let file = try GrammarParser.parse(result.grammar, path: "timer.hark")
        let parser = TextParser(graph: try GrammarCompiler.compile([GrammarInstance(app: "Timer", grammar: file)]))
        #expect(parser.parse("set a timer for twenty five minutes").first?.slotValues == ["minutes": "25"])
        #expect(parser.parse("pick the twenty first one").first?.slotValues == ["position": "21"])
    }

    @Test("recursive macros, a slot of two types and clashing names are errors")
    func semanticErrors() throws {
        let recursive = """
            context:
              expressions:
                go:
                  - "@a"
              macros:
                a:
                  - "x @b"
                b:
                  - "y (@a)"
            """
        #expect("\(try #require(importError(recursive)))".contains("recursive macro: @a -> @b -> @a"))

        let twoTypes = """
            context:
              expressions:
                go:
                  - "$a:spot"
                  - "to $b:spot"
              slots:
                a: [x]
                b: [y]
            """
        let error = try #require(importError(twoTypes))
        #expect(error.location.line == 5)
        #expect("\(error)".contains("slot 'spot' is of type 'a'"))

        let clash = """
            context:
              expressions:
                drink:
                  - "$drink:drink"
              slots:
                drink: [tea]
            """
        let clashError = try #require(importError(clash))
        #expect(clashError.location.line == 6)
        #expect("\(clashError)".contains("'drink' names both an intent and a slot type"))
    }

    @Test("the barista context's shape imports, and its values are the labels' strings")
    func baristaShape() throws {
        let yaml = """
            context:
              expressions:
                orderDrink:
                  - "[brew, can I get, I'd like, may I have] [a, an] $size:size $numberOfShots:numberOfShots $coffeeDrink:coffeeDrink with $milkAmount:milkAmount and $sugarAmount:sugarAmount"
                  - "[brew, can I get, I'd like, may I have] [a, an] $coffeeDrink:coffeeDrink"
              slots:
                size:
                  - "twelve ounce"
                numberOfShots:
                  - "double shot"
                coffeeDrink:
                  - "americano"
                  - "drip coffee"
                milkAmount:
                  - "a little bit of skim milk"
                sugarAmount:
                  - "brown sugar"
            """
        let p = try parser(for: translate(yaml).grammar)
        let parse = try #require(p.parse("may I have a twelve ounce double shot americano with a little bit of skim milk and brown sugar").first)
        #expect(parse.app == "Coffee")
        #expect(parse.intent == "orderDrink")
        #expect(parse.slotValues == [
            "size": "twelve ounce", "numberOfShots": "double shot", "coffeeDrink": "americano",
            "milkAmount": "a little bit of skim milk", "sugarAmount": "brown sugar",
        ])
        #expect(p.parse("I'd like an drip coffee").first?.slotValues == ["coffeeDrink": "drip coffee"])
    }

    @Test("slot values keep the words a grammar allows")
    func spokenWords() {
        #expect(RhinoImporter.spokenWords(of: "I'd like") == ["i'd", "like"])
        #expect(RhinoImporter.spokenWords(of: "Mr. Smith's, please!") == ["mr.", "smith's", "please"])
        #expect(RhinoImporter.spokenWords(of: "salt & pepper") == ["salt", "and", "pepper"])
        #expect(RhinoImporter.spokenWords(of: " - ") == [])
    }

    @Test("YAML as other tools write it: anchors, aliases, merges, flow style, folded and literal blocks, CRLF and CR")
    func fullYAML() throws {
        let yaml = """
            context:
              expressions:
                go: &phrases
                  - >-
                    go to
                    $place:place
                  - |-
                    head $place:place
                  - {"walk $place:place": ~}
                run: *phrases
              slots: {place: [home, "work"]}
              macros:
                base: &base
                  - "now"
            """
        // A mapping inside a list is not a phrase: fix that line, then import.
        let error = try #require(importError(yaml))
        #expect(error.location.line == 9, "\(error)")
        let fixed = yaml.replacingOccurrences(of: "{\"walk $place:place\": ~}", with: "'walk $place:place'")
        let text = try translate(fixed).grammar
        #expect(text.contains("intent go:\n    go to {place}\n    head {place}\n    walk {place}\n"), "\(text)")
        #expect(text.contains("intent run:\n    go to {place}\n    head {place}\n    walk {place}\n"), "\(text)")
        #expect(text.contains("list place:\n    home\n    work\n"))
        #expect(text.contains("rule base:\n    now\n"))
        for lineEnd in ["\r\n", "\r"] {
            #expect(try translate(fixed.replacingOccurrences(of: "\n", with: lineEnd)).grammar == text)
        }
        // `<<` merges a mapping's entries; the mapping's own keys win.
        let merged = try translate("""
            context:
              slots:
                <<: {place: [home], size: [small]}
                size: [large]
              expressions:
                go: ["go $place:place $size:size"]
            """).grammar
        #expect(merged.contains("list size:\n    large\n"), "\(merged)")
        #expect(merged.contains("list place:\n    home\n"), "\(merged)")
    }

    @Test("Rhino's letter, letter-or-digit and percent built-ins import as lists")
    func builtinLists() throws {
        let yaml = """
            context:
              expressions:
                spell:
                  - "spell $pv.Alphabetic:letter"
                  - "code $pv.Alphanumeric:code"
                  - "set volume to $pv.Percent:level"
            """
        let p = try parser(for: translate(yaml).grammar)
        #expect(p.parse("spell b").first?.slotValues == ["letter": "B"])
        #expect(p.parse("code seven").first?.slotValues == ["code": "7"])
        #expect(p.parse("set volume to twenty five percent").first?.slotValues == ["level": "25%"])
        #expect(p.parse("set volume to one hundred percent").first?.slotValues == ["level": "100%"])
    }

    @Test("bounded: aliases of aliases, deep nesting and self-doubling macros are one error each")
    func bounded() throws {
        var laughs = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
        for i in 1..<9 {
            let name = String(UnicodeScalar(UInt8(97 + i)))
            let previous = String(UnicodeScalar(UInt8(96 + i)))
            laughs.append("\(name): &\(name) [" + Array(repeating: "*" + previous, count: 10).joined(separator: ", ") + "]")
        }
        laughs.append("context:\n  expressions:\n    go: [go]")
        let laughError = try #require(importError(laughs.joined(separator: "\n")))
        #expect("\(laughError)".contains("expands to more than \(YAMLReader.maximumNodes) values"), "\(laughError)")

        let deep = "context: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let deepError = try #require(importError(deep))
        #expect("\(deepError)".hasPrefix("ctx.yaml:1:"))
        #expect("\(deepError)".contains("nested more than \(YAMLReader.maximumDepth) levels"), "\(deepError)")

        var doubling = ["context:", "  expressions:", "    grow: [\"go @d0\"]", "  macros:"]
        for i in 0..<40 { doubling.append("    d\(i): [\"@d\(i + 1) @d\(i + 1)\"]") }
        doubling.append("    d40: [a, b]")
        let doublingError = try #require(importError(doubling.joined(separator: "\n")))
        #expect(doublingError.location.line == 5, "\(doublingError)")
        guard case .tooLarge(let rules, let states, let arcs, let limits) = doublingError.kind else {
            Issue.record("expected a size error, got \(doublingError)")
            return
        }
        #expect(rules.first == "@d0")
        #expect(limits == .standard)
        #expect(states > limits.maxStates || arcs > limits.maxArcs)
        #expect("\(doublingError)".contains("@d0 -> @d1"))
    }
}
