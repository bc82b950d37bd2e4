/// Translates a Picovoice Rhino context (its YAML format) into Hark grammar
/// text, so an existing speech-to-intent context becomes a Hark app's
/// custom intents.
///
/// The context's shape:
///
/// ```yaml
/// context:
///   expressions:
///     orderDrink:
///       - "[can I get, I'd like] (a) $size:size @drink"
///   slots:
///     size: ["small", "large"]      # or one "- value" per line
///   macros:
///     drink:
///       - "[coffee, tea]"
/// ```
///
/// What becomes what:
///
/// | Rhino | Hark |
/// |---|---|
/// | `[a, b]` (one of them) | `(a \| b)` |
/// | `(a, b)` (optional) | `[a \| b]` |
/// | `$type:name` | `{name}`, with `slot name: type` and `list type:` holding the values |
/// | `@macro` | `<macro>`, with `rule macro:` holding its phrases |
///
/// The result is text, not a ``GrammarFile``, so that it can be read and
/// edited like any grammar; it always parses and compiles (the importer checks).
public enum RhinoImporter {
    /// An imported context: the grammar text and the intents it defines.
    public struct Result: Sendable, Equatable {
        /// Hark grammar source (a `.hark` file).
        public var grammar: String
        /// The intent names, in the context's order.
        public var intents: [String]
    }

    /// Translates the YAML text of a Rhino context.
    ///
    /// - Parameters:
    ///   - yaml: The context file's text.
    ///   - path: The file name used in messages and in the header comment
    ///     (only its last component goes into the header).
    /// - Throws: ``GrammarError`` naming `path`, line and column of what
    ///   cannot be read or translated.
    /// Rhino's built-in slot types that Hark's built-in types cover. Hark's
    /// take a wider range (numbers to 999,999, ordinals to 99th) and give
    /// digits as the value ("25"), where Rhino gives the words.
    static let builtinTypes: [String: String] = [
        "pv.SingleDigitInteger": "number", "pv.TwoDigitInteger": "number",
        "pv.SingleDigitOrdinal": "ordinal", "pv.TwoDigitOrdinal": "ordinal",
    ]

    /// Rhino's other built-in slot types, written into the grammar as lists
    /// of the same name (spoken form, value): one letter (`pv.Alphabetic`,
    /// "bee" → "B"), one letter or digit (`pv.Alphanumeric`), and a
    /// percentage from 0 to 100 (`pv.Percent`, "twenty five percent" → "25%").
    static let builtinLists: [String: [(spoken: String, value: String)]] = {
        let letters = "abcdefghijklmnopqrstuvwxyz".map { (String($0), String($0).uppercased()) }
        let digits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
            .enumerated().map { ($0.element, String($0.offset)) }
        let percents = (0...100).map { ("\(numberWords($0)) percent", "\($0)%") }
        return ["pv.Alphabetic": letters, "pv.Alphanumeric": letters + digits, "pv.Percent": percents]
    }()

    /// Every Rhino built-in slot type the importer takes.
    static var supportedBuiltins: [String] { (Array(builtinTypes.keys) + Array(builtinLists.keys)).sorted() }

    /// English words for 0...100 ("twenty five"), as the grammar spells them.
    static func numberWords(_ n: Int) -> String {
        let small = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                     "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
        let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        if n < 20 { return small[n] }
        if n == 100 { return "one hundred" }
        return tens[n / 10] + (n % 10 == 0 ? "" : " " + small[n % 10])
    }

    public static func translate(_ yaml: String, path: String, limits: GrammarLimits = .standard) throws(GrammarError) -> Result {
        let root = try YAMLReader.parse(yaml, path: path)
        let context = try RhinoContext(root, path: path)
        let result = try context.render(sourceName: path.split(separator: "/").last.map(String.init) ?? path)
        // Whatever we emit must be a grammar Hark accepts.
        do {
            let file = try GrammarParser.parse(result.grammar, path: "<imported \(path)>")
            _ = try GrammarCompiler.compile([GrammarInstance(app: "Imported", grammar: file,
                                                             externalRules: ["app": .word("app")])], limits: limits)
        } catch {
            // Macros that each use the next twice are legal Rhino but grow
            // as 2^n: say so at the macro that starts the chain.
            switch error.kind {
            case .tooLarge(let rules, _, _, _), .rulesTooDeep(let rules, _):
                let macro = rules.first.flatMap { name in context.macros.first { $0.name == name } }
                let at = macro?.position ?? context.intents.first?.position ?? YAMLPosition(line: 1, column: 1)
                var translated = GrammarError(error.kind, at: SourceLocation(file: path, line: at.line, column: at.column))
                if case .tooLarge(let rules, let states, let arcs, let limits) = error.kind {
                    translated.kind = .tooLarge(rules: rules.map { "@" + $0 }, states: states, arcs: arcs, limits: limits)
                }
                throw translated
            default:
                break
            }
            throw GrammarError(.syntax("internal error: the translated grammar does not compile: \(error)"),
                               at: SourceLocation(file: path, line: 1, column: 1))
        }
        return result
    }

