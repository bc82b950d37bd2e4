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
    /// `{name}`: the slot of that name, captured.
    case slot(String, SourceLocation)
    /// A value spoken as `spoken` that stands for `canonical` (list synonyms).
    case value(spoken: GrammarExpression, canonical: String)
    /// `( a & b & [c] )`: every part once, in any order; `[ ]` parts may be
    /// left out. Compiled by sharing states per set of parts already said,
    /// so nobody writes the permutations out.
    case anyOrder([GrammarExpression], SourceLocation)
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
