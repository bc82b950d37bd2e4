import Foundation

/// What kind of value a parameter takes: decides how a follow-up answer is
/// recognised and read.
public enum ParameterKind: Sendable, Hashable {
    /// A person from the user's contacts (vocabulary type `contactName`).
    case person
    /// Free text (message content, note text), recognised by dictation.
    case text
    /// One of the values of a vocabulary list of that type: the app's user
    /// vocabulary (`workoutActivityName`, `notebookItemTitle`) or a shared
    /// domain list (`taskStatus`, `place`).
    case vocabulary(String)
    /// A whole number ("five").
    case number
    /// An amount of money ("twenty dollars"): parts `amount`, `currencyCode`.
    case currencyAmount
    /// A day and time ("tomorrow at eight am"): parts `day`, `hour`, `minute`, `meridiem`.
    case dateTime
    /// A workout goal ("thirty minutes"): parts `goalValue`, `workoutGoalUnitType`.
    case workoutGoal
    /// A value of one of the grammar's built-in types, by name: `number`,
    /// `ordinal`, `currency`, `time`, `date`, `duration` (an app's own
    /// intents; the value is the type's canonical form, e.g. `25 USD`).
    case builtIn(String)
}

/// A parameter of an intent and how the engine asks for it.
public struct ParameterDescription: Sendable, Hashable {
    public var name: String
    public var kind: ParameterKind
    /// What the engine asks when the parameter needs a value. `{name}`
    /// placeholders are filled with other parameters' spoken values.
    public var prompt: String
    /// Whether the default resolution asks for a missing value.
    public var required: Bool
    /// The Swift type of the typed intent's property.
    public var type: String
    /// What the parameter means, for app developers and `hark domains`.
    public var documentation: String

    public init(name: String, kind: ParameterKind, prompt: String, required: Bool = true, type: String = "String",
                documentation: String = "") {
        self.name = name
        self.kind = kind
        self.prompt = prompt
        self.required = required
        self.type = type
        self.documentation = documentation
    }
}

/// A SiriKit intent as the engine knows it: its parameters in resolution
/// order and the sentences it answers with.
public struct IntentDescription: Sendable, Hashable {
    public var name: String
    public var domain: String
    public var parameters: [ParameterDescription]
    /// The confirmation question before handling, when the domain confirms
    /// (payments, rides): spoken after the app's confirm answers `ready`.
    public var confirmation: String?
    /// What is said on success; `{name}` placeholders as in prompts.
    public var successSpeech: String
    public var failureSpeech: String
    /// Example requests (`{app}` is the app's name), for "What can … do?".
    public var examples: [String]
    /// One line on what the intent does.
    public var summary: String
    /// Whether this is an app's own intent (declared in its `Info.plist`)
    /// rather than a SiriKit domain's. The app speaks for itself: a message
    /// in its success response replaces ``successSpeech`` instead of
    /// following it.
    public var isCustom: Bool

    /// The domain name of apps' own intents.
    public static let customDomain = "Custom"

    public init(name: String, domain: String, parameters: [ParameterDescription], confirmation: String? = nil,
                successSpeech: String, failureSpeech: String, examples: [String] = [], summary: String = "",
                isCustom: Bool = false) {
        self.name = name
        self.domain = domain
        self.parameters = parameters
        self.confirmation = confirmation
        self.successSpeech = successSpeech
        self.failureSpeech = failureSpeech
        self.examples = examples
        self.summary = summary
        self.isCustom = isCustom
    }

    /// The parameter of that name.
    public func parameter(_ name: String) -> ParameterDescription? {
        parameters.first { $0.name == name }
    }

    /// `template` with `{parameter}` replaced by the intent's spoken values,
    /// `{output.KEY}` by the app's result fields (and `{app}` by the app);
    /// placeholders without a value are dropped.
    ///
    /// A part in square brackets is said only when every placeholder in it
    /// has a value: `"a {size} {coffeeDrink}[ with {milkAmount}]"`.
    public static func fill(_ template: String, from intent: Intent, output: [String: String] = [:]) -> String {
        var template = template
        while let open = template.range(of: "["),
              let close = template.range(of: "]", range: open.upperBound..<template.endIndex) {
            let inner = String(template[open.upperBound..<close.lowerBound])
            let filled = fill(inner, from: intent, output: output, keepingUnfilled: true)
            template.replaceSubrange(open.lowerBound..<close.upperBound, with: filled.contains("{") ? "" : inner)
        }
        return fill(template, from: intent, output: output, keepingUnfilled: false)
    }

    private static func fill(_ template: String, from intent: Intent, output: [String: String], keepingUnfilled: Bool) -> String {
        var result = template.replacingOccurrences(of: "{app}", with: intent.app)
        for (name, value) in intent.parameters {
            result = substitute("{\(name)}", with: value.spoken, in: result)
        }
        for (key, value) in output {
            result = substitute("{output.\(key)}", with: value, in: result)
        }
        if keepingUnfilled { return result }
        while let open = result.range(of: "{"), let close = result.range(of: "}", range: open.upperBound..<result.endIndex) {
            result.removeSubrange(open.lowerBound..<close.upperBound)
        }
        return result.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .replacingOccurrences(of: " .", with: ".").replacingOccurrences(of: " ?", with: "?")
    }
}

extension IntentDescription {
    /// `template` with each `placeholder` replaced by `value`; where the
    /// template says "the" before it and the value opens with its own ("the
    /// church bake sale"), the value's is dropped: "I made the church bake
    /// sale list", not "the The church …". A value that ends a sentence
    /// of its own ends the template's too: "… says: see you soon. Ready to
    /// send it?", not "soon..".
    static func substitute(_ placeholder: String, with value: String, in template: String) -> String {
        var result = template
        var searchFrom = result.startIndex
        while let range = result.range(of: placeholder, range: searchFrom..<result.endIndex) {
            var filled = value
            if result[..<range.lowerBound].lowercased().hasSuffix("the "), value.lowercased().hasPrefix("the ") {
                filled = String(value.dropFirst(4))
            }
            var replaced = range
            if let last = filled.last, ".?!".contains(last), result[range.upperBound...].hasPrefix(".") {
                replaced = range.lowerBound..<result.index(after: range.upperBound)
            }
            result.replaceSubrange(replaced, with: filled)
            searchFrom = result.index(range.lowerBound, offsetBy: filled.count)
        }
        return result
    }
}

/// The SiriKit intents Hark knows (generated: `Intents.generated.swift`).
public enum Domains {
    /// `INSendMessageIntent`, the seed conversations' intent.
    public static var sendMessage: IntentDescription { INSendMessageIntent.intentDescription }
}