    /// The words a slot value is spoken as, in grammar words: lower-cased,
    /// `&` read as "and", other punctuation than `' - . _` dropped.
    static func spokenWords(of value: String) -> [String] {
        value.split(whereSeparator: \.isWhitespace).compactMap { token -> String? in
            if token == "&" { return "and" }
            let kept = String(token.filter(isWordCharacter)).lowercased()
            return kept.contains(where: { $0.isLetter || $0.isNumber }) ? kept : nil
        }
    }

    static func isWordCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "'" || c == "-" || c == "." || c == "_"
    }
}

// MARK: - The context

/// A Rhino context read from the YAML tree, with where each part came from.
struct RhinoContext {
    struct Phrase {
        var text: String
        var position: YAMLPosition
    }

    struct Named {
        var name: String
        var position: YAMLPosition
        var phrases: [Phrase]
    }

    let path: String
    var intents: [Named] = []
    var slotTypes: [Named] = []
    var macros: [Named] = []

    init(_ root: YAMLNode, path: String) throws(GrammarError) {
        self.path = path
        guard case .mapping(let top, let topPosition) = root else {
            throw Self.error("expected a mapping with the key 'context:'", root.position, path)
        }
        guard let contextEntry = top.first(where: { $0.key == "context" }) else {
            throw Self.error("expected the key 'context:' (a Rhino context file)", topPosition, path)
        }
        for entry in top where entry.key != "context" {
            throw Self.error("unexpected key '\(entry.key)'; a Rhino context file has only 'context:'", entry.position, path)
        }
        guard case .mapping(let sections, _) = contextEntry.value else {
            throw Self.error("'context:' must hold 'expressions:', 'slots:' and 'macros:'", contextEntry.value.position, path)
        }
        var sawExpressions = false
        for section in sections {
            switch section.key {
            case "expressions":
                sawExpressions = true
                intents = try Self.namedPhrases(section.value, what: "intent", path: path)
            case "slots":
                slotTypes = try Self.namedPhrases(section.value, what: "slot type", path: path)
            case "macros":
                macros = try Self.namedPhrases(section.value, what: "macro", path: path)
            default:
                throw Self.error("unexpected key '\(section.key)' in 'context:'; expected 'expressions', 'slots' or 'macros'",
                                 section.position, path)
            }
        }
        guard sawExpressions else {
            throw Self.error("'context:' has no 'expressions:'", contextEntry.position, path)
        }
        guard !intents.isEmpty else {
            throw Self.error("'expressions:' defines no intent", contextEntry.position, path)
        }
    }

    static func error(_ message: String, _ position: YAMLPosition, _ path: String) -> GrammarError {
        GrammarError(.syntax(message), at: SourceLocation(file: path, line: position.line, column: position.column))
    }

    /// `name: [strings]` entries of a section (a null section is empty).
    static func namedPhrases(_ node: YAMLNode, what: String, path: String) throws(GrammarError) -> [Named] {
        let entries: [YAMLNode.Entry]
        switch node {
        case .null: return []
        case .mapping(let e, _): entries = e
        default: throw error("expected '\(what) name:' entries, each with a list of strings", node.position, path)
        }
        var result: [Named] = []
        for entry in entries {
            guard !entry.key.isEmpty, entry.key.allSatisfy(GrammarParser.isNameCharacter) else {
                throw error("'\(entry.key)' cannot be a \(what) name; use letters, digits, '_', '-' or '.'", entry.position, path)
            }
            var phrases: [Phrase] = []
            switch entry.value {
            case .scalar(let s, let position):
                phrases = [Phrase(text: s, position: position)]
            case .sequence(let items, _):
                for item in items {
                    guard case .scalar(let s, let position) = item else {
                        throw error("expected a string in the list of \(what) '\(entry.key)'", item.position, path)
                    }
                    phrases.append(Phrase(text: s, position: position))
                }
            case .null, .mapping:
                throw error("expected a list of strings for \(what) '\(entry.key)'", entry.value.position, path)
            }
            guard !phrases.isEmpty else {
                throw error("\(what) '\(entry.key)' has no strings", entry.position, path)
            }
            result.append(Named(name: entry.key, position: entry.position, phrases: phrases))
        }
        return result
    }

