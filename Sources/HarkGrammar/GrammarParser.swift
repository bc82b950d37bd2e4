/// Reads Hark grammar files (`*.hark`) into a ``GrammarFile``.
///
/// The format is line-oriented: `rule`, `list`, `slot` and `intent`
/// declarations at the left margin, their alternatives either after `=` on
/// the same line or on the indented lines below a trailing `:`. `#` starts a
/// comment. `docs/grammar.md` describes every construct with examples.
public enum GrammarParser {
    /// Parses grammar source text.
    ///
    /// - Parameters:
    ///   - text: The grammar source.
    ///   - path: The file name used in error messages.
    /// - Throws: ``GrammarError`` naming file, line and column.
    public static func parse(_ text: String, path: String) throws(GrammarError) -> GrammarFile {
        var file = GrammarFile(path: path)
        var defined: Set<String> = []
        // LF, CRLF (Windows editors) and CR alone (classic Mac) all end a line;
        // Swift reads "\r\n" as one character, so it is named on its own.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .map(String.init)
        var index = 0

        func location(_ line: Int, _ column: Int) -> SourceLocation {
            SourceLocation(file: path, line: line + 1, column: column + 1)
        }

        while index < lines.count {
            let raw = stripComment(lines[index])
            let lineNumber = index
            index += 1
            if raw.allSatisfy(\.isWhitespace) { continue }
            if raw.first!.isWhitespace {
                throw GrammarError(.syntax("indented line outside a 'rule', 'list' or 'intent' block"),
                                   at: location(lineNumber, raw.prefix { $0.isWhitespace }.count))
            }
            // Header: KEYWORD NAME (= body | : [body] | : TYPE for slots)
            let (keyword, afterKeyword) = splitWord(raw, from: 0)
            let (name, afterName) = splitWord(raw, from: afterKeyword)
            guard ["rule", "list", "slot", "intent"].contains(keyword) else {
                throw GrammarError(.syntax("expected 'rule', 'list', 'slot' or 'intent', found '\(keyword)'"),
                                   at: location(lineNumber, 0))
            }
            guard !name.isEmpty, name.allSatisfy(isNameCharacter) else {
                throw GrammarError(.syntax("expected a name after '\(keyword)'"),
                                   at: location(lineNumber, afterKeyword))
            }
            let rest = Array(raw)[afterName...].drop { $0 == " " || $0 == "\t" }
            let restColumn = raw.count - rest.count
            guard let marker = rest.first, marker == "=" || marker == ":" else {
                throw GrammarError(.syntax("expected '=' or ':' after '\(keyword) \(name)'"),
                                   at: location(lineNumber, restColumn))
            }
            // Rules, lists, slots and intents have a namespace each
            // (`slot size: size` names the list it takes).
            guard defined.insert("\(keyword) \(name)").inserted else {
                throw GrammarError(.duplicateDefinition(name), at: location(lineNumber, afterKeyword + 1))
            }
            if file.locations[name] == nil { file.locations[name] = location(lineNumber, afterKeyword + 1) }
            let inlineBody = String(rest.dropFirst())
            let inlineColumn = restColumn + 1

            if keyword == "slot" {
                let type = inlineBody.trimmingWhitespace()
                guard marker == ":", !type.isEmpty else {
                    throw GrammarError(.syntax("expected 'slot \(name): text' or 'slot \(name): LIST'"),
                                       at: location(lineNumber, marker == ":" ? inlineColumn + inlineBody.count : restColumn))
                }
                guard type.allSatisfy(isNameCharacter) else {
                    throw GrammarError(.syntax("expected one slot type after 'slot \(name):' (text, a list name or a built-in type such as number)"),
                                       at: location(lineNumber, inlineColumn + inlineBody.prefix { $0.isWhitespace }.count))
                }
                file.slots[name] = type == "text" ? .text : .list(type)
                file.slotTypeLocations[name] = location(lineNumber, inlineColumn + inlineBody.prefix { $0.isWhitespace }.count)
                continue
            }

            // Collect the body lines: the inline part and/or the indented block.
            var bodies: [(text: String, line: Int, column: Int)] = []
            if !inlineBody.allSatisfy(\.isWhitespace) {
                bodies.append((inlineBody, lineNumber, inlineColumn))
            }
            if marker == ":" {
                while index < lines.count {
                    let next = stripComment(lines[index])
                    if next.allSatisfy(\.isWhitespace) { index += 1; continue }
                    guard next.first!.isWhitespace else { break }
                    bodies.append((next, index, 0))
                    index += 1
                }
            }
            guard !bodies.isEmpty else {
                throw GrammarError(keyword == "list" ? .emptyList(name) : .syntax("'\(keyword) \(name)' has no alternatives"),
                                   at: location(lineNumber, afterKeyword + 1))
            }

            switch keyword {
            case "rule":
                var alternatives: [GrammarExpression] = []
                for body in bodies {
                    alternatives.append(try ExpressionParser.parse(body.text, path: path, line: body.line, column: body.column))
                }
                file.rules[name] = alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
            case "list":
                var values: [GrammarExpression] = []
                for body in bodies {
                    values += try ExpressionParser.parseListValues(body.text, path: path, line: body.line, column: body.column)
                }
                file.lists[name] = .alternatives(values)
            default: // intent
                var sentences: [GrammarExpression] = []
                for body in bodies {
                    sentences.append(try ExpressionParser.parse(body.text, path: path, line: body.line, column: body.column))
                }
                file.intents.append(IntentDefinition(name: name, sentences: sentences,
                                                     location: location(lineNumber, afterKeyword + 1)))
            }
        }
        return file
    }

