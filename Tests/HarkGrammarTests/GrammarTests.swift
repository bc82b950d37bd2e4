import HarkGrammar
import Testing

/// A small messaging grammar in Hark's language, used across these tests.
let messagingGrammar = """
# comment lines and trailing comments are ignored
slot recipients: contacts
slot content: text

list contacts:
    bobo
    bobo the great => Bobo the Great
    little bobo => Little Bobo

rule message = message | text   # two words for the same thing
rule app = monkey chat

intent INSendMessageIntent:
    send [a] <message> to {recipients} [on <app>] [saying {content}]
    <app> {recipients} {content}
"""

func compile(_ text: String, path: String = "test.hark") throws -> IntentGraph {
    let file = try GrammarParser.parse(text, path: path)
    return try GrammarCompiler.compile([GrammarInstance(app: "MonkeyChat", grammar: file)])
}

@Suite("Grammar language")
struct GrammarLanguageTests {
    @Test("declarations are read into rules, lists, slots and intents")
    func readsDeclarations() throws {
        let file = try GrammarParser.parse(messagingGrammar, path: "m.hark")
        #expect(Set(file.rules.keys) == ["message", "app"])
        #expect(file.lists.keys.sorted() == ["contacts"])
        #expect(file.slots["content"] == .text)
        #expect(file.slots["recipients"] == .list("contacts"))
        #expect(file.intents.map(\.name) == ["INSendMessageIntent"])
        #expect(file.intents[0].sentences.count == 2)
        #expect(file.locations["message"] == SourceLocation(file: "m.hark", line: 10, column: 6))
    }

    @Test("syntax errors name file, line and column and what was expected", arguments: [
        ("intent X:\n    send (a | b\n", "g.hark:2:16: error: expected ')' before the end of the line"),
        ("intent X:\n    send [a\n", "g.hark:2:12: error: expected ']' before the end of the line"),
        ("intent X:\n    send (a | ) more\n", "g.hark:2:15: error: empty alternative; use [ ... ] for an optional part"),
        ("intent X:\n    send <msg\n", "g.hark:2:10: error: expected a name and '>' after '<'"),
        ("intnet X:\n    hello\n", "g.hark:1:1: error: expected 'rule', 'list', 'slot' or 'intent', found 'intnet'"),
        ("rule a = x\nrule a = y\n", "g.hark:2:6: error: 'a' is defined twice"),
        ("list empty:\n", "g.hark:1:6: error: 'empty' has no values"),
        ("  hello\n", "g.hark:1:3: error: indented line outside a 'rule', 'list' or 'intent' block"),
        ("intent X:\n    send ) now\n", "g.hark:2:10: error: unexpected ')'"),
    ])
    func syntaxErrors(source: String, message: String) {
        #expect(throws: GrammarError.self) { try GrammarParser.parse(source, path: "g.hark") }
        do {
            _ = try GrammarParser.parse(source, path: "g.hark")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("undefined and recursive rules are reported where they are used")
    func compileErrors() throws {
        #expect(throws: GrammarError(.undefinedRule("nope"), at: SourceLocation(file: "u.hark", line: 2, column: 11))) {
            try compile("intent X:\n    hello <nope>\n", path: "u.hark")
        }
        #expect(throws: GrammarError(.recursiveRule(["a", "b", "a"]), at: SourceLocation(file: "r.hark", line: 2, column: 12))) {
            try compile("rule a = x <b>\nrule b = y <a>\nintent X:\n    go <a>\n", path: "r.hark")
        }
        #expect(throws: GrammarError(.undefinedSlot("who"), at: SourceLocation(file: "s.hark", line: 2, column: 10))) {
            try compile("intent X:\n    call {who}\n", path: "s.hark")
        }
    }
}

@Suite("Text parser")
struct TextParserTests {
    @Test("phrasings map to the intent with slots", arguments: [
        ("send a message to bobo on monkey chat saying please send more bananas", "bobo", "please send more bananas"),
        ("Send a text to Little Bobo saying hello there!", "Little Bobo", "hello there"),
        ("monkey chat bobo the great these were great bananas", "Bobo the Great", "these were great bananas"),
        ("monkey chat bobo please send more bananas", "bobo", "please send more bananas"),
    ])
    func parses(text: String, recipient: String, content: String) throws {
        let parser = TextParser(graph: try compile(messagingGrammar))
        let parses = parser.parse(text)
        let best = try #require(parses.first)
        #expect(best.app == "MonkeyChat")
        #expect(best.intent == "INSendMessageIntent")
        #expect(best.slotValues["recipients"] == recipient)
        #expect(best.slotValues["content"] == content)
    }