    // MARK: Rendering

    func render(sourceName: String) throws(GrammarError) -> RhinoImporter.Result {
        // Intents, lists (slot types) and rules (macros) share one namespace
        // in Hark. (Slot names may repeat them: slots are declared last.)
        var owners: [String: String] = [:]
        for (kind, group) in [("an intent", intents), ("a slot type", slotTypes), ("a macro", macros)] {
            for item in group {
                if let other = owners[item.name] {
                    throw Self.error("'\(item.name)' names both \(other) and \(kind); Hark grammars need distinct names",
                                     item.position, path)
                }
                owners[item.name] = kind
            }
        }

        // Translate every expression first: that finds the slots and checks references.
        var slotTypeOf: [String: (type: String, position: YAMLPosition)] = [:]
        var slotOrder: [String] = []
        var builtinListsUsed: [String] = []
        func translate(_ phrase: Phrase) throws(GrammarError) -> (text: String, nodes: [RhinoNode]) {
            var parser = RhinoExpressionParser(text: phrase.text, position: phrase.position, path: path)
            let nodes = try parser.parse()
            for reference in RhinoNode.references(nodes) {
                switch reference {
                case .slot(let type, let name, let offset):
                    let at = parser.position(offset)
                    let type = slotTypes.contains(where: { $0.name == type }) ? type : RhinoImporter.builtinTypes[type] ?? type
                    if !slotTypes.contains(where: { $0.name == type }), RhinoImporter.builtinLists[type] != nil, !builtinListsUsed.contains(type) {
                        builtinListsUsed.append(type)
                    }
                    guard slotTypes.contains(where: { $0.name == type }) || SpokenValueType(rawValue: type) != nil
                            || RhinoImporter.builtinLists[type] != nil else {
                        let hint = type.hasPrefix("pv.")
                            ? "this Rhino built-in slot type is not supported (\(RhinoImporter.supportedBuiltins.joined(separator: ", ")) are); define '\(type)' under 'slots:'"
                            : "define it under 'slots:'"
                        throw Self.error("unknown slot type '\(type)'; \(hint)", at, path)
                    }
                    if let known = slotTypeOf[name] {
                        guard known.type == type else {
                            throw Self.error("slot '\(name)' is of type '\(known.type)' (line \(known.position.line)), here '\(type)'; a slot has one type",
                                             at, path)
                        }
                    } else {
                        slotTypeOf[name] = (type, at)
                        slotOrder.append(name)
                    }
                case .macro(let name, let offset):
                    guard macros.contains(where: { $0.name == name }) else {
                        throw Self.error("unknown macro '@\(name)'; define it under 'macros:'", parser.position(offset), path)
                    }
                default:
                    break
                }
            }
            return (RhinoNode.render(nodes), nodes)
        }

        var ruleTexts: [(Named, [String])] = []
        var macroReferences: [String: [String]] = [:]
        for macro in macros {
            var alternatives: [String] = []
            for phrase in macro.phrases {
                let (text, nodes) = try translate(phrase)
                macroReferences[macro.name, default: []] += RhinoNode.references(nodes).compactMap {
                    if case .macro(let name, _) = $0 { return name } else { return nil }
                }
                alternatives.append(text.isEmpty ? "[]" : text)
            }
            // An empty alternative: the whole rule is optional.
            if alternatives.contains("[]") {
                let rest = alternatives.filter { $0 != "[]" }
                alternatives = rest.isEmpty ? [] : ["[" + rest.joined(separator: " | ") + "]"]
                guard !alternatives.isEmpty else {
                    throw Self.error("macro '\(macro.name)' says nothing", macro.position, path)
                }
            }
            ruleTexts.append((macro, alternatives))
        }
        try checkMacroCycles(macroReferences)

        var intentTexts: [(Named, [String])] = []
        for intent in intents {
            var sentences: [String] = []
            for phrase in intent.phrases {
                let text = try translate(phrase).text
                guard !text.isEmpty else { throw Self.error("the expression says nothing", phrase.position, path) }
                if !sentences.contains(text) { sentences.append(text) }
            }
            intentTexts.append((intent, sentences))
        }

        var lines = [
            "# Imported from \(sourceName) (a Picovoice Rhino context) by `hark import rhino`.",
            "# Rhino's [a, b] is (a | b) here, (a, b) is [a | b], $type:name is {name}",
            "# with 'slot name: type', and @macro is <macro>. Edit freely; importing",
            "# again overwrites this file.",
        ]
        for type in slotTypes {
            lines += ["", "list \(type.name):"]
            var seen: Set<String> = []
            for value in type.phrases {
                let at = value.position
                let canonical = value.text.trimmingWhitespace()
                let words = RhinoImporter.spokenWords(of: canonical)
                guard !words.isEmpty else {
                    throw Self.error("slot value '\(value.text)' has no words to say", at, path)
                }
                if let bad = canonical.first(where: { $0 == "|" || $0 == "#" || $0.isNewline }) {
                    throw Self.error("slot value '\(value.text)' contains '\(bad)', which a Hark list value cannot hold", at, path)
                }
                guard seen.insert(canonical).inserted else { continue }
                let spoken = words.joined(separator: " ")
                lines.append("    " + (spoken == canonical ? spoken : "\(spoken) => \(canonical)"))
            }
        }
        for type in builtinListsUsed {
            lines += ["", "# Rhino's built-in \(type)."]
            lines += ["list \(type):"] + (RhinoImporter.builtinLists[type] ?? []).map { "    \($0.spoken) => \($0.value)" }
        }
        for (macro, alternatives) in ruleTexts {
            lines += ["", "rule \(macro.name):"]
            lines += alternatives.map { "    " + $0 }
        }
        for (intent, sentences) in intentTexts {
            lines += ["", "intent \(intent.name):"]
            lines += sentences.map { "    " + $0 }
        }
        if !slotOrder.isEmpty {
            lines += ["", "# The list each {slot} takes its values from."]
            for name in slotOrder { lines.append("slot \(name): \(slotTypeOf[name]!.type)") }
        }
        return RhinoImporter.Result(grammar: lines.joined(separator: "\n") + "\n", intents: intents.map(\.name))
    }

