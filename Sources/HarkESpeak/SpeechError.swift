/// A failure turning text into speech.
public struct SpeechError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// espeak-ng could not load its data (phoneme tables, voices) from `dataPath`.
        case initializationFailed(dataPath: String)
        /// espeak-ng is already running on another data directory (it can't switch in-process).
        case dataPathConflict(requested: String, loaded: String)
        /// No voice by this name is installed.
        case unknownVoice(String)
        /// The speaking rate is outside what espeak-ng accepts.
        case invalidRate(Int)
        /// espeak-ng started but failed while synthesising.
        case synthesisFailed
    }

    public let kind: Kind
    /// espeak-ng's own explanation (its status message), when it gave one.
    public let reason: String

    public init(_ kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String {
        switch kind {
        case .initializationFailed(let path):
            return "espeak-ng could not start: \(reason) (data path '\(path)'; "
                + "install the voices with 'apt install espeak-ng-data', "
                + "or pass a directory that contains espeak-ng-data)"
        case .dataPathConflict(let requested, let loaded):
            return "cannot use espeak-ng data path '\(requested)': this process already loaded '\(loaded)' "
                + "and \(reason) (use the same data path everywhere, or none)"
        case .unknownVoice(let name):
            return "unknown voice '\(name)': \(reason) "
                + "(see the installed voices with 'hark say --list-voices' or 'espeak-ng --voices')"
        case .invalidRate(let rate):
            return "speaking rate \(rate) words per minute is out of range: \(reason)"
        case .synthesisFailed:
            return "espeak-ng failed to synthesise speech: \(reason)"
        }
    }
}