    @Test("free text is written as it was typed: case, digits and inner punctuation kept, the punctuation around it dropped", arguments: [
        ("Send a message to Bobo on MonkeyChat saying I'm at Pier 39, gate B.", "I'm at Pier 39, gate B"),
        ("send a message to bobo on monkey chat saying \"Are you there?\"", "Are you there"),
        ("Send a message to Bobo on MonkeyChat saying meet me at 8:30pm!!", "meet me at 8:30pm"),
        ("Hey Siri, MonkeyChat Bobo: NASA called, call back", "NASA called, call back"),
        // A lone lower-case "i" is written "I"; a word starting with i is left alone.
        ("monkey chat bobo i think i'm late, i'll call if i can", "I think I'm late, I'll call if I can"),
        ("monkey chat bobo it is in the igloo", "it is in the igloo"),
    ])
    func freeTextAsTyped(text: String, content: String) throws {
        let parser = TextParser(graph: try compile(messagingGrammar))
        let best = try #require(parser.parse(text).first)
        #expect(best.slotValues["content"] == content)
        // The words the grammar read are still its own: lower-case, no punctuation.
        let raw = try #require(best.slots.first { $0.name == "content" }?.raw)
        #expect(raw == raw.lowercased() && !raw.contains(",") && !raw.contains("?"), "\(raw)")
    }

    @Test("a name is written with capitals but for articles and short joining words after the first", arguments: [
        ("union station", "Union Station"), ("the grand hotel", "the Grand Hotel"), ("bank of america", "Bank of America"),
        ("pier 39", "Pier 39"), ("at and t park", "At and T Park"),
    ])
    func writtenName(heard: String, written: String) {
        #expect(WrittenForm.name(heard) == written)
    }

    @Test("heard words (tokens, not typed text) are free text as heard, with a lone 'i' written 'I'")
    func freeTextHeard() throws {
        let parser = TextParser(graph: try compile(messagingGrammar))
        let best = try #require(parser.parse(tokens: "monkey chat bobo i'm on the bus i think".split(separator: " ").map(String.init)).first)
        #expect(best.slotValues["content"] == "I'm on the bus I think")
    }

    @Test("'{slot or text}' takes the slot's list value where the words are one, and any other words as free text; plain '{slot}' only the list")
    func slotOrText() throws {
        let source = """
        list place:
            home
            (the airport | the airfield) => the airport
        slot destination: place
        intent Ride:
            take me (to {destination or text} | {destination}) [please]
        """
        let parser = TextParser(graph: try compile(source))
        let listed = try #require(parser.parse("take me to the airfield please").first)
        #expect(listed.slots == [SlotValue(name: "destination", raw: "the airfield", value: "the airport")])
        let free = try #require(parser.parse("take me to union station please").first)
        #expect(free.slots == [SlotValue(name: "destination", raw: "union station", value: "union station", isFreeText: true)])
        #expect(parser.parse("take me home").first?.slotValues["destination"] == "home")
        // Free words do not run into a list value: all of it is the free text.
        let mixed = try #require(parser.parse("take me to purple the airfield").first)
        #expect(mixed.slots == [SlotValue(name: "destination", raw: "purple the airfield", value: "purple the airfield", isFreeText: true)])
        // No carrier word, no free text.
        #expect(parser.parse("take me home last night").isEmpty)
        #expect(throws: GrammarError.self) { try GrammarParser.parse("intent Ride:\n    to {destination or words}\n", path: "r.hark") }
    }

