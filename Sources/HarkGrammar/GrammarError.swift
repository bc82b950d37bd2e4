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
        }
        return "\(location): error: \(what)"
    }
}
