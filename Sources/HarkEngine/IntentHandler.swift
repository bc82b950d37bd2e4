import HarkIntents

/// An app's logic for one intent, in SiriKit's three stages. The engine owns
/// the conversation and calls these; each may be slow (they are `async`).
///
/// `resolve` and `confirm` are optional: by default a given value resolves
/// to itself, a missing one needs a value, and confirm answers `ready`.
public protocol IntentHandler: Sendable {
    /// Decides whether the value of `parameter` in `intent` is right.
    func resolve(_ parameter: String, of intent: Intent) async throws -> ResolutionResult
    /// Checks the request can be carried out; answers `ready` or a failure.
    func confirm(_ intent: Intent) async throws -> IntentResponse
    /// Carries the request out.
    func handle(_ intent: Intent) async throws -> IntentResponse
}

extension IntentHandler {
    public func resolve(_ parameter: String, of intent: Intent) async throws -> ResolutionResult {
        if let value = intent[parameter] { return .success(with: value) }
        return .needsValue
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse {
        IntentResponse(code: .ready)
    }
}

/// A mistake in an app's handler, explained for the app's developer.
public struct HandlerContractError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
