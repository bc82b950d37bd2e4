import CPocketSphinx
import Foundation
import HarkGrammar
import Testing

/// A grammar with every construct the exporter must carry over.
let exportGrammar = """
slot recipients: contactName
slot content: text
slot size: size
slot shots: numberOfShots
slot count: number

list size = small | medium | large => L
list numberOfShots = single shot | double shot

rule message = message | text
rule polite = please | kindly

intent SendMessage:
    [<polite>] send [a] <message> to {recipients} [on <app>] [saying {content}]
intent OrderDrink:
    [<polite>] (can i get | give me) a ( {size} & [{shots}] & [with ice] ) coffee
intent Repeat:
    repeat {count} times
    (public | grammar | import) at eight a.m. [o'clock]
"""

/// A finite-state grammar as pocketsphinx writes it (`fsg_model_write`), to
/// check which sentences it accepts.
struct FSGText {
    var start = 0
    var final = 0
    var words: [Int: [(to: Int, word: String)]] = [:]
    var nulls: [Int: [Int]] = [:]

    init(_ text: String) {
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            switch f.first {
            case "START_STATE": start = Int(f[1])!
            case "FINAL_STATE": final = Int(f[1])!
            case "TRANSITION":
                if f.count >= 5 { words[Int(f[1])!, default: []].append((Int(f[2])!, String(f[4]))) }
                else { nulls[Int(f[1])!, default: []].append(Int(f[2])!) }
            default: break
            }
        }
    }

    func closure(_ states: Set<Int>) -> Set<Int> {
        var result = states
        var queue = Array(states)
        while let s = queue.popLast() {
            for t in nulls[s] ?? [] where !result.contains(t) {
                result.insert(t)
                queue.append(t)
            }
        }
        return result
    }

    func accepts(_ sentence: [String]) -> Bool {
        var states = closure([start])
        for word in sentence {
            var next: Set<Int> = []
            for s in states { for arc in words[s] ?? [] where arc.word == word { next.insert(arc.to) } }
            states = closure(next)
            if states.isEmpty { return false }
        }
        return states.contains(final)
    }
}

/// Parses JSGF text with sphinxbase's own parser and returns the FSG of its
/// default public rule (the one `pocketsphinx -jsgf` decodes), as text.
func pocketsphinxFSG(ofJSGF jsgfText: String) throws -> (rule: String, fsg: FSGText) {
    err_set_logfp(nil)
    let jsgf = try #require(jsgf_parse_string(jsgfText, nil), "sphinxbase's JSGF parser rejected:\n\(jsgfText)")
    defer { jsgf_grammar_free(jsgf) }
    let rule = try #require(jsgf_get_public_rule(jsgf), "no public rule")
    let name = String(cString: jsgf_rule_name(rule))
    let lmath = try #require(logmath_init(1.0001, 0, 0))
    defer { logmath_free(lmath) }
    let fsg = try #require(jsgf_build_fsg_raw(jsgf, rule, lmath, 1.0))
    defer { fsg_model_free(fsg) }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hark-jsgf-\(UUID().uuidString).fsg").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    fsg_model_writefile(fsg, path)
    return (name, FSGText(try String(contentsOfFile: path, encoding: .utf8)))
}

/// Sentences of the graph, by walks that take arcs in turn (deterministic),
/// with `dictation` standing for free text.
func sampleSentences(_ graph: IntentGraph, count: Int, dictation: [String]) -> [[String]] {
    var sentences: [[String]] = []
    var seed: UInt64 = 12345
    func next(_ n: Int) -> Int {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Int((seed >> 33) % UInt64(n))
    }
    var attempts = 0
    while sentences.count < count, attempts < count * 20 {
        attempts += 1
        var state = graph.start
        var words: [String] = []
        var steps = 0
        while steps < 200 {
            steps += 1
            // A typed name is no word a recognizer hears (nor the JSGF says).
            let arcs = graph.arcs[state].filter { !$0.label.isTypedOnly }
            if graph.finals[state] != nil, arcs.isEmpty || next(4) == 0 { sentences.append(words); break }
            guard !arcs.isEmpty else { break }
            let arc = arcs[next(arcs.count)]
            switch arc.label {
            case .word(let w): words.append(w)
            case .anyWord: words.append(dictation[next(dictation.count)])
            default: break
            }
            state = arc.to
        }
    }
    return sentences
}

@Suite("JSGF export")
struct JSGFExporterTests {
    let dictation = ["hello", "there", "bananas", "more"]

    func instances() throws -> [GrammarInstance] {
        let file = try GrammarParser.parse(exportGrammar, path: "export.hark")
        let contacts = GrammarExpression.alternatives([
            .value(spoken: .sequence([.word("bobo")]), canonical: "Bobo"),
            .value(spoken: .sequence([.word("little"), .word("bobo")]), canonical: "Little Bobo"),
        ])
        return [
            GrammarInstance(app: "MonkeyChat", grammar: file, intents: ["SendMessage"],
                            externalRules: ["app": .sequence([.word("monkey"), .word("chat")])],
                            externalLists: ["contactName": contacts]),
            GrammarInstance(app: "Barista", grammar: file, intents: ["OrderDrink", "Repeat"],
                            externalRules: ["app": .word("barista")]),
        ]
    }

