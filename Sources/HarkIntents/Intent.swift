/// A parameter value of an intent: the words the person said and the value
/// they stand for (a contact's identifier, a canonical list value, ...).
///
/// Composite values (an amount of money, a time, a workout goal) also keep
/// their named parts (`amount`, `currencyCode`), filled from grammar slots
/// named `parameter.part`; the typed values read those.
public struct ParameterValue: Sendable, Hashable, CustomStringConvertible {
    /// The words as spoken.
    public var spoken: String
    /// The value the app works with.
    public var value: String
    /// Named parts of a composite value, e.g. `["amount": "20", "currencyCode": "USD"]`.
    public var parts: [String: String]

    public init(spoken: String, value: String, parts: [String: String] = [:]) {
        self.spoken = spoken
        self.value = value
        self.parts = parts
    }

    public init(_ value: String) {
        self.init(spoken: value, value: value)
    }

    public var description: String { value }

    /// `text` as values are compared: lowercased letters and digits only
    /// ("Bobo Jr." and "bobo jr" are the same).
    public static func matchingKey(_ text: String) -> String {
        text.lowercased().filter { $0.isLetter || $0.isNumber }
    }
}

/// A request for an app: which intent, with which parameters so far.
///
/// This is the generic form the engine drives every intent through;
/// handlers see the typed form (``INSendMessageIntent`` ...), converted by
/// the generated bridges. Parameters are keyed by their SiriKit names
/// (`recipients`, `content`).
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

    /// A generic intent holding a typed intent's values.
    public init<T: TypedIntent>(app: String, _ typed: T) {
        self.init(app: app, name: T.intentDescription.name, parameters: typed.parameters)
    }

    public subscript(_ parameter: String) -> ParameterValue? {
        get { parameters[parameter] }
        set { parameters[parameter] = newValue }
    }
}

/// A SiriKit intent as a Swift struct with typed, optional parameters.
public protocol TypedIntent: Sendable {
    /// The intent's name, domain, parameters (in resolution order) and speech.
    static var intentDescription: IntentDescription { get }
    /// The typed view of a generic intent.
    init(_ intent: Intent)
    /// The values set, as generic parameters.
    var parameters: [String: ParameterValue] { get }
}

/// The outcome of resolving one parameter, as the engine sees it (the
/// type-erased form of ``Resolution``).
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
    /// No opinion: the engine applies SiriKit's default — a given value is
    /// right, a missing one is asked for when the parameter is required and
    /// not required otherwise. What a generic handler's `resolve` answers
    /// unless it implements it.
    case byDefault
}

/// The outcome of resolving one typed parameter, as SiriKit names them
/// (`INPersonResolutionResult.success(with:)` and friends, one generic type).
public enum Resolution<Value: ParameterConvertible>: Sendable {
    /// The value is right.
    case success(with: Value)
    /// Ask the person to confirm this value ("Did you mean Little Bobo?").
    case confirmationRequired(with: Value)
    /// Ask the person to choose one of these; SiriKit allows 2 to 10.
    case disambiguation(with: [Value])
    /// A value is needed; the engine asks the parameter's prompt.
    case needsValue
    /// The value is not specific enough; the engine asks again.
    case needsMoreDetails
    /// The parameter does not matter for this request.
    case notRequired
    /// The value cannot be used; the reason is spoken before asking again.
    case unsupported(reason: String? = nil)

    /// What the default `resolve…` answers: a given value is right, a
    /// missing one is needed when the parameter is required.
    public static func byDefault(_ value: Value?, required: Bool) -> Resolution {
        if let value { return .success(with: value) }
        return required ? .needsValue : .notRequired
    }

    /// The type-erased result the engine works with.
    public var erased: ResolutionResult {
        switch self {
        case .success(let value): return .success(with: value.parameter)
        case .confirmationRequired(let value): return .confirmationRequired(with: value.parameter)
        case .disambiguation(let values): return .disambiguation(with: values.map(\.parameter))
        case .needsValue: return .needsValue
        case .needsMoreDetails: return .needsMoreDetails
        case .notRequired: return .notRequired
        case .unsupported(let reason): return .unsupported(reason: reason)
        }
    }
}

extension Resolution: Equatable where Value: Equatable {}

/// Response codes of the confirm and handle stages.
public enum IntentResponseCode: String, Sendable, Hashable, Codable {
    /// Ready to handle (confirm only).
    case ready
    /// Accepted; still being carried out.
    case inProgress
    case success
    case failure
    /// The app must be opened to finish; the response carries the ``UserActivity``.
    case failureRequiringAppLaunch
    case unspecified
}

/// What the app would open to continue (`NSUserActivity` in SiriKit).
public struct UserActivity: Sendable, Hashable, Codable {
    /// A reverse-DNS activity type, e.g. `com.example.monkeypay.verify`.
    public var activityType: String
    public var userInfo: [String: String]

    public init(activityType: String, userInfo: [String: String] = [:]) {
        self.activityType = activityType
        self.userInfo = userInfo
    }
}

/// What an app answers in confirm or handle (SiriKit's per-intent response
/// classes, as one type: the code, extra words, the activity to open, and
/// result fields to show on the card).
public struct IntentResponse: Sendable, Hashable {
    public var code: IntentResponseCode
    /// Extra words for the person. On failure, replaces the domain's failure
    /// sentence (it is the reason); otherwise follows the domain's sentence.
    public var message: String?
    /// What the app would open, for `failureRequiringAppLaunch`.
    public var userActivity: UserActivity?
    /// Result fields shown on the card (`balance`, `eta`, `image`, ...).
    public var output: [String: String]

    public init(code: IntentResponseCode, message: String? = nil, userActivity: UserActivity? = nil,
                output: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.userActivity = userActivity
        self.output = output
    }
}

/// An app and one of its intents: what a handler is registered for
/// (`IntentKey(app: "Barista", intent: "orderDrink")`).
public struct IntentKey: Hashable, Sendable, CustomStringConvertible {
    public var app: String
    public var intent: String

    public init(app: String, intent: String) {
        self.app = app
        self.intent = intent
    }

    public var description: String { "\(app)/\(intent)" }
}
