/// A parameter value of an intent: the words the person said and the value
/// they stand for (a contact's identifier, a canonical list value, ...).
public struct ParameterValue: Sendable, Hashable, CustomStringConvertible {
    /// The words as spoken.
    public var spoken: String
    /// The value the app works with.
    public var value: String

    public init(spoken: String, value: String) {
        self.spoken = spoken
        self.value = value
    }

    public init(_ value: String) {
        self.init(spoken: value, value: value)
    }

    public var description: String { value }
}

/// A request for an app: which intent, with which parameters so far.
///
/// Parameters are keyed by their SiriKit names (`recipients`, `content`).
public struct Intent: Sendable, Hashable {
    /// The app's name, as in its `CFBundleName`.
    public var app: String
    /// The SiriKit intent name, e.g. `INSendMessageIntent`.
    public var name: String
    public var parameters: [String: ParameterValue]

    public init(app: String, name: String, parameters: [String: ParameterValue] = [:]) {
        self.app = app
        self.name = name
        self.parameters = parameters
    }

    public subscript(_ parameter: String) -> ParameterValue? {
        get { parameters[parameter] }
        set { parameters[parameter] = newValue }
    }
}

/// The outcome of resolving one parameter, as SiriKit names them.
public enum ResolutionResult: Sendable, Hashable {
    /// The value is right.
    case success(with: ParameterValue)
    /// Ask the person to confirm this value.
    case confirmationRequired(with: ParameterValue)
    /// Ask the person to choose one of these (2 to 10).
    case disambiguation(with: [ParameterValue])
    /// A value is needed; ask for one.
    case needsValue
    /// The value is not specific enough; ask again.
    case needsMoreDetails
    /// The parameter does not matter for this request.
    case notRequired
    /// The value cannot be used, for this reason.
    case unsupported(reason: String?)
}

/// Response codes of the confirm and handle stages.
public enum IntentResponseCode: String, Sendable, Hashable, Codable {
    /// Ready to handle (confirm only).
    case ready
    /// Accepted; still being carried out.
    case inProgress
    case success
    case failure
    /// The app must be opened to finish.
    case failureRequiringAppLaunch
    case unspecified
}

/// What an app answers in confirm or handle.
public struct IntentResponse: Sendable, Hashable {
    public var code: IntentResponseCode
    /// Extra words for the person, appended to the domain's own answer.
    public var message: String?
    /// What the app would open, for `failureRequiringAppLaunch`.
    public var userActivity: String?

    public init(code: IntentResponseCode, message: String? = nil, userActivity: String? = nil) {
        self.code = code
        self.message = message
        self.userActivity = userActivity
    }
}