    @Test("pocketsphinx's JSGF parser reads the export and picks <command>")
    func parsesInPocketSphinx() throws {
        let text = try JSGFExporter.export(try instances(), grammarName: "hark", dictation: dictation)
        let (rule, _) = try pocketsphinxFSG(ofJSGF: text)
        #expect(rule == "<hark.command>")
        #expect(text.contains("public <command> = <MonkeyChat_SendMessage>"))
        // Shared rules are written once and referred to, not copied.
        #expect(text.components(separatedBy: "<polite> =").count == 2)
        #expect(text.contains("<size> = small | medium | large;"))
        #expect(text.contains("<dictation> = ( hello | there | bananas | more )+;"))
    }

    @Test("the JSGF accepts exactly the sentences the compiled graph accepts")
    func sameLanguage() throws {
        let instances = try instances()
        let graph = try GrammarCompiler.compile(instances)
        let text = try JSGFExporter.export(instances, grammarName: "hark", dictation: dictation)
        let (_, fsg) = try pocketsphinxFSG(ofJSGF: text)
        var parser = TextParser(graph: graph)
        parser.fillers = []
        let sentences = sampleSentences(graph, count: 150, dictation: dictation)
        #expect(sentences.count == 150)
        for sentence in sentences {
            #expect(fsg.accepts(sentence), "JSGF rejects: \(sentence.joined(separator: " "))")
            #expect(!parser.parse(tokens: sentence).isEmpty, "graph rejects: \(sentence.joined(separator: " "))")
        }
        // Near misses: each sentence with one word dropped or two swapped is
        // in both languages or in neither.
        var checked = 0
        for sentence in sentences where sentence.count > 2 {
            let dropped = Array(sentence.dropFirst(1).prefix(1)) + Array(sentence.dropFirst(2))
            var swapped = sentence
            swapped.swapAt(sentence.count - 1, sentence.count - 2)
            for variant in [dropped, swapped] {
                #expect(fsg.accepts(variant) == !parser.parse(tokens: variant).isEmpty,
                        "JSGF and graph disagree on: \(variant.joined(separator: " "))")
                checked += 1
            }
        }
        #expect(checked > 100)
        #expect(fsg.accepts("give me a large double shot with ice coffee".split(separator: " ").map(String.init)))
        #expect(fsg.accepts("give me a with ice small coffee".split(separator: " ").map(String.init)))
        #expect(!fsg.accepts("give me a double shot coffee".split(separator: " ").map(String.init)))
        #expect(!fsg.accepts("give me a small small coffee".split(separator: " ").map(String.init)))
        #expect(fsg.accepts("repeat one hundred and twelve times".split(separator: " ").map(String.init)))
        // JSGF keywords and dotted words are plain words.
        #expect(fsg.accepts("import at eight a.m. o'clock".split(separator: " ").map(String.init)))
    }

    @Test("built-in types export as shared rules that accept what the graph accepts")
    func builtinTypes() throws {
        let text = SpokenValueType.allCases.map { "slot \($0.rawValue)Value: \($0.rawValue)" }.joined(separator: "\n")
            + "\nintent X:\n" + SpokenValueType.allCases.map { "    say {\($0.rawValue)Value} [and {\($0.rawValue)Value}]" }.joined(separator: "\n")
        let instances = [GrammarInstance(app: "A", grammar: try GrammarParser.parse(text, path: "t.hark"))]
        let graph = try GrammarCompiler.compile(instances)
        let jsgf = try JSGFExporter.export(instances, grammarName: "values")
        // hark.below100 is used by number, currency, date and duration: written once.
        #expect(jsgf.components(separatedBy: "<hark_below100> =").count == 2)
        let (_, fsg) = try pocketsphinxFSG(ofJSGF: jsgf)
        for sentence in sampleSentences(graph, count: 300, dictation: ["x"]) {
            #expect(fsg.accepts(sentence), "JSGF rejects: \(sentence.joined(separator: " "))")
        }
        #expect(!fsg.accepts(["say", "hundred"]))
        #expect(!fsg.accepts(["say", "noon", "noon"]))
    }

    @Test("without dictation words free text takes the grammar's own words")
    func dictationFallback() throws {
        let text = try JSGFExporter.export(try instances(), grammarName: "hark")
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("<dictation> =") })
        #expect(line.contains("| bobo |"))
        #expect(line.hasSuffix(")+;"))
        _ = try pocketsphinxFSG(ofJSGF: text)
    }

    @Test("grammar errors come out as the compiler reports them")
    func errors() throws {
        let file = try GrammarParser.parse("intent X:\n    go <nowhere>\n", path: "bad.hark")
        #expect(throws: GrammarError(.undefinedRule("nowhere"), at: SourceLocation(file: "bad.hark", line: 2, column: 8))) {
            try JSGFExporter.export([GrammarInstance(app: "A", grammar: file)], grammarName: "g")
        }
    }
}
