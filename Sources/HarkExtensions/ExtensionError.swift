import HarkEngine

/// What went wrong with an app's intents extension. The developer reads
/// ``description`` in the log (the command, what it did, its last lines of
/// standard error); the person hears ``spokenSentence(app:)``, a clean
/// sentence that gives nothing away.
public struct ExtensionError: Error, Sendable, CustomStringConvertible, SpokenFailure {
    public enum Kind: String, Sendable {
        /// The program could not be started (not found, not executable).
        case couldNotStart
        /// It printed no handshake line in time, or not a valid one.
        case handshake
        /// It exited or crashed before answering.
        case exited
        /// It printed something that is not an answer (not JSON, no `id`,
        /// an unknown result or code, a missing field).
        case garbage
        /// It answered with an `id` Hark did not send.
        case wrongID
        /// It did not answer in time (it was stopped).
        case timedOut
        /// Its handshake does not list the intent.
        case intentNotHandled
    }

    public var kind: Kind
    /// The app's `CFBundleName`.
    public var app: String
    /// The command as the app's `Info.plist` gives it.
    public var command: [String]
    /// What exactly was wrong.
    public var detail: String
    /// The extension's last lines on standard error, if any.
    public var stderrTail: [String]

    public init(_ kind: Kind, app: String, command: [String], detail: String, stderrTail: [String] = []) {
        self.kind = kind
        self.app = app
        self.command = command
        self.detail = detail
        self.stderrTail = stderrTail
    }

    public var description: String {
        var text = "\(app)'s intents extension (\(command.joined(separator: " "))): \(detail)"
        if !stderrTail.isEmpty { text += "; its last standard error lines: " + stderrTail.joined(separator: " | ") }
        return text
    }

    public func spokenSentence(app: String) -> String {
        kind == .intentNotHandled ? "Sorry, \(app) can't do that yet." : "Sorry, \(app) isn't responding."
    }
}
