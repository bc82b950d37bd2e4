/// Writes grammar instances as a JSGF 1.0 grammar, for tools that read JSGF
/// (stock pocketsphinx's `-jsgf`, `sphinx_jsgf2fsg`, other recognizers).
///
/// The JSGF describes the same word language as the compiled
/// ``IntentGraph`` (tags and slot boundaries aside, which JSGF has no use
/// for): Hark rules, lists and built-in types become JSGF rules that
/// sentences refer to, not copies; any-order groups become one rule per set
/// of parts already said; each intent becomes a rule `<App_Intent>`, and
/// the public rule `<command>` is the choice of all intents.
///
/// Only `<command>` is public by default because pocketsphinx 0.8 picks the
/// first public rule it finds in its hash table when no `-toprule` is
/// given; pass `publicIntents: true` to make every intent rule public too
/// (and then name the top rule, e.g. `-toprule hark.command`).
public enum JSGFExporter {
    /// The JSGF text of the instances.
    ///
    /// - Parameters:
    ///   - instances: What the catalog compiles (``GrammarInstance``s).
    ///   - grammarName: The JSGF grammar name (`grammar NAME;`).
    ///   - dictation: The words a free-text slot may take, as the rule
    ///     `<dictation> = (w1 | w2 | ...)+`. When empty, the grammar's own
    ///     vocabulary stands in (JSGF has no "any word").
    ///   - publicIntents: Whether each intent rule is public as well.
    /// - Throws: ``GrammarError`` as ``GrammarCompiler/compile(_:)`` would, and
    ///   a syntax error when no intent is left to export.
    public static func export(_ instances: [GrammarInstance], grammarName: String, dictation: [String] = [],
                              publicIntents: Bool = false) throws(GrammarError) -> String {
        // Compiling first reports every error (undefined, recursive, unknown
        // types) exactly as the assistant would, and gives the vocabulary.
        let graph = try GrammarCompiler.compile(instances)
        var writer = Writer()
        writer.dictationWords = dictation.isEmpty ? graph.vocabulary.sorted() : dictation
        var intentRules: [String] = []
        for (index, instance) in instances.enumerated() {
            for intent in instance.grammar.intents where instance.intents?.contains(intent.name) ?? true {
                var sentences: [String] = []
                for sentence in intent.sentences {
                    // A sentence that is typed only is left out: `| <VOID>` among
                    // the sentences left stock pocketsphinx's search with a way
                    // that leads nowhere ("Final result does not match the grammar").
                    if let text = try writer.text(sentence, instance: index, of: instances, top: true), text != JSGFExporter.unheard {
                        sentences.append(text)
                    }
                }
                guard !sentences.isEmpty else { continue }
                let name = writer.define(base: "\(instance.app)_\(intent.name)", body: sentences.joined(separator: "\n    | "),
                                         isPublic: publicIntents)
                if !intentRules.contains(name) { intentRules.append(name) }
            }
        }
        guard !intentRules.isEmpty else {
            throw GrammarError(.syntax("no intent to export; is any app installed that supports a grammar's intents?"),
                               at: SourceLocation(file: grammarName, line: 1, column: 1))
        }
        let top = intentRules.map { "<\($0)>" }.joined(separator: "\n    | ")
        var lines = ["#JSGF V1.0;", "", "// Written by `hark export jsgf` from the installed apps' Hark grammars.",
                     "grammar \(sanitize(grammarName));", "", "public <command> = \(top);", ""]
        for name in writer.order {
            let rule = writer.rules[name]!
            lines.append("\(rule.isPublic ? "public " : "")<\(name)> = \(rule.body);")
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// A JSGF rule or grammar name: letters, digits and `_` only.
    static func sanitize(_ name: String) -> String {
        let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        return cleaned.isEmpty ? "_" : cleaned
    }

    /// What a `(typed: ...)` part is in JSGF: JSGF's rule that can never
    /// be spoken (a recognizer does not hear typed-only words).
    static let unheard = "<VOID>"

    /// A JSGF token: bare when it only has characters JSGF lexers take as
    /// part of a token (every grammar word does), else quoted. sphinxbase
    /// 0.8 keeps the quotes as part of the word, so quoting is a last resort.
    static func token(_ word: String) -> String {
        if word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "'" || $0 == "-" || $0 == "_" || $0 == "." }) { return word }
        var quoted = "\""
        for c in word {
            if c == "\"" || c == "\\" { quoted.append("\\") }
            quoted.append(c)
        }
        return quoted + "\""
    }