    /// Rhino macros may not refer to themselves, directly or through others.
    func checkMacroCycles(_ references: [String: [String]]) throws(GrammarError) {
        var state: [String: Int] = [:] // 1 visiting, 2 done
        func visit(_ name: String, _ stack: [String]) throws(GrammarError) {
            if state[name] == 2 { return }
            if state[name] == 1 {
                let cycle = stack[stack.firstIndex(of: name)!...] + [name]
                let position = macros.first { $0.name == name }?.position ?? YAMLPosition(line: 1, column: 1)
                throw Self.error("recursive macro: \(cycle.map { "@" + $0 }.joined(separator: " -> "))", position, path)
            }
            state[name] = 1
            for next in references[name] ?? [] { try visit(next, stack + [name]) }
            state[name] = 2
        }
        for macro in macros { try visit(macro.name, []) }
    }
}

// MARK: - Rhino expressions

/// One item of a Rhino expression.
indirect enum RhinoNode: Equatable {
    case word(String)
    /// `[a, b]`: exactly one of the alternatives.
    case choice([[RhinoNode]])
    /// `(a, b)`: one of them or nothing.
    case optional([[RhinoNode]])
    /// `$type:name`, at a character offset in the expression.
    case slot(type: String, name: String, offset: Int)
    /// `@name`.
    case macro(String, offset: Int)

    static func references(_ nodes: [RhinoNode]) -> [RhinoNode] {
        nodes.flatMap { node -> [RhinoNode] in
            switch node {
            case .word: return []
            case .slot, .macro: return [node]
            case .choice(let alternatives), .optional(let alternatives): return alternatives.flatMap(references)
            }
        }
    }

    /// Hark template text; empty when the sequence says nothing.
    static func render(_ nodes: [RhinoNode]) -> String {
        nodes.map(\.rendered).filter { !$0.isEmpty }.joined(separator: " ")
    }

    var rendered: String {
        switch self {
        case .word(let w): return w
        case .slot(_, let name, _): return "{\(name)}"
        case .macro(let name, _): return "<\(name)>"
        case .choice(let alternatives), .optional(let alternatives):
            let texts = alternatives.map(Self.render)
            var spoken: [String] = []
            for t in texts where !t.isEmpty && !spoken.contains(t) { spoken.append(t) }
            guard !spoken.isEmpty else { return "" }
            // A choice with an empty alternative is optional in Hark.
            if case .choice = self, !texts.contains("") {
                return "(" + spoken.joined(separator: " | ") + ")"
            }
            return "[" + spoken.joined(separator: " | ") + "]"
        }
    }
}