    @Test("'{slot or typed text}' takes free text in typed requests only: heard words are the list's values or nothing")
    func slotOrTypedText() throws {
        let source = """
        list place:
            home
            the airport
        slot destination: place
        intent Ride:
            take me to {destination or typed text} [please]
        """
        let graph = try compile(source)
        #expect(graph.arcs.joined().contains { $0.label == .typedWord } && !graph.hasFreeText)
        let parser = TextParser(graph: graph)
        let free = try #require(parser.parse("take me to Union Station please").first)
        #expect(free.slots == [SlotValue(name: "destination", raw: "union station", value: "Union Station", isFreeText: true)])
        #expect(parser.parse("take me to the airport").first?.slots == [SlotValue(name: "destination", raw: "the airport", value: "the airport")])
        // Heard: only the list.
        #expect(parser.parse(tokens: ["take", "me", "to", "union", "station"]).isEmpty)
        #expect(parser.parse(tokens: ["take", "me", "to", "home"]).first?.slotValues["destination"] == "home")
        // It does not make the slot one that takes any words as an answer.
        let file = try GrammarParser.parse(source, path: "r.hark")
        #expect(file.slotsTakingText(of: file.intents[0]).isEmpty)
    }

    @Test("'(typed: ...)' words are read in typed text only: heard, the recognizer has no such word; JSGF says <VOID>; a slot inside is an error")
    func typedOnlyWords() throws {
        let source = """
        list lists:
            grocery
        slot item: text
        slot list: lists
        intent AddItem:
            (add | (typed: throw | pop)) {item} (to | on | in) the {list} list [typed: right away]
        """
        let file = try GrammarParser.parse(source, path: "t.hark")
        guard case .sequence(let items) = file.intents[0].sentences[0], case .alternatives(let verbs) = items[0],
              case .typedOnly(let typed, _) = verbs[1] else {
            Issue.record("(typed: ...) was not read as a typed-only part: \(file.intents[0].sentences[0])")
            return
        }
        #expect(typed == .alternatives([.word("throw"), .word("pop")]))
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "ListOMat", grammar: file)])
        #expect(!graph.vocabulary.contains("throw") && !graph.vocabulary.contains("away") && graph.vocabulary.contains("add"))
        #expect(graph.arcs.joined().contains { $0.label == .typedOnlyWord("throw") && $0.label.isTypedOnly })
        let parser = TextParser(graph: graph)
        let typedParse = try #require(parser.parse("Throw plantains in the grocery list right away").first)
        #expect(typedParse.slotValues["item"] == "plantains" && typedParse.slotValues["list"] == "grocery")
        #expect(parser.parse("add plantains to the grocery list").first?.slotValues["item"] == "plantains")
        // Heard words are not typed: the same sentence is not read.
        #expect(parser.parse(tokens: ["throw", "plantains", "in", "the", "grocery", "list"]).isEmpty)
        #expect(parser.parse(tokens: ["add", "plantains", "to", "the", "grocery", "list", "right", "away"]).isEmpty)
        #expect(parser.parse(tokens: ["add", "plantains", "to", "the", "grocery", "list"]).first?.slotValues["item"] == "plantains")
        // JSGF: left out, and not made optional ("add" is still needed); a
        // sentence of typed words alone, or using a rule of typed words alone,
        // is left out (an alternative "| <VOID>" left stock pocketsphinx's
        // search a way to nowhere: "Final result does not match the grammar").
        let jsgf = try JSGFExporter.export([GrammarInstance(app: "ListOMat", grammar: file)], grammarName: "t")
        #expect(jsgf.contains("= add <dictation> ( to | on | in ) the <lists> list;") && !jsgf.contains("throw") && !jsgf.contains("quick"), "\(jsgf)")
        let typedSentence = try GrammarParser.parse("rule yo = (typed: yo)\nintent Hello:\n    hi there\n    (typed: yo dude)\n    <yo> mate\n", path: "h.hark")
        let helloJSGF = try JSGFExporter.export([GrammarInstance(app: "Hi", grammar: typedSentence)], grammarName: "h")
        #expect(helloJSGF.contains("hi there") && !helloJSGF.contains("<VOID>") && !helloJSGF.contains("dude") && !helloJSGF.contains("mate"), "\(helloJSGF)")
        // A free-text slot's words are shared with its heard uses.
        #expect(throws: GrammarError.self) {
            try compile("slot item: text\nintent AddItem:\n    add (typed: {item}) now\n")
        }
        // A slot of a list or a built-in type may be typed only: its words
        // are its own, read in typed text and never heard.
        let amounts = try compile("slot amount: currency\nintent Pay:\n    pay (five dollars | (typed: {amount}))\n")
        let amountParser = TextParser(graph: amounts)
        #expect(amountParser.parse("pay $12.50").first?.slotValues["amount"] == "12.50 USD")
        #expect(amountParser.parse(tokens: ["pay", "twelve", "dollars", "fifty"]).isEmpty)
        #expect(amountParser.parse(tokens: ["pay", "five", "dollars"]).count == 1)
        #expect(amounts.arcs.joined().allSatisfy { arc in
            if case .word(let word) = arc.label { return ["pay", "five", "dollars"].contains(word) }
            return true
        })
    }

    @Test("'(heard: ...)' words are heard and exported to JSGF as any word is, and not read in typed text; anything but words inside is an error")
    func heardOnlyWords() throws {
        let source = """
        list day:
            friday
        slot task: text
        slot day: day
        intent AddTask:
            remind me to {task} [(heard: on)] [[(typed: on)] {day}] [in tasks]
        """
        let file = try GrammarParser.parse(source, path: "h.hark")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "Tasks", grammar: file)])
        #expect(graph.vocabulary.contains("on"))
        let parser = TextParser(graph: graph)
        // Typed: "on" at the end is the task's; before a day, it is the day's.
        #expect(parser.parse("remind me to put the kettle on").first?.slotValues["task"] == "put the kettle on")
        #expect(parser.parse("remind me to put the kettle on in tasks").first?.slotValues["task"] == "put the kettle on")
        let day = try #require(parser.parse("remind me to call mum on friday").first)
        #expect(day.slotValues["task"] == "call mum" && day.slotValues["day"] == "friday")
        // Heard: the heard-only "on" is read (free text is the last resort).
        let heard = try #require(parser.parse(tokens: ["remind", "me", "to", "go", "on"]).first)
        #expect(heard.slotValues["task"] == "go", "\(heard.slots)")
        #expect(parser.parse(tokens: ["remind", "me", "to", "go", "on", "friday"]).first?.slotValues["day"] == "friday")
        // JSGF: exported as a word of its own, the typed one left out.
        let jsgf = try JSGFExporter.export([GrammarInstance(app: "Tasks", grammar: file)], grammarName: "h")
        #expect(jsgf.contains("remind me to <dictation> [ on ] [ <day> ] [ in tasks ]"), "\(jsgf)")
        // Words only: a slot, a rule or a typed group inside is an error, with where it is.
        for inner in ["{day}", "<r>", "(typed: on)"] {
            #expect(throws: GrammarError.self, "(heard: \(inner))") {
                try GrammarParser.parse("rule r = on\nlist day:\n    friday\nintent A:\n    go (heard: \(inner))\n", path: "bad.hark")
            }
        }
    }

    @Test("a typed colon after a word or a lone dash reads as the grammar's typed 'colon' or 'dash' where it sets words apart, and as nothing elsewhere")
    func typedSeparators() throws {
        let source = """
        slot title: text
        slot tasks: text
        slot content: text
        intent NewList:
            tasks new list {title}
            tasks new list {title} (typed: colon | dash) {tasks}
        intent Note:
            tasks note {content}
        """
        let parser = TextParser(graph: try compile(source))
        // Set apart: the title, then the tasks (not one title across the dash).
        for text in ["Tasks new list camping - tent, stove, torch", "Tasks new list camping: tent, stove, torch",
                     "Tasks new list camping — tent, stove, torch", "Tasks new list camping : tent, stove, torch"] {
            let parse = try #require(parser.parse(text).first, "not understood: \(text)")
            #expect(parse.slotValues == ["title": "camping", "tasks": "tent, stove, torch"], "\(text): \(parse.slots)")
        }
        // No separator: one title; a hyphen inside a word is none.
        #expect(parser.parse("Tasks new list camping trip").first?.slotValues == ["title": "camping trip"])
        #expect(parser.parse("Tasks new list Weet-Bix run").first?.slotValues == ["title": "Weet-Bix run"])
        // Where no form reads it, the separator is nothing, and free text keeps what was typed around it.
        #expect(parser.parse("Tasks note: buy milk").first?.slotValues == ["content": "buy milk"])
        #expect(parser.parse("Tasks note buy milk - and eggs").first?.slotValues == ["content": "buy milk - and eggs"])
        #expect(parser.parse("Tasks note at 8:30 call Bobo").first?.slotValues == ["content": "at 8:30 call Bobo"])
        // Heard, "colon" is no separator: the typed-only form is not read.
        #expect(parser.parse(tokens: ["tasks", "new", "list", "camping", "colon", "tent"]).first?.slotValues == ["title": "camping colon tent"])
    }

    @Test("a slot of people's names takes a typed name its list does not have: capitalised, up to three words, never the first word, 'I' or heard words")
    func typedNames() throws {
        let source = """
        list contactName:
            bobo
            bobo the great => Bobo the Great
        slot recipients: contactName
        slot payee: contactName
        slot content: text
        intent INSendMessageIntent:
            send a message to {recipients} saying {content}
            monkey chat {recipients} {content}
        intent Pay:
            {payee} needs money
        """
        let parser = TextParser(graph: try compile(source))
        let named = try #require(parser.parse("Send a message to Zuzu saying I'm late").first)
        #expect(named.slots == [SlotValue(name: "recipients", raw: "zuzu", value: "Zuzu", isFreeText: true),
                                SlotValue(name: "content", raw: "i'm late", value: "I'm late", isFreeText: true)])
        #expect(parser.parse("Send a message to Mary-Ann O'Brien saying hi").first?.slotValues["recipients"] == "Mary-Ann O'Brien")
        // A name on the list is the list's, as it says it; more than three words are no name.
        let listed = try #require(parser.parse("Send a message to Bobo The Great saying hi").first)
        #expect(listed.slots.first == SlotValue(name: "recipients", raw: "bobo the great", value: "Bobo the Great"))
        #expect(parser.parse("Send a message to Anna Maria Luisa Rossi saying hi").isEmpty)
        // Typed in lower case, heard, "I", or the sentence's first word: no name.
        #expect(parser.parse("send a message to zuzu saying hi").isEmpty)
        #expect(parser.parse(tokens: ["send", "a", "message", "to", "zuzu", "saying", "hi"]).isEmpty)
        #expect(parser.parse("MonkeyChat I'm late").isEmpty)
        #expect(parser.parse("Zuzu needs money").isEmpty)
        #expect(parser.parse("Bobo needs money").first?.slotValues["payee"] == "bobo")
    }

    @Test("a typed name no list has takes the possessive the grammar spells apart: \"Read Zuzu's messages\" reads Zuzu")
    func typedPossessiveNames() throws {
        let source = """
        list contactName:
            bobo
        slot senders: contactName
        intent INSearchForMessagesIntent:
            read [me] {senders}'s messages
            read messages from {senders}
        """
        let parser = TextParser(graph: try compile(source))
        let named = try #require(parser.parse("Read Zuzu's messages").first)
        #expect(named.slots == [SlotValue(name: "senders", raw: "zuzu", value: "Zuzu", isFreeText: true)])
        #expect(parser.parse("Read me Mary-Ann's messages").first?.slotValues["senders"] == "Mary-Ann")
        // The list's own name, as before; a name without the possessive where the grammar wants one is no sentence.
        #expect(parser.parse("read Bobo's messages").first?.slotValues["senders"] == "bobo")
        #expect(parser.parse("Read Zuzu messages").isEmpty)
        // Lower case, or heard: no name.
        #expect(parser.parse("read zuzu's messages").isEmpty)
        #expect(parser.parse(tokens: ["read", "zuzu", "'s", "messages"]).isEmpty)
        // Where the grammar has no possessive, a name typed with one is no sentence either.
        #expect(parser.parse("Read messages from Zuzu's").isEmpty)
    }

    @Test("canonical values keep the raw words too")
    func rawAndCanonical() throws {
        let parser = TextParser(graph: try compile(messagingGrammar))
        let best = try #require(parser.parse("send a message to little bobo").first)
        #expect(best.slots == [SlotValue(name: "recipients", raw: "little bobo", value: "Little Bobo")])
    }

    @Test("typed text is tokenised as the grammar spells it")
    func tokenizer() {
        #expect(TextParser.tokenize("MonkeyChat, Bobo Jr.!") == ["monkey", "chat", "bobo", "junior"])
        #expect(TextParser.tokenize("In ListOMat add apples") == ["in", "list", "o", "mat", "add", "apples"])
        #expect(TextParser.tokenize("  don't   STOP ") == ["don't", "stop"])
    }

    @Test("a wake phrase and filler words are skipped")
    func fillers() throws {
        let parser = TextParser(graph: try compile(messagingGrammar))
        let best = try #require(parser.parse("Hey Siri, um, send a message to bobo").first)
        #expect(best.slotValues["recipients"] == "bobo")
        #expect(best.skipped == ["um"])
    }

    @Test("sentences outside the grammar are not understood", arguments: [
        "what is the weather like today",
        "send a message to alice",
        "send a message",
        "",
        "monkey chat",
    ])
    func rejects(text: String) throws {
        let parser = TextParser(graph: try compile(messagingGrammar))
        #expect(parser.parse(text).isEmpty)
    }

    @Test("the same sentence for two apps gives one parse per app")
    func twoApps() throws {
        let file = try GrammarParser.parse("intent Hello:\n    hello [<app>]\n", path: "h.hark")
        let graph = try GrammarCompiler.compile([
            GrammarInstance(app: "A", grammar: file, externalRules: ["app": .word("alpha")]),
            GrammarInstance(app: "B", grammar: file, externalRules: ["app": .word("beta")]),
        ])
        let parser = TextParser(graph: graph)
        #expect(parser.parse("hello").map(\.app) == ["A", "B"])
        #expect(parser.parse("hello beta").map(\.app) == ["B"])
    }
}