    struct Writer {
        struct Rule { var body: String; var isPublic: Bool }
        var rules: [String: Rule] = [:]
        var order: [String] = []
        /// Rule name by base name and body: identical rules from different
        /// apps (a domain grammar shared by two apps) are written once.
        var byContent: [String: String] = [:]
        /// Rule name by (instance, kind, name), so a rule is written once per
        /// instance even when many sentences use it.
        var memo: [String: String?] = [:]
        var dictationWords: [String] = []
        var anyOrderCount = 0

        mutating func define(base: String, body: String, isPublic: Bool = false) -> String {
            let base = JSGFExporter.sanitize(base)
            let key = base + "\u{0}" + body
            if let name = byContent[key] {
                if isPublic { rules[name]!.isPublic = true }
                return name
            }
            var name = base
            var suffix = 2
            while rules[name] != nil || name == "command" || name == "NULL" || name == "VOID" {
                name = "\(base)_\(suffix)"
                suffix += 1
            }
            rules[name] = Rule(body: body, isPublic: isPublic)
            order.append(name)
            byContent[key] = name
            return name
        }

        /// The dictation rule a free-text slot refers to; nil with no dictation words.
        mutating func dictationText() -> String? {
            let key = "dictation"
            if let known = memo[key] { return known.map { "<\($0)>" } }
            let words = dictationWords.map(JSGFExporter.token).joined(separator: " | ")
            let defined = words.isEmpty ? nil : define(base: "dictation", body: "( \(words) )+")
            memo[key] = .some(defined)
            return defined.map { "<\($0)>" }
        }

        /// A list slot's values as a rule of their own, or a built-in type's words.
        mutating func listText(slot name: String, type: String, at location: SourceLocation, instance: Int,
                               of instances: [GrammarInstance]) throws(GrammarError) -> String? {
            let key = "\(instance)\u{0}list\u{0}\(type)"
            if let known = memo[key] { return known.map { "<\($0)>" } }
            let defined: String?
            if let values = try instances[instance].slotValues(slot: name, type: type, usedAt: location) {
                defined = try text(values, instance: instance, of: instances, top: true)
                    .map { define(base: type, body: $0) }
            } else {
                let type = SpokenValueType(rawValue: type)!
                return try text(type.expression, instance: instance, of: instances)
            }
            memo[key] = .some(defined)
            return defined.map { "<\($0)>" }
        }

