import HarkIntents

/// An app's logic for one intent, in SiriKit's three stages, in the generic
/// form the engine drives every intent through. Apps normally write the
/// typed protocol of their intent (``INSendMessageIntentHandling`` ...) and
/// register `INSendMessageIntent.handler(myHandler)`, which bridges to this.
///
/// `resolve` and `confirm` are optional: by default a given value resolves
/// to itself, a missing one is asked for when the parameter is required
/// (``ResolutionResult/byDefault``), and confirm answers `ready`.
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
        .byDefault
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse {
        IntentResponse(code: .ready)
    }
}

/// A mistake in an app's handler, explained for the app's developer. The
/// engine logs it and shows it in ``EngineReply/developerError``; the
/// person only hears a clean failure.
public struct HandlerContractError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// An error a handler may throw that the person can do something about (a
/// full disk, say). The engine speaks its ``spokenReason`` ("Sorry,
/// MonkeyChat couldn't do that: there isn't enough space left to save it.
/// ...") instead of a bare "ran into a problem"; the developer error still
/// shows the whole error.
public protocol ErrorWithSpokenReason: Error {
    /// What went wrong and what to do, as a clause after "couldn't do that:".
    var spokenReason: String { get }
}

/// An error whose whole spoken sentence is its own ("Sorry, Barista isn't
/// responding."), for failures that are not the request's fault: an
/// intents extension that crashed, hung or broke the protocol. The engine
/// speaks ``spokenSentence(app:)``; the developer error keeps the details.
public protocol SpokenFailure: Error {
    /// The sentence the person hears, for the app's display name.
    func spokenSentence(app: String) -> String
}
