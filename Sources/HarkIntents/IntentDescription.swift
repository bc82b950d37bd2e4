import Foundation

/// What kind of value a parameter takes: decides how a follow-up answer is
/// recognised and read.
public enum ParameterKind: Sendable, Hashable {
    /// A person from the user's contacts (vocabulary type `contactName`).
    case person
    /// Free text (message content, note text).
    case text
    /// One of the values of a vocabulary list of that type.
    case vocabulary(String)
}

/// A parameter of an intent and how the engine asks for it.
public struct ParameterDescription: Sendable, Hashable {
    public var name: String
    public var kind: ParameterKind
    /// What the engine asks when the parameter needs a value. `{name}`
    /// placeholders are filled with other parameters' spoken values.
    public var prompt: String

    public init(name: String, kind: ParameterKind, prompt: String) {
        self.name = name
        self.kind = kind
        self.prompt = prompt
    }
}

/// A SiriKit intent as the engine knows it: its parameters in resolution
/// order and the sentences it answers with.
public struct IntentDescription: Sendable, Hashable {
    public var name: String
    public var domain: String
    public var parameters: [ParameterDescription]
    /// The confirmation question before handling, when the domain confirms.
    public var confirmation: String?
    /// What is said on success; `{name}` placeholders as in prompts.
    public var successSpeech: String
    public var failureSpeech: String

    public init(name: String, domain: String, parameters: [ParameterDescription], confirmation: String? = nil,
                successSpeech: String, failureSpeech: String) {
        self.name = name
        self.domain = domain
        self.parameters = parameters
        self.confirmation = confirmation
        self.successSpeech = successSpeech
        self.failureSpeech = failureSpeech
    }

    /// `template` with `{parameter}` replaced by the intent's spoken values.
    public static func fill(_ template: String, from intent: Intent) -> String {
        var result = template
        for (name, value) in intent.parameters {
            result = result.replacingOccurrences(of: "{\(name)}", with: value.spoken)
        }
        return result
    }
}

/// The SiriKit intents Hark knows, by name.
public enum Domains {
    public static let sendMessage = IntentDescription(
        name: "INSendMessageIntent",
        domain: "Messaging",
        parameters: [
            ParameterDescription(name: "recipients", kind: .person, prompt: "Who do you want to message?"),
            ParameterDescription(name: "content", kind: .text, prompt: "What do you want to say to {recipients}?"),
        ],
        successSpeech: "Your message to {recipients} was sent.",
        failureSpeech: "Sorry, your message to {recipients} could not be sent."
    )

    /// Every intent description, by SiriKit name.
    public static let all: [String: IntentDescription] = [sendMessage.name: sendMessage]
}