        /// The JSGF text of an expression, nil when it matches only silence.
        /// `top` leaves a top-level choice unbracketed.
        mutating func text(_ expression: GrammarExpression, instance: Int, of instances: [GrammarInstance],
                           top: Bool = false) throws(GrammarError) -> String? {
            let inst = instances[instance]
            switch expression {
            case .word(let w):
                return JSGFExporter.token(w)
            case .sequence(let items):
                var parts: [String] = []
                for item in items {
                    if let t = try text(item, instance: instance, of: instances) { parts.append(t) }
                }
                if parts.contains(JSGFExporter.unheard) { return JSGFExporter.unheard }
                return parts.isEmpty ? nil : parts.joined(separator: " ")
            case .alternatives(let items):
                var parts: [String] = []
                var canBeEmpty = false
                var unheard = false
                for item in items {
                    if let t = try text(item, instance: instance, of: instances) {
                        if t == JSGFExporter.unheard {
                            unheard = true
                        } else if !parts.contains(t) {
                            parts.append(t)
                        }
                    } else {
                        canBeEmpty = true
                    }
                }
                if parts.isEmpty { return canBeEmpty || !unheard ? nil : JSGFExporter.unheard }
                if canBeEmpty { return "[ \(parts.joined(separator: " | ")) ]" }
                if parts.count == 1 { return parts[0] }
                return top ? parts.joined(separator: " | ") : "( \(parts.joined(separator: " | ")) )"
            case .optional(let inner):
                guard let t = try text(inner, instance: instance, of: instances), t != JSGFExporter.unheard else { return nil }
                return "[ \(t) ]"
            case .value(let spoken, _):
                return try text(spoken, instance: instance, of: instances, top: top)
            case .typedOnly:
                // Typed text only: no recognizer hears it.
                return JSGFExporter.unheard
            case .heardOnly(let inner, _):
                // Heard as any words are; only typed text leaves it out.
                return try text(inner, instance: instance, of: instances, top: top)
            case .rule(let name, let location):
                let key = "\(instance)\u{0}rule\u{0}\(name)"
                if let known = memo[key] { return known.map { "<\($0)>" } }
                guard let body = inst.rule(named: name) else { throw GrammarError(.undefinedRule(name), at: location) }
                let bodyText = try text(body, instance: instance, of: instances, top: true)
                // A rule that is typed only is unheard where it is used, not a rule of its own.
                if bodyText == JSGFExporter.unheard { return JSGFExporter.unheard }
                let defined = bodyText.map { define(base: name.hasPrefix("hark.") ? "hark_" + name.dropFirst(5) : name, body: $0) }
                memo[key] = .some(defined)
                return defined.map { "<\($0)>" }
            case .slot(let name, let location, let orText):
                var choices: [String?] = []
                switch inst.grammar.slots[name] ?? .list(name) {
                case .text: choices.append(dictationText())
                case .list(let type):
                    choices.append(try listText(slot: name, type: type, at: location, instance: instance, of: instances))
                    // `{slot or text}`: the list's values or the dictation
                    // rule; `{slot or typed text}` is heard as the list alone.
                    if orText == .text { choices.append(dictationText()) }
                }
                let said = choices.compactMap { $0 }
                return said.count > 1 ? "( \(said.joined(separator: " | ")) )" : said.first
            case .anyOrder(let parts, _):
                // Rule per set of parts said (bit mask), from the full set
                // down: R(S) = P_i R(S + i) | ..., optional once every
                // required part is in S.
                var partTexts: [String?] = []
                var required = 0
                for (i, part) in parts.enumerated() {
                    var inner = part
                    if case .optional(let x) = part { inner = x } else { required |= 1 << i }
                    partTexts.append(try text(inner, instance: instance, of: instances))
                }
                anyOrderCount += 1
                let base = "anyorder\(anyOrderCount)"
                let full = (1 << parts.count) - 1
                var ruleOf: [Int: String?] = [full: nil]
                for mask in stride(from: full - 1, through: 0, by: -1) {
                    var choices: [String] = []
                    for i in parts.indices where mask & (1 << i) == 0 {
                        let rest = ruleOf[mask | (1 << i)] ?? nil
                        let head = partTexts[i]
                        let item = [head, rest.map { "<\($0)>" }].compactMap { $0 }.joined(separator: " ")
                        if !item.isEmpty, !choices.contains(item) { choices.append(item) }
                    }
                    if choices.isEmpty { ruleOf[mask] = .some(nil); continue }
                    let choice = choices.joined(separator: " | ")
                    let body = mask & required == required ? "[ \(choice) ]" : choice
                    ruleOf[mask] = .some(define(base: "\(base)_\(mask)", body: body))
                }
                return (ruleOf[0] ?? nil).map { "<\($0)>" }
            }
        }
    }
}
