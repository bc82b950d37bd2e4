import HarkText

/// A place in a grammar source: file, line and column (1-based), like a compiler.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// Everything that can be wrong with a grammar, named by where it is and
/// what was expected there.
public struct GrammarError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The text could not be read as grammar syntax.
        case syntax(String)
        /// `<name>` names no rule.
        case undefinedRule(String)
        /// `{name}` names no slot or list.
        case undefinedSlot(String)
        /// A rule refers to itself, directly or through others.
        case recursiveRule([String])
        /// A list or slot has no values.
        case emptyList(String)
        /// A name is defined twice.
        case duplicateDefinition(String)
        /// `slot NAME: TYPE` names neither a list, vocabulary, `text` nor a built-in type.
        case unknownSlotType(slot: String, type: String)
        /// Expanding the grammar (rules using rules, lists, any-order groups)
        /// made a graph past ``GrammarLimits``; `rules` is the chain of rules
        /// being expanded when it did, outermost first.
        case tooLarge(rules: [String], states: Int, arcs: Int, limits: GrammarLimits)
        /// Rules using rules more than ``GrammarLimits/maxRuleDepth`` deep.
        case rulesTooDeep([String], limits: GrammarLimits)
    }

    public var kind: Kind
    public var location: SourceLocation

    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    public var description: String {
        let what: String
        switch kind {
        case .syntax(let message): what = message
        case .undefinedRule(let name): what = "undefined rule <\(name)>; define it with 'rule \(name) = ...'"
        case .undefinedSlot(let name):
            what = "undefined slot {\(name)}; declare it with 'slot \(name): text', 'slot \(name): LIST' or 'list \(name) = ...'"
        case .recursiveRule(let cycle): what = "recursive rule: \(cycle.map { "<\($0)>" }.joined(separator: " -> "))"
        case .emptyList(let name): what = "'\(name)' has no values"
        case .duplicateDefinition(let name): what = "'\(name)' is defined twice"
        case .unknownSlotType(let slot, let type):
            let builtins = SpokenValueType.allCases.map(\.rawValue).joined(separator: ", ")
            what = "unknown slot type '\(type)' for slot {\(slot)}; expected text, \(builtins), a list defined with 'list \(type): ...' or an app vocabulary type"
        case .tooLarge(let rules, let states, let arcs, let limits):
            let chain = rules.isEmpty ? "" : " while expanding \(Self.chain(rules))"
            what = "the grammar expands to more than \(limits.maxStates) states or \(limits.maxArcs) arcs (reached \(states) states, \(arcs) arcs\(chain)); a rule used twice in a sequence doubles everything under it: name fewer combinations, or use a list or {slot: text} instead"
        case .rulesTooDeep(let rules, let limits):
            what = "rules use rules more than \(limits.maxRuleDepth) levels deep (\(Self.chain(rules))); flatten the chain"
        }
        return escapingControlCharacters("\(location): error: \(what)")
    }

    /// `<a> -> <b> -> ... -> <z>`, eliding the middle of long chains.
    static func chain(_ rules: [String]) -> String {
        let names = rules.map { $0.hasPrefix("@") ? $0 : "<\($0)>" }
        guard names.count > 6 else { return names.joined(separator: " -> ") }
        return (names.prefix(3) + ["... (\(names.count - 5) more)"] + names.suffix(2)).joined(separator: " -> ")
    }
}


/// How large a compiled grammar may grow. Expanding is checked as it goes,
/// so a small file whose rules each use the next one twice (2^n paths)
/// stops with an error instead of exhausting memory. The sample apps and
/// the built-in domains compile to about 14,000 states and 20,000 arcs, an
/// imported Rhino context (barista) to 19,500 and 24,000: ``standard`` is
/// 10 to 16 times that. The limit is set by what the recognizer can take:
/// a grammar at it makes pocketsphinx's search use several hundred
/// megabytes (docs/grammar.md).
public struct GrammarLimits: Sendable, Equatable {
    /// The most states the intent graph of all installed apps may have.
    public var maxStates: Int
    /// The most arcs the intent graph of all installed apps may have.
    public var maxArcs: Int
    /// The deepest chain of rules using rules.
    public var maxRuleDepth: Int

    public init(maxStates: Int, maxArcs: Int, maxRuleDepth: Int) {
        self.maxStates = maxStates
        self.maxArcs = maxArcs
        self.maxRuleDepth = maxRuleDepth
    }

    /// What Hark compiles with: 200,000 states, 400,000 arcs, rule chains
    /// 50 deep.
    public static let standard = GrammarLimits(maxStates: 200_000, maxArcs: 400_000, maxRuleDepth: 50)
}
