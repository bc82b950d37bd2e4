import HarkEngine
import HarkIntents

/// One intent of an app, handled by the app's intents extension process:
/// the engine's resolve → confirm → handle calls become protocol requests.
/// Stages the extension's handshake leaves out, and parameters it answers
/// with `{"result": "default"}`, get SiriKit's defaults
/// (``ResolutionResult/byDefault``: a given value resolves to itself, a
/// missing required one is asked for, a missing optional one is not
/// required), and confirm is `ready`.
public struct ExtensionHandler: IntentHandler {
    public let process: ExtensionProcess
    /// How long one answer may take before the extension is stopped. Keep
    /// it under the engine's own limit, so the person hears that the app
    /// isn't responding rather than a bare time-out.
    public let timeout: Duration

    public init(process: ExtensionProcess, timeout: Duration) {
        self.process = process
        self.timeout = timeout
    }

    public func resolve(_ parameter: String, of intent: Intent) async throws -> ResolutionResult {
        guard try await takes("resolve", intent) else { return .byDefault }
        let answer = try await process.request("resolve", fields: [
            "parameter": .string(parameter), "intent": Self.encode(intent),
        ], timeout: timeout)
        guard case .string(let result)? = answer["result"] else {
            throw await garbage("answered resolve(\(parameter)) without a \"result\"", answer)
        }
        func value(_ field: String = "value") async throws -> ParameterValue {
            if let text = answer[field]?.scalarText { return Self.value(text, current: intent[parameter]) }
            if let current = intent[parameter] { return current }
            throw await garbage("answered resolve(\(parameter)) with \(result) but no \"\(field)\"", answer)
        }
        switch result {
        case "success": return .success(with: try await value())
        case "confirmationRequired": return .confirmationRequired(with: try await value())
        case "needsValue": return .needsValue
        case "notRequired": return .notRequired
        case "needsMoreDetails": return .needsMoreDetails
        case "unsupported": return .unsupported(reason: answer["reason"]?.scalarText)
        case "default": return .byDefault
        case "disambiguation":
            guard case .array(let items)? = answer["options"] else {
                throw await garbage("answered resolve(\(parameter)) with disambiguation but no \"options\" array", answer)
            }
            var options: [ParameterValue] = []
            for item in items {
                if let text = item.scalarText {
                    options.append(Self.value(text, current: intent[parameter]))
                } else if case .object(let object) = item, let text = object["value"]?.scalarText {
                    options.append(ParameterValue(spoken: object["spoken"]?.scalarText ?? text, value: text))
                } else {
                    throw await garbage("answered resolve(\(parameter)) with an option that is neither a string nor {\"value\": ...}", answer)
                }
            }
            // The engine holds the extension to SiriKit's 2 to 10 options.
            return .disambiguation(with: options)
        default:
            throw await garbage("answered resolve(\(parameter)) with the unknown result '\(result)' (expected success, needsValue, notRequired, confirmationRequired, disambiguation, needsMoreDetails, unsupported or default)", answer)
        }
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse {
        guard try await takes("confirm", intent) else { return IntentResponse(code: .ready) }
        return try await response("confirm", intent)
    }

    public func handle(_ intent: Intent) async throws -> IntentResponse {
        guard try await takes("handle", intent) else {
            throw await process.protocolError(.intentNotHandled, "its handshake leaves out the handle stage, so nothing can carry \(intent.name) out")
        }
        return try await response("handle", intent)
    }

    // MARK: -

    /// Whether the extension takes `stage` (starting it if needed).
    private func takes(_ stage: String, _ intent: Intent) async throws -> Bool {
        let handshake = try await process.handshake()
        guard handshake.intents.contains(intent.name) else {
            throw await process.protocolError(.intentNotHandled, "its handshake lists the intents \(handshake.intents), not \(intent.name)")
        }
        return handshake.stages.contains(stage)
    }

    private func response(_ stage: String, _ intent: Intent) async throws -> IntentResponse {
        let answer = try await process.request(stage, fields: ["intent": Self.encode(intent)], timeout: timeout)
        guard case .string(let text)? = answer["code"] else {
            throw await garbage("answered \(stage) without a \"code\"", answer)
        }
        guard let code = IntentResponseCode(rawValue: text) else {
            throw await garbage("answered \(stage) with the unknown code '\(text)' (expected \(stage == "confirm" ? "ready, " : "")success, failure, inProgress or failureRequiringAppLaunch)", answer)
        }
        var output: [String: String] = [:]
        if case .object(let fields)? = answer["output"] {
            for (key, value) in fields { output[key] = value.scalarText ?? value.serialized }
        }
        let activity = answer["user_activity"]?.scalarText.map { UserActivity(activityType: $0) }
        return IntentResponse(code: code, message: answer["speech"]?.scalarText, userActivity: activity, output: output)
    }

    private func garbage(_ detail: String, _ answer: [String: JSONValue]) async -> ExtensionError {
        await process.protocolError(.garbage, detail + ": " + JSONValue.object(answer).serialized)
    }

    /// The value the extension names: the given one (with the words the
    /// person said) when it is the same, else a new one spoken as written.
    static func value(_ text: String, current: ParameterValue?) -> ParameterValue {
        if let current, current.value == text { return current }
        return ParameterValue(spoken: text, value: text)
    }

    /// `{"app": ..., "name": ..., "parameters": {name: value}, "spoken": {name: words}}`.
    static func encode(_ intent: Intent) -> JSONValue {
        .object([
            "app": .string(intent.app),
            "name": .string(intent.name),
            "parameters": .object(intent.parameters.mapValues { .string($0.value) }),
            "spoken": .object(intent.parameters.mapValues { .string($0.spoken) }),
        ])
    }
}