@Suite("Grammar files as editors write them, and grammars that explode")
struct GrammarRobustnessTests {
    static let source = """
        list size:
            small | large
        slot size: size
        rule please = please | kindly
        intent order:
            [<please>] a {size} coffee
        """

    @Test("CRLF and CR-only line ends read as LF")
    func lineEnds() throws {
        let lf = try GrammarParser.parse(Self.source, path: "g.hark")
        for lineEnd in ["\r\n", "\r"] {
            let other = try GrammarParser.parse(Self.source.replacingOccurrences(of: "\n", with: lineEnd), path: "g.hark")
            #expect(other == lf)
        }
    }

    @Test("an error on a CRLF line names the right line and column and shows no raw CR")
    func crlfError() throws {
        let text = "intent order:\r\n    a coffee\r\n    a (tea | coffee\r\n"
        let error = try #require(throws: GrammarError.self) { try GrammarParser.parse(text, path: "g.hark") }
        #expect(error.location.line == 3)
        #expect(!"\(error)".contains("\r"))
    }

    @Test("control bytes in an error are escaped")
    func escapedError() throws {
        let error = try #require(throws: GrammarError.self) { try GrammarParser.parse("intent go:\n    go \u{1B}[2J\n", path: "g\u{7}.hark") }
        #expect("\(error)" == "g\\x07.hark:2:8: error: unexpected '\\x1b'")
    }

