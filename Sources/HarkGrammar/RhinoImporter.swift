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

    public static func translate(_ yaml: String, path: String) throws(GrammarError) -> Result {
        let root = try YAMLSubset.parse(yaml, path: path)
        let context = try RhinoContext(root, path: path)
        let result = try context.render(sourceName: path.split(separator: "/").last.map(String.init) ?? path)
        // Whatever we emit must be a grammar Hark accepts.
        do {
            let file = try GrammarParser.parse(result.grammar, path: "<imported \(path)>")
            _ = try GrammarCompiler.compile([GrammarInstance(app: "Imported", grammar: file,
                                                             externalRules: ["app": .word("app")])])
        } catch {
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
        func translate(_ phrase: Phrase) throws(GrammarError) -> (text: String, nodes: [RhinoNode]) {
            var parser = RhinoExpressionParser(text: phrase.text, position: phrase.position, path: path)
            let nodes = try parser.parse()
            for reference in RhinoNode.references(nodes) {
                switch reference {
                case .slot(let type, let name, let offset):
                    let at = parser.position(offset)
                    let type = slotTypes.contains(where: { $0.name == type }) ? type : RhinoImporter.builtinTypes[type] ?? type
                    guard slotTypes.contains(where: { $0.name == type }) || SpokenValueType(rawValue: type) != nil else {
                        let hint = type.hasPrefix("pv.")
                            ? "this Rhino built-in slot type is not supported (\(RhinoImporter.builtinTypes.keys.sorted().joined(separator: ", ")) are); define '\(type)' under 'slots:'"
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

/// A node of the YAML subset Rhino contexts use.
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

/// Reads the block-style YAML subset of Rhino contexts: nested mappings
/// (`key:`), lists (`- item`, or `[a, b]` of strings on one line), strings
/// plain, `"double"` (with escapes) or `'single'` quoted, and `#` comments.
/// Anything else (anchors, tags, multi-line strings, flow mappings with
/// content) is an error naming the line and column.
struct YAMLSubset {
    struct Line {
        /// 0-based line number.
        var number: Int
        var indent: Int
        /// The whole line.
        var chars: [Character]
    }

    let path: String
    var lines: [Line] = []
    var current = 0

    static func parse(_ text: String, path: String) throws(GrammarError) -> YAMLNode {
        var reader = YAMLSubset(path: path)
        var sawContent = false
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var chars = Array(raw)
            if chars.last == "\r" { chars.removeLast() }
            if number == 0, chars.first == "\u{FEFF}" { chars.removeFirst() }
            let indent = chars.prefix { $0 == " " }.count
            let rest = chars[indent...]
            guard let first = rest.first, first != "#" else { continue }
            if first == "\t" {
                throw reader.error("tabs cannot indent YAML; use spaces", YAMLPosition(line: number + 1, column: indent + 1))
            }
            if indent == 0, rest.starts(with: "---") && (rest.count == 3 || rest.dropFirst(3).first == " ") {
                if sawContent { throw reader.error("only one YAML document is supported", YAMLPosition(line: number + 1, column: 1)) }
                continue
            }
            if indent == 0, rest.starts(with: "...") { break }
            if indent == 0, first == "%" {
                throw reader.error("YAML directives are not supported", YAMLPosition(line: number + 1, column: 1))
            }
            sawContent = true
            reader.lines.append(Line(number: number, indent: indent, chars: chars))
        }
        guard let first = reader.lines.first else {
            throw reader.error("the file is empty; expected 'context:'", YAMLPosition(line: 1, column: 1))
        }
        if first.indent != 0 {
            throw reader.error("the first key must not be indented", YAMLPosition(line: first.number + 1, column: first.indent + 1))
        }
        let root = try reader.parseBlock(indent: 0)
        if reader.current < reader.lines.count {
            let line = reader.lines[reader.current]
            throw reader.error("unexpected indentation", YAMLPosition(line: line.number + 1, column: line.indent + 1))
        }
        return root
    }

    func error(_ message: String, _ position: YAMLPosition) -> GrammarError {
        GrammarError(.syntax(message), at: SourceLocation(file: path, line: position.line, column: position.column))
    }

    func position(_ line: Line, _ column: Int) -> YAMLPosition {
        YAMLPosition(line: line.number + 1, column: column + 1)
    }

    static func isSequenceItem(_ line: Line) -> Bool {
        line.chars[line.indent] == "-" && (line.chars.count == line.indent + 1 || line.chars[line.indent + 1] == " ")
    }

    /// A mapping or list whose lines are indented by exactly `indent`.
    mutating func parseBlock(indent: Int) throws(GrammarError) -> YAMLNode {
        let line = lines[current]
        return Self.isSequenceItem(line) ? try parseSequence(indent: indent) : try parseMapping(indent: indent)
    }

    mutating func parseSequence(indent: Int) throws(GrammarError) -> YAMLNode {
        let start = position(lines[current], indent)
        var items: [YAMLNode] = []
        while current < lines.count, lines[current].indent == indent {
            let line = lines[current]
            guard Self.isSequenceItem(line) else {
                throw error("expected '- ' (a list item) at this indentation", position(line, indent))
            }
            current += 1
            var column = indent + 1
            while column < line.chars.count, line.chars[column] == " " { column += 1 }
            guard column < line.chars.count, line.chars[column] != "#" else {
                throw error("empty list item; nested lists and mappings in a list are not supported", position(line, indent))
            }
            let (value, end) = try scalar(line, from: column, inKey: false)
            try expectEndOfLine(line, from: end)
            if case .scalar(let s, _) = value, Self.looksLikeKey(s) {
                throw error("mappings inside a list are not supported; quote the string if it is one", position(line, column))
            }
            items.append(value)
            try rejectDeeperLine(than: indent)
        }
        return .sequence(items, start)
    }

    mutating func parseMapping(indent: Int) throws(GrammarError) -> YAMLNode {
        let start = position(lines[current], indent)
        var entries: [YAMLNode.Entry] = []
        while current < lines.count, lines[current].indent == indent {
            let line = lines[current]
            if Self.isSequenceItem(line) {
                throw error("a list item where a 'key:' was expected", position(line, indent))
            }
            current += 1
            // The key, plain or quoted, then ':'.
            let keyPosition = position(line, indent)
            var key: String
            var column: Int
            if line.chars[indent] == "\"" || line.chars[indent] == "'" {
                let (node, end) = try scalar(line, from: indent, inKey: true)
                guard case .scalar(let s, _) = node else { throw error("expected a key", keyPosition) }
                key = s
                column = end
                while column < line.chars.count, line.chars[column] == " " { column += 1 }
                guard column < line.chars.count, line.chars[column] == ":" else {
                    throw error("expected ':' after the key", position(line, column))
                }
            } else {
                column = indent
                while column < line.chars.count,
                      !(line.chars[column] == ":" && (column + 1 == line.chars.count || line.chars[column + 1] == " ")) {
                    if line.chars[column] == "#", column > indent, line.chars[column - 1] == " " { break }
                    column += 1
                }
                guard column < line.chars.count, line.chars[column] == ":" else {
                    throw error("expected 'key:' or 'key: value'", keyPosition)
                }
                key = String(line.chars[indent..<column]).trimmingWhitespace()
                if let c = key.first, "[]{}&*!|>%@`,?".contains(c) {
                    throw error("a key cannot start with '\(c)'; quote it", keyPosition)
                }
            }
            if entries.contains(where: { $0.key == key }) {
                throw error("'\(key)' appears twice in this mapping", keyPosition)
            }
            column += 1 // past ':'
            while column < line.chars.count, line.chars[column] == " " { column += 1 }
            let value: YAMLNode
            if column >= line.chars.count || line.chars[column] == "#" {
                // The value is the block below: deeper, or a list at the same indentation.
                if current < lines.count, lines[current].indent > indent {
                    value = try parseBlock(indent: lines[current].indent)
                } else if current < lines.count, lines[current].indent == indent, Self.isSequenceItem(lines[current]) {
                    value = try parseSequence(indent: indent)
                } else {
                    value = .null(keyPosition)
                }
            } else {
                let (node, end) = try scalar(line, from: column, inKey: false)
                try expectEndOfLine(line, from: end)
                if case .scalar(let s, let p) = node, Self.looksLikeKey(s) {
                    throw error("a mapping value cannot be written on the line of its key; put it on the next line, indented", p)
                }
                value = node
                try rejectDeeperLine(than: indent)
            }
            entries.append(YAMLNode.Entry(key: key, value: value, position: keyPosition))
        }
        if current < lines.count, lines[current].indent > indent {
            let line = lines[current]
            throw error("unexpected indentation", position(line, line.indent))
        }
        return .mapping(entries, start)
    }

    /// A plain string that YAML would read as `key: value`.
    static func looksLikeKey(_ s: String) -> Bool {
        s.hasSuffix(":") || s.contains(": ")
    }

    mutating func rejectDeeperLine(than indent: Int) throws(GrammarError) {
        if current < lines.count, lines[current].indent > indent {
            let line = lines[current]
            throw error("unexpected indentation (multi-line strings are not supported; keep each string on one line)",
                        position(line, line.indent))
        }
    }

    func expectEndOfLine(_ line: Line, from: Int) throws(GrammarError) {
        var i = from
        while i < line.chars.count, line.chars[i] == " " { i += 1 }
        guard i < line.chars.count else { return }
        if line.chars[i] == "#", i > from || i == 0 || line.chars[i - 1] == " " { return }
        throw error("unexpected '\(line.chars[i])' after the value", position(line, i))
    }

    /// A string value (or `[]`, `{}`, `[a, "b"]`) starting at `from`;
    /// returns it and the column after it.
    func scalar(_ line: Line, from: Int, inKey: Bool) throws(GrammarError) -> (YAMLNode, Int) {
        let chars = line.chars
        let c = chars[from]
        let at = position(line, from)
        switch c {
        case "\"":
            var value = ""
            var i = from + 1
            while i < chars.count {
                let ch = chars[i]
                if ch == "\"" { return (.scalar(value, position(line, from + 1)), i + 1) }
                if ch == "\\" {
                    guard i + 1 < chars.count else { break }
                    let e = chars[i + 1]
                    i += 2
                    switch e {
                    case "\"": value.append("\"")
                    case "\\": value.append("\\")
                    case "/": value.append("/")
                    case "n": value.append("\n")
                    case "t": value.append("\t")
                    case "r": value.append("\r")
                    case "0": value.append("\0")
                    case " ": value.append(" ")
                    case "x", "u", "U":
                        let digits = e == "x" ? 2 : e == "u" ? 4 : 8
                        guard i + digits <= chars.count,
                              let code = UInt32(String(chars[i..<i + digits]), radix: 16),
                              let scalar = Unicode.Scalar(code) else {
                            throw error("bad '\\\(e)' escape", position(line, i - 2))
                        }
                        value.unicodeScalars.append(scalar)
                        i += digits
                    default:
                        throw error("unknown escape '\\\(e)'", position(line, i - 2))
                    }
                    continue
                }
                value.append(ch)
                i += 1
            }
            throw error("unterminated string; strings must end on the line they start", at)
        case "'":
            var value = ""
            var i = from + 1
            while i < chars.count {
                if chars[i] == "'" {
                    if i + 1 < chars.count, chars[i + 1] == "'" { value.append("'"); i += 2; continue }
                    return (.scalar(value, position(line, from + 1)), i + 1)
                }
                value.append(chars[i])
                i += 1
            }
            throw error("unterminated string; strings must end on the line they start", at)
        case "[" where !inKey:
            return try flowSequence(line, from: from)
        case "{" where !inKey:
            var i = from + 1
            while i < chars.count, chars[i] == " " { i += 1 }
            guard i < chars.count, chars[i] == "}" else {
                throw error("flow mappings ('{...}') are not supported; use indented 'key:' lines", at)
            }
            return (.mapping([], at), i + 1)
        default:
            if "]}&*!|>%@`,".contains(c) {
                throw error("a plain string cannot start with '\(c)' in YAML; quote it", at)
            }
            // Plain: up to a comment or the end of the line.
            var end = from
            while end < chars.count {
                if chars[end] == "#", end > from, chars[end - 1] == " " { break }
                end += 1
            }
            let value = String(chars[from..<end]).trimmingWhitespace()
            if value == "~" || value == "null" { return (.null(at), end) }
            return (.scalar(value, at), end)
        }
    }

    /// `[a, "b", 'c']` on one line: a list of strings.
    func flowSequence(_ line: Line, from: Int) throws(GrammarError) -> (YAMLNode, Int) {
        let chars = line.chars
        let at = position(line, from)
        var items: [YAMLNode] = []
        var i = from + 1
        while true {
            while i < chars.count, chars[i] == " " { i += 1 }
            guard i < chars.count else {
                throw error("expected ']' before the end of the line (a '[...]' list must stay on one line; quote Rhino expressions)", at)
            }
            if chars[i] == "]", items.isEmpty { return (.sequence([], at), i + 1) }
            let itemStart = i
            if chars[i] == "\"" || chars[i] == "'" {
                let (node, end) = try scalar(line, from: i, inKey: true)
                items.append(node)
                i = end
            } else {
                if "[]{}&*!|>%@`,#".contains(chars[i]) {
                    throw error("unexpected '\(chars[i])' in a '[...]' list; quote Rhino expressions", position(line, i))
                }
                while i < chars.count, chars[i] != ",", chars[i] != "]" {
                    if "[{".contains(chars[i]) {
                        throw error("nested '[...]' in a YAML list; quote Rhino expressions", position(line, i))
                    }
                    i += 1
                }
                items.append(.scalar(String(chars[itemStart..<i]).trimmingWhitespace(), position(line, itemStart)))
            }
            while i < chars.count, chars[i] == " " { i += 1 }
            guard i < chars.count else { continue }
            if chars[i] == "," { i += 1; continue }
            if chars[i] == "]" {
                var rest = i + 1
                while rest < chars.count, chars[rest] == " " { rest += 1 }
                if rest < chars.count, chars[rest] != "#" {
                    throw error("text after a YAML '[...]' list; quote Rhino expressions (\"[a, b] c\") so YAML reads them as strings",
                                position(line, rest))
                }
                return (.sequence(items, at), i + 1)
            }
            throw error("expected ',' or ']'", position(line, i))
        }
    }
}
