/// The abstract syntax of Hark's grammar language (see `docs/grammar.md`).
///
/// A grammar file declares rules, lists, slots and intents; each intent is a
/// set of sentence templates built from these expressions.
public indirect enum GrammarExpression: Sendable, Equatable {
    /// A spoken word, lower-cased.
    case word(String)
    /// Items spoken one after another.
    case sequence([GrammarExpression])
    /// Exactly one of these.
    case alternatives([GrammarExpression])
    /// This, or nothing.
    case optional(GrammarExpression)
    /// `<name>`: the rule of that name.
    case rule(String, SourceLocation)
    /// `{name}`: the slot of that name, captured. `{name or text}`: here,
    /// a value of the slot's list, or else free text — for a parameter the
    /// app takes in any words, such as a place ("to {dropOffLocation or
    /// text}": "to the airport" is the list's value, "to Union Station"
    /// free text); a list value is preferred where the words are one.
    /// `{name or typed text}`: the same in typed requests only; heard, only
    /// the list's values (``SlotFreeText``).
    case slot(String, SourceLocation, orText: SlotFreeText = .listOnly)
    /// A value spoken as `spoken` that stands for `canonical` (list synonyms).
    case value(spoken: GrammarExpression, canonical: String)
    /// `( a & b & [c] )`: every part once, in any order; `[ ]` parts may be
    /// left out. Compiled by sharing states per set of parts already said,
    /// so nobody writes the permutations out.
    case anyOrder([GrammarExpression], SourceLocation)
    /// `(typed: a | b)`: read in typed text only; a recognizer does not
    /// hear it. For words a person types that, heard, sound like others
    /// ("throw" beside "show"): typed text can be read more widely than
    /// speech at no cost in the recognizer's search or its false accepts.
    case typedOnly(GrammarExpression, SourceLocation)
    /// `(heard: on)`: words a recognizer hears that typed text does not
    /// read, the mirror of `(typed: ...)`. For a word the recognizer needs
    /// to keep a sentence open at a pause ("remind me to water the plants
    /// on ... Friday") that, typed, would take a word of the free text
    /// before it ("put the kettle on"). Words only: no slot or rule.
    case heardOnly(GrammarExpression, SourceLocation)
}

/// What a use of a slot takes besides its list's values.
public enum SlotFreeText: Sendable, Hashable {
    /// `{name}`: only the list's values.
    case listOnly
    /// `{name or text}`: or else free text, typed or heard.
    case text
    /// `{name or typed text}`: or else free text in a typed request; heard,
    /// only the list's values. For a value a carrier word marks in typed
    /// text ("to the beach list") where free text would give the
    /// recognizer's search a place to fit out-of-grammar speech.
    case typedText
}

/// What a slot's values come from.
public enum SlotSource: Sendable, Equatable {
    /// Free text, recognised by dictation.
    case text
    /// A list defined in the grammar, or supplied from vocabulary by that name.
    case list(String)
}

/// One `intent NAME:` block.
public struct IntentDefinition: Sendable, Equatable {
    public var name: String
    public var sentences: [GrammarExpression]
    public var location: SourceLocation

    public init(name: String, sentences: [GrammarExpression], location: SourceLocation) {
        self.name = name
        self.sentences = sentences
        self.location = location
    }
}

/// A parsed grammar file.
public struct GrammarFile: Sendable, Equatable {
    public var path: String
    public var rules: [String: GrammarExpression] = [:]
    public var lists: [String: GrammarExpression] = [:]
    public var slots: [String: SlotSource] = [:]
    public var intents: [IntentDefinition] = []
    /// Where each name was defined, for messages.
    public var locations: [String: SourceLocation] = [:]
    /// Where each slot's type is named (`slot amount: currency`), for
    /// "unknown slot type" messages.
    public var slotTypeLocations: [String: SourceLocation] = [:]

    public init(path: String) { self.path = path }
}