/// Reads one Rhino expression: words, `[a, b]`, `(a, b)`, `$type:name`, `@macro`.
struct RhinoExpressionParser {
    let chars: [Character]
    /// Where the string starts in the file (its first character, inside any quote).
    let start: YAMLPosition
    let path: String
    var index = 0
    /// How many '[' and '(' the parser is inside (at most ExpressionParser.maxNesting).
    var depth = 0

    init(text: String, position: YAMLPosition, path: String) {
        chars = Array(text)
        start = position
        self.path = path
    }

    /// The file position of a character offset (exact unless the string had escapes).
    func position(_ offset: Int) -> YAMLPosition {
        YAMLPosition(line: start.line, column: start.column + offset)
    }

    func error(_ message: String, at offset: Int? = nil) -> GrammarError {
        RhinoContext.error(message, position(offset ?? index), path)
    }

    mutating func parse() throws(GrammarError) -> [RhinoNode] {
        let nodes = try parseSequence(inside: nil)
        if index < chars.count { throw error("unexpected '\(chars[index])'") }
        return nodes
    }

    mutating func skipSpaces() {
        while index < chars.count, chars[index].isWhitespace { index += 1 }
    }

    mutating func parseSequence(inside closing: Character?) throws(GrammarError) -> [RhinoNode] {
        var nodes: [RhinoNode] = []
        while true {
            skipSpaces()
            guard index < chars.count else {
                if let closing { throw error("expected '\(closing)' before the end of the expression") }
                return nodes
            }
            let c = chars[index]
            switch c {
            case "[", "(":
                guard depth < ExpressionParser.maxNesting else {
                    throw error("'\(c)' nested more than \(ExpressionParser.maxNesting) levels deep; use a macro (@name) for the inner part")
                }
                let open = index
                index += 1
                depth += 1
                defer { depth -= 1 }
                let close: Character = c == "[" ? "]" : ")"
                var alternatives: [[RhinoNode]] = [try parseSequence(inside: close)]
                while index < chars.count, chars[index] == "," {
                    index += 1
                    alternatives.append(try parseSequence(inside: close))
                }
                guard index < chars.count, chars[index] == close else {
                    throw error("expected '\(close)' to close the '\(c)' at column \(position(open).column)")
                }
                index += 1
                nodes.append(c == "[" ? .choice(alternatives) : .optional(alternatives))
            case "]", ")", ",":
                guard closing != nil else {
                    throw error(c == "," ? "',' outside '[...]' or '(...)'" : "unexpected '\(c)'")
                }
                if c != "," && c != closing { throw error("expected '\(closing!)', found '\(c)'") }
                return nodes
            case "$":
                let at = index
                index += 1
                let type = readName(allowDot: true)
                guard !type.isEmpty, index < chars.count, chars[index] == ":" else {
                    throw error("expected '$type:name' for a slot", at: at)
                }
                index += 1
                let name = readName(allowDot: false)
                guard !name.isEmpty else { throw error("expected a slot name after '$\(type):'", at: at) }
                nodes.append(.slot(type: type, name: name, offset: at))
            case "@":
                let at = index
                index += 1
                let name = readName(allowDot: true)
                guard !name.isEmpty else { throw error("expected a macro name after '@'", at: at) }
                nodes.append(.macro(name, offset: at))
            default:
                guard RhinoImporter.isWordCharacter(c) else {
                    throw error("unexpected '\(c)'; words may use letters, digits and ' - . _")
                }
                let wordStart = index
                while index < chars.count, RhinoImporter.isWordCharacter(chars[index]) { index += 1 }
                nodes.append(.word(String(chars[wordStart..<index]).lowercased()))
            }
        }
    }

    mutating func readName(allowDot: Bool) -> String {
        let nameStart = index
        while index < chars.count,
              chars[index].isLetter || chars[index].isNumber || chars[index] == "_" || chars[index] == "-"
                || (allowDot && chars[index] == ".") {
            index += 1
        }
        return String(chars[nameStart..<index])
    }
}

// MARK: - YAML subset

/// A line and column in a YAML file (1-based).
struct YAMLPosition: Equatable {
    var line: Int
    var column: Int
}

/// A node of a YAML document, as Rhino contexts use them (aliases expanded).
indirect enum YAMLNode: Equatable {
    struct Entry: Equatable {
        var key: String
        var value: YAMLNode
        var position: YAMLPosition
    }

    case null(YAMLPosition)
    case scalar(String, YAMLPosition)
    case sequence([YAMLNode], YAMLPosition)
    case mapping([Entry], YAMLPosition)

    var position: YAMLPosition {
        switch self {
        case .null(let p), .scalar(_, let p), .sequence(_, let p), .mapping(_, let p): return p
        }
    }
}
