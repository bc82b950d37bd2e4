import Foundation
import HarkEngine
import HarkIntents

/// MonkeyChat, the messaging sample app: contacts and a message history.
public enum MonkeyChat {
    public static let appName = "MonkeyChat"
    public static let group = "group.com.example.monkeychat"

    /// The contacts MonkeyChat registers as user vocabulary (`contactName`),
    /// favourites first, then recent, then the rest.
    public static let defaultContacts = ["Bobo", "Bobo the Great", "Bobo Jr.", "Little Bobo"]

    /// A sent message.
    public struct Message: Codable, Sendable, Equatable {
        public var recipient: String
        public var content: String
        public var sent: Date
    }

    /// Handles `INSendMessageIntent` for MonkeyChat.
    public struct SendMessageHandler: IntentHandler {
        public let contacts: [String]
        let history: JSONDocument<[Message]>

        /// - Throws: when the message history cannot be read.
        public init(container: AppGroupContainer, contacts: [String] = MonkeyChat.defaultContacts) throws {
            self.contacts = contacts
            history = try JSONDocument(url: container.url.appendingPathComponent("messages.json"), initial: [])
        }

        /// The messages sent so far, oldest first.
        public func messages() async -> [Message] { await history.value }

        public func resolve(_ parameter: String, of intent: Intent) async throws -> ResolutionResult {
            switch parameter {
            case "recipients":
                guard let asked = intent[parameter] else { return .needsValue }
                return resolveRecipient(asked)
            case "content":
                guard let content = intent[parameter], !content.value.isEmpty else { return .needsValue }
                return .success(with: content)
            default:
                return .notRequired
            }
        }

        /// An exact name wins; otherwise every contact whose name holds the
        /// spoken words is a candidate, in the contacts' order.
        func resolveRecipient(_ asked: ParameterValue) -> ResolutionResult {
            let wanted = Self.words(asked.value)
            if let exact = contacts.first(where: { Self.words($0) == wanted }) {
                return .success(with: ParameterValue(spoken: exact, value: exact))
            }
            let candidates = contacts.filter { Self.words($0).starts(with: wanted) || Set(wanted).isSubset(of: Self.words($0)) }
                .map { ParameterValue(spoken: $0, value: $0) }
            switch candidates.count {
            case 0: return .unsupported(reason: "I couldn't find \(asked.spoken) in your MonkeyChat contacts.")
            case 1: return .confirmationRequired(with: candidates[0])
            default: return .disambiguation(with: Array(candidates.prefix(10)))
            }
        }

        static func words(_ name: String) -> [String] {
            name.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        }

        public func handle(_ intent: Intent) async throws -> IntentResponse {
            guard let recipient = intent["recipients"], let content = intent["content"] else {
                return IntentResponse(code: .failure)
            }
            try await history.update { $0.append(Message(recipient: recipient.value, content: content.value, sent: Date())) }
            return IntentResponse(code: .success)
        }
    }
}