extension GrammarFile {
    /// The slots `intent`'s sentences can fill, in the order they first
    /// appear (through the file's rules), without duplicates.
    public func slotNames(of intent: IntentDefinition) -> [String] {
        var names: [String] = []
        var seen = Set<String>()
        forEachSlot(of: intent) { name, _ in
            if seen.insert(name).inserted { names.append(name) }
        }
        return names
    }

    /// The slots `intent`'s sentences take free text for somewhere: those
    /// declared `text`, and those used as `{slot or text}`.
    public func slotsTakingText(of intent: IntentDefinition) -> Set<String> {
        var names = Set<String>()
        forEachSlot(of: intent) { name, orText in
            if orText == .text || source(ofSlot: name) == .text { names.insert(name) }
        }
        return names
    }

    /// Calls `visit` with every use of a slot in `intent`'s sentences
    /// (through the file's rules, each rule walked once): its name and
    /// what it takes besides the list.
    private func forEachSlot(of intent: IntentDefinition, _ visit: (String, SlotFreeText) -> Void) {
        var visitedRules = Set<String>()
        func walk(_ expression: GrammarExpression) {
            switch expression {
            case .word: break
            case .sequence(let items), .alternatives(let items), .anyOrder(let items, _): items.forEach(walk)
            case .optional(let inner), .typedOnly(let inner, _), .heardOnly(let inner, _): walk(inner)
            case .value(let spoken, _): walk(spoken)
            case .slot(let name, _, let orText): visit(name, orText)
            case .rule(let name, _):
                guard visitedRules.insert(name).inserted, let rule = rules[name] else { return }
                walk(rule)
            }
        }
        intent.sentences.forEach(walk)
    }

    /// Where the values of slot `name` come from: its `slot` declaration,
    /// else the list of the same name.
    public func source(ofSlot name: String) -> SlotSource {
        slots[name] ?? .list(name)
    }
}

extension GrammarFile {
    /// A sentence a person could say for `intent`, for help answers when the
    /// app gives no example: the shortest of its sentences, each choice's
    /// first alternative, optional parts left out, and each slot filled
    /// with its list's first value (or a typical value of a built-in type).
    /// Nil when every sentence needs a value the grammar does not hold
    /// (user vocabulary).
    public func sampleSentence(of intent: IntentDefinition) -> String? {
        let typical: [String: String] = ["number": "two", "ordinal": "first", "currency": "five dollars", "time": "eight a m",
                                         "date": "tomorrow", "duration": "ten minutes"]
        // Rules are expanded once each (a grammar whose rules double each
        // other must not make this exponential), and a sentence longer than
        // a person would say is no example.
        let longest = 40
        var visiting = Set<String>()
        var expanded: [String: [String]?] = [:]
        func words(_ expression: GrammarExpression) -> [String]? {
            switch expression {
            case .word(let w): return [w]
            case .sequence(let items), .anyOrder(let items, _):
                var result: [String] = []
                for item in items {
                    if case .optional = item { continue }
                    guard let part = words(item) else { return nil }
                    result += part
                    if result.count > longest { return nil }
                }
                return result
            case .typedOnly:
                // Not heard: no example of what to say.
                return nil
            case .heardOnly:
                // Not typed: an example leaves it out.
                return []
            case .alternatives(let items):
                return items.lazy.compactMap(words).first
            case .optional: return []
            case .value(let spoken, _): return words(spoken)
            case .rule(let name, _):
                if let known = expanded[name] { return known }
                guard let rule = rules[name], visiting.insert(name).inserted else { return nil }
                defer { visiting.remove(name) }
                let result = words(rule)
                expanded[name] = result
                return result
            case .slot(let name, _, _):
                switch source(ofSlot: name) {
                case .text: return ["something"]
                case .list(let list):
                    if let values = lists[list] { return words(values) }
                    return typical[list].map { $0.split(separator: " ").map(String.init) }
                }
            }
        }
        return intent.sentences.compactMap(words).filter { !$0.isEmpty }.min { $0.count < $1.count }?.joined(separator: " ")
    }
}