    @Test("rules that each use the next twice stop at the limit, naming the chain", arguments: [10, 22, 40])
    func doubling(levels: Int) throws {
        var lines = (0..<levels).map { "rule d\($0) = <d\($0 + 1)> <d\($0 + 1)>" }
        lines += ["rule d\(levels) = yes | no", "intent go:", "    go <d0>"]
        let file = try GrammarParser.parse(lines.joined(separator: "\n"), path: "g.hark")
        let limits = GrammarLimits(maxStates: 5_000, maxArcs: 10_000, maxRuleDepth: 50)
        let instance = GrammarInstance(app: "A", grammar: file)
        if levels == 10 {
            // 2^10 sentences fit.
            #expect(try GrammarCompiler.compile([instance], limits: limits).stateCount < limits.maxStates)
            return
        }
        let error = try #require(throws: GrammarError.self) { try GrammarCompiler.compile([instance], limits: limits) }
        guard case .tooLarge(let rules, let states, let arcs, _) = error.kind else {
            Issue.record("expected a size error: \(error)")
            return
        }
        #expect(rules.first == "d0")
        #expect(states <= limits.maxStates + 1 && arcs <= limits.maxArcs + 2)
        #expect(error.location.line == levels + 3)
    }

    @Test("a chain of rules deeper than the limit is an error, not a deep recursion")
    func deepChain() throws {
        var lines = (0..<60).map { "rule r\($0) = <r\($0 + 1)>" }
        lines += ["rule r60 = end", "intent go:", "    go <r0>"]
        let file = try GrammarParser.parse(lines.joined(separator: "\n"), path: "g.hark")
        let error = try #require(throws: GrammarError.self) { try GrammarCompiler.compile([GrammarInstance(app: "A", grammar: file)]) }
        #expect("\(error)".contains("rules use rules more than 50 levels deep (<r0> -> <r1> -> <r2> -> ... (46 more) -> <r49> -> <r50>)"), "\(error)")
    }
}