    /// Parses one template expression, such as `send [a] message to {recipients}`.
    ///
    /// - Throws: ``GrammarError`` naming `path`, line 1 and the column.
    public static func parseExpression(_ text: String, path: String = "<expression>") throws(GrammarError) -> GrammarExpression {
        try ExpressionParser.parse(text, path: path, line: 0, column: 0)
    }

    static func isNameCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "-" || c == "."
    }

    private static func stripComment(_ line: String) -> String {
        guard let hash = line.firstIndex(of: "#") else { return line }
        return String(line[..<hash])
    }

    /// The word starting at `from` (after spaces) and the offset after it.
    private static func splitWord(_ line: String, from: Int) -> (String, Int) {
        let chars = Array(line)
        var i = from
        while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
        let start = i
        while i < chars.count, isNameCharacter(chars[i]) { i += 1 }
        return (String(chars[start..<i]), i)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

/// Parses one template expression: words, `( a | b )`, `[optional]`,
/// `<rule>`, `{slot}`.
struct ExpressionParser {
    let chars: [Character]
    let path: String
    let line: Int
    let column: Int
    var position = 0
    /// How many groups ('(' and '[') the parser is inside.
    var depth = 0

    /// The deepest nesting of '(' and '[' a grammar may use. Real grammars
    /// use a handful of levels; the limit keeps a hostile file from
    /// exhausting the stack of every stage that walks the expression.
    static let maxNesting = 50

    static func parse(_ text: String, path: String, line: Int, column: Int) throws(GrammarError) -> GrammarExpression {
        var parser = ExpressionParser(chars: Array(text), path: path, line: line, column: column)
        let expression = try parser.parseAlternatives(closing: nil)
        return expression
    }

    /// A list body: `value [=> canonical] | value [=> canonical] ...`.
    static func parseListValues(_ text: String, path: String, line: Int, column: Int) throws(GrammarError) -> [GrammarExpression] {
        var values: [GrammarExpression] = []
        var parser = ExpressionParser(chars: Array(text), path: path, line: line, column: column)
        while true {
            parser.skipSpaces()
            let spoken = try parser.parseSequence(stopAtArrow: true)
            if case .sequence(let items) = spoken, items.isEmpty {
                throw parser.error("empty list value")
            }
            parser.skipSpaces()
            if parser.peek("=>") {
                parser.position += 2
                parser.skipSpaces()
                let start = parser.position
                while parser.position < parser.chars.count, parser.chars[parser.position] != "|" { parser.position += 1 }
                let canonical = String(parser.chars[start..<parser.position]).trimmingWhitespace()
                guard !canonical.isEmpty else { throw parser.error("expected a value after '=>'") }
                values.append(.value(spoken: spoken, canonical: canonical))
            } else {
                values.append(.value(spoken: spoken, canonical: spoken.spokenText))
            }
            parser.skipSpaces()
            if parser.position >= parser.chars.count { break }
            guard parser.chars[parser.position] == "|" else { throw parser.error("expected '|' or '=>'") }
            parser.position += 1
        }
        return values
    }

    func error(_ message: String) -> GrammarError {
        GrammarError(.syntax(message), at: SourceLocation(file: path, line: line + 1, column: column + position + 1))
    }

    mutating func skipSpaces() {
        while position < chars.count, chars[position] == " " || chars[position] == "\t" || chars[position] == "\r" {
            position += 1
        }
    }

    func peek(_ s: String) -> Bool {
        let target = Array(s)
        guard position + target.count <= chars.count else { return false }
        return Array(chars[position..<position + target.count]) == target
    }

    /// The most parts an any-order group may have: its graph grows as 2^n.
    static let maxAnyOrderParts = 6

    mutating func parseAlternatives(closing: Character?, opening: Int? = nil) throws(GrammarError) -> GrammarExpression {
        var alternatives: [GrammarExpression] = []
        // Which separator this group uses: '|' (alternatives) or '&' (any order).
        var separator: Character?
        while true {
            let sequence = try parseSequence(stopAtArrow: false)
            if case .sequence(let items) = sequence, items.isEmpty {
                throw error(closing == nil && alternatives.isEmpty && position >= chars.count
                    ? "expected words, '(', '[', '<rule>' or '{slot}'"
                    : separator == "&" ? "empty part in an any-order group; use [ ... ] for an optional part"
                    : "empty alternative; use [ ... ] for an optional part")
            }
            alternatives.append(sequence)
            skipSpaces()
            if position >= chars.count {
                if let closing { throw error("expected '\(closing)' before the end of the line") }
                break
            }
            let c = chars[position]
            if c == "|" || c == "&" {
                if c == "&", closing != ")" {
                    throw error("'&' (any order) is only allowed inside ( ... ); write ( a & b )")
                }
                if let separator, separator != c {
                    throw error("cannot mix '|' and '&' in one group; put the alternatives in their own ( ... )")
                }
                separator = c
                position += 1
                continue
            }
            if let closing, c == closing { position += 1; break }
            throw error("unexpected '\(c)'")
        }
        if separator == "&" {
            let start = opening ?? position
            let location = SourceLocation(file: path, line: line + 1, column: column + start + 1)
            guard alternatives.count <= Self.maxAnyOrderParts else {
                throw GrammarError(.syntax("an any-order group may have at most \(Self.maxAnyOrderParts) parts, this one has \(alternatives.count); group some parts in a fixed order or split the sentence"), at: location)
            }
            return .anyOrder(alternatives, location)
        }
        return alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
    }

    mutating func parseSequence(stopAtArrow: Bool) throws(GrammarError) -> GrammarExpression {
        var items: [GrammarExpression] = []
        while true {
            skipSpaces()
            guard position < chars.count else { break }
            let c = chars[position]
            if c == "|" || c == "&" || c == ")" || c == "]" { break }
            if stopAtArrow, peek("=>") { break }
            switch c {
            case "(", "[":
                guard depth < Self.maxNesting else {
                    throw error("'\(c)' nested more than \(Self.maxNesting) levels deep; name the inner part as a rule")
                }
                let opening = position
                position += 1
                // `(typed: ...)`, `[typed: ...]`: typed text only;
                // `(heard: ...)`, `[heard: ...]`: heard only.
                let typed = String(chars[position...].prefix(6)) == "typed:"
                let heard = !typed && String(chars[position...].prefix(6)) == "heard:"
                if typed || heard { position += 6 }
                depth += 1
                var group = try parseAlternatives(closing: c == "(" ? ")" : "]", opening: opening)
                depth -= 1
                let location = SourceLocation(file: path, line: line + 1, column: column + opening + 1)
                if typed { group = .typedOnly(group, location) }
                if heard {
                    guard group.isWordsOnly else {
                        throw error("(heard: ...) holds words only, no slot, rule or (typed: ...) group")
                    }
                    group = .heardOnly(group, location)
                }
                items.append(c == "(" ? group : .optional(group))
            case "<", "{":
                let close: Character = c == "<" ? ">" : "}"
                let start = position
                position += 1
                let nameStart = position
                while position < chars.count, GrammarParser.isNameCharacter(chars[position]) { position += 1 }
                let name = String(chars[nameStart..<position])
                // `{name or text}`: the slot's list, or else free text;
                // `{name or typed text}`: the same, typed only.
                var orText = SlotFreeText.listOnly
                if c == "{", !name.isEmpty {
                    let rest = String(chars[position...].prefix(14))
                    if rest == " or typed text" {
                        orText = .typedText
                        position += 14
                    } else if rest.hasPrefix(" or text") {
                        orText = .text
                        position += 8
                    }
                }
                guard !name.isEmpty, position < chars.count, chars[position] == close else {
                    position = start
                    throw error("expected a name and '\(close)' after '\(c)'" + (c == "{" ? " (or '{name or text}', '{name or typed text}')" : ""))
                }
                position += 1
                let loc = SourceLocation(file: path, line: line + 1, column: column + start + 1)
                items.append(c == "<" ? .rule(name, loc) : .slot(name, loc, orText: orText))
            default:
                guard isWordCharacter(c) else { throw error("unexpected '\(c)'") }
                let start = position
                while position < chars.count, isWordCharacter(chars[position]) { position += 1 }
                items.append(.word(String(chars[start..<position]).lowercased()))
            }
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    func isWordCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "'" || c == "-" || c == "." || c == "_"
    }
}

extension GrammarExpression {
    /// The words of the first path through this expression, for canonical values.
    var spokenText: String {
        switch self {
        case .word(let w): return w
        case .sequence(let items): return items.map(\.spokenText).filter { !$0.isEmpty }.joined(separator: " ")
        case .alternatives(let items): return items.first?.spokenText ?? ""
        case .optional: return ""
        case .rule(let name, _), .slot(let name, _, _): return name
        case .value(_, let canonical): return canonical
        case .anyOrder(let parts, _): return parts.map(\.spokenText).filter { !$0.isEmpty }.joined(separator: " ")
        case .typedOnly(let inner, _), .heardOnly(let inner, _): return inner.spokenText
        }
    }

    /// Whether this is words alone, grouped or optional: what `(heard: ...)` may hold.
    var isWordsOnly: Bool {
        switch self {
        case .word: return true
        case .sequence(let items), .alternatives(let items): return items.allSatisfy(\.isWordsOnly)
        case .optional(let inner): return inner.isWordsOnly
        case .rule, .slot, .value, .anyOrder, .typedOnly, .heardOnly: return false
        }
    }
}
