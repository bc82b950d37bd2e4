import Foundation
import HarkEngine
import HarkIntents

/// MonkeyChat, the messaging and calling sample app: contacts, message
/// history and call history, each a crash-safe JSON document in the app
/// group container.
public enum MonkeyChat {
    public static let appName = "MonkeyChat"
    public static let group = "group.com.example.monkeychat"

    /// The contacts a new MonkeyChat starts with, favourites first. The
    /// person's contacts live in `contacts.json`; edit it to change them.
    public static let defaultContacts = ["Bobo", "Bobo the Great", "Bobo Jr.", "Little Bobo"]

    /// A sent or received message.
    public struct Message: Codable, Sendable, Equatable {
        public var recipient: String
        public var sender: String = "me"
        public var content: String
        public var sent: Date
        public var read: Bool = true
        public var flagged: Bool = false
    }

    /// A call in the call history.
    public struct Call: Codable, Sendable, Equatable {
        public var contact: String
        public var video: Bool
        /// `outgoing`, `received` or `missed`.
        public var kind: String
        public var date: Date
    }

    /// MonkeyChat's data.
    public actor Store {
        let contacts: JSONDocument<[String]>
        /// The person's favourite contacts (`favorites.json`), first in what Hark hears.
        let favorites: JSONDocument<[String]>
        let messages: JSONDocument<[Message]>
        let calls: JSONDocument<[Call]>

        /// - Throws: when a document exists but cannot be read.
        public init(container: AppGroupContainer) throws {
            contacts = try JSONDocument(url: container.url.appendingPathComponent("contacts.json"), initial: MonkeyChat.defaultContacts)
            favorites = try JSONDocument(url: container.url.appendingPathComponent("favorites.json"), initial: [])
            messages = try JSONDocument(url: container.url.appendingPathComponent("messages.json"), initial: [
                Message(recipient: "me", sender: "Zuzu", content: "Are we still on for the banana party?", sent: Date(timeIntervalSince1970: 1_800_000_000), read: false),
            ])
            calls = try JSONDocument(url: container.url.appendingPathComponent("calls.json"), initial: [
                Call(contact: "Kiki", video: false, kind: "missed", date: Date(timeIntervalSince1970: 1_800_000_000)),
            ])
        }

        public func contactNames() async -> [String] { await contacts.value }

        /// The contacts as MonkeyChat reports them to Hark's vocabulary
        /// (SiriKit asks for the most important first): favourites, then the
        /// others by their latest message or call, newest first, then the
        /// rest in the address book's order. Read from the files as they are
        /// now, so a contact added or deleted by anyone is reported at once.
        public func contactsByImportance() async -> [String] {
            MonkeyChat.byImportance(contacts: await contacts.value, favorites: await favorites.value,
                                    messages: await messages.value, calls: await calls.value)
        }
        public func sentMessages() async -> [Message] { await messages.value.filter { $0.sender == "me" } }
        public func allMessages() async -> [Message] { await messages.value }
        public func callHistory() async -> [Call] { await calls.value }

        /// Sends `content` to `recipient`: it is in the history, on disk, when this returns.
        public func send(_ content: String, to recipient: String) async throws {
            try await messages.update { $0.append(Message(recipient: recipient, content: content, sent: Date())) }
        }

        func mark(_ attribute: INMessageAttribute, from sender: String?) async throws -> Int {
            try await messages.update { all in
                var count = 0
                for i in all.indices where all[i].sender != "me" && (sender == nil || all[i].sender == sender) {
                    switch attribute {
                    case .read: all[i].read = true
                    case .unread: all[i].read = false
                    case .flagged: all[i].flagged = true
                    case .unflagged: all[i].flagged = false
                    }
                    count += 1
                }
                return count
            }
        }

        func call(_ contact: String, video: Bool) async throws {
            try await calls.update { $0.append(Call(contact: contact, video: video, kind: "outgoing", date: Date())) }
        }

        /// A contact by the words said: exact, one partial (confirm), several (choose), none.
        func resolve(_ person: INPerson?, required: Bool) async -> Resolution<INPerson> {
            guard let person else { return required ? .needsValue : .notRequired }
            return NameMatch.resolve(person.displayName, among: await contacts.value,
                                     none: "I couldn't find \(person.displayName) in your MonkeyChat contacts.")
                .map { INPerson(displayName: $0, identifier: $0) }
        }
    }

    /// `contacts` ordered favourites first, then by latest message or call (newest first), then as given.
    static func byImportance(contacts: [String], favorites: [String], messages: [Message], calls: [Call]) -> [String] {
        var latest: [String: Date] = [:]
        for message in messages {
            for name in [message.recipient, message.sender] where name != "me" {
                latest[name] = max(latest[name] ?? .distantPast, message.sent)
            }
        }
        for call in calls { latest[call.contact] = max(latest[call.contact] ?? .distantPast, call.date) }
        let favorite = Dictionary(favorites.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return contacts.enumerated().sorted { a, b in
            switch (favorite[a.element], favorite[b.element]) {
            case let (x?, y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil):
                let (x, y) = (latest[a.element], latest[b.element])
                if x != y { return (x ?? .distantPast) > (y ?? .distantPast) }
                return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// Sends messages.
    public struct SendMessageHandler: INSendMessageIntentHandling {
        public let store: Store

        public func resolveRecipients(for intent: INSendMessageIntent) async throws -> Resolution<INPerson> {
            await store.resolve(intent.recipients, required: true)
        }

        public func resolveContent(for intent: INSendMessageIntent) async throws -> Resolution<String> {
            guard let content = intent.content, !content.trimmingCharacters(in: .whitespaces).isEmpty else { return .needsValue }
            return .success(with: content)
        }

        public func handle(intent: INSendMessageIntent) async throws -> IntentResponse {
            guard let recipient = intent.recipients, let content = intent.content else { return IntentResponse(code: .failure) }
            try await store.send(content, to: recipient.displayName)
            return IntentResponse(code: .success, output: ["to": recipient.displayName, "message": content])
        }
    }

    /// Reads messages.
    public struct SearchForMessagesHandler: INSearchForMessagesIntentHandling {
        public let store: Store

        public func resolveSenders(for intent: INSearchForMessagesIntent) async throws -> Resolution<INPerson> {
            await store.resolve(intent.senders, required: false)
        }

        public func handle(intent: INSearchForMessagesIntent) async throws -> IntentResponse {
            let found = await store.allMessages().filter { message in
                guard message.sender != "me" else { return false }
                if let sender = intent.senders, message.sender != sender.displayName { return false }
                switch intent.attributes {
                case .read?: return message.read
                case .unread?: return !message.read
                case .flagged?: return message.flagged
                case .unflagged?: return !message.flagged
                case nil: return true
                }
            }
            guard let last = found.last else { return IntentResponse(code: .success, message: "You have no messages like that.") }
            return IntentResponse(code: .success,
                                  message: "You have \(found.count) message\(found.count == 1 ? "" : "s"). The latest, from \(last.sender): \(last.content)",
                                  output: ["count": String(found.count), "latest": "\(last.sender): \(last.content)"])
        }
    }

    /// Marks messages read, unread, flagged or unflagged.
    public struct SetMessageAttributeHandler: INSetMessageAttributeIntentHandling {
        public let store: Store

        public func resolveSender(for intent: INSetMessageAttributeIntent) async throws -> Resolution<INPerson> {
            await store.resolve(intent.sender, required: false)
        }

        public func handle(intent: INSetMessageAttributeIntent) async throws -> IntentResponse {
            guard let attribute = intent.attribute else { return IntentResponse(code: .failure) }
            let count = try await store.mark(attribute, from: intent.sender?.displayName)
            guard count > 0 else { return IntentResponse(code: .failure, message: "There are no messages to mark.") }
            return IntentResponse(code: .success, output: ["marked": String(count)])
        }
    }

    /// Starts audio calls.
    public struct StartAudioCallHandler: INStartAudioCallIntentHandling {
        public let store: Store
        public func resolveContacts(for intent: INStartAudioCallIntent) async throws -> Resolution<INPerson> {
            await store.resolve(intent.contacts, required: true)
        }
        public func handle(intent: INStartAudioCallIntent) async throws -> IntentResponse {
            guard let contact = intent.contacts else { return IntentResponse(code: .failure) }
            try await store.call(contact.displayName, video: false)
            // A call continues in the app, as SiriKit's call intents do.
            return IntentResponse(code: .inProgress, userActivity: UserActivity(activityType: "com.example.monkeychat.call",
                                                                                 userInfo: ["contact": contact.displayName]))
        }
    }

    /// Starts video calls.
    public struct StartVideoCallHandler: INStartVideoCallIntentHandling {
        public let store: Store
        public func resolveContacts(for intent: INStartVideoCallIntent) async throws -> Resolution<INPerson> {
            await store.resolve(intent.contacts, required: true)
        }
        public func handle(intent: INStartVideoCallIntent) async throws -> IntentResponse {
            guard let contact = intent.contacts else { return IntentResponse(code: .failure) }
            try await store.call(contact.displayName, video: true)
            return IntentResponse(code: .inProgress, userActivity: UserActivity(activityType: "com.example.monkeychat.videocall",
                                                                                 userInfo: ["contact": contact.displayName]))
        }
    }

    /// Reads the call history.
    public struct SearchCallHistoryHandler: INSearchCallHistoryIntentHandling {
        public let store: Store
        public func resolveRecipient(for intent: INSearchCallHistoryIntent) async throws -> Resolution<INPerson> {
            await store.resolve(intent.recipient, required: false)
        }
        public func handle(intent: INSearchCallHistoryIntent) async throws -> IntentResponse {
            var calls = await store.callHistory()
            if let who = intent.recipient?.displayName { calls = calls.filter { $0.contact == who } }
            if let type = intent.callTypes, type != .latest { calls = calls.filter { $0.kind == type.rawValue } }
            guard let last = calls.last else { return IntentResponse(code: .success, message: "There are no calls like that.") }
            return IntentResponse(code: .success, message: "The latest is a \(last.kind) call with \(last.contact).",
                                  output: ["count": String(calls.count), "latest": "\(last.kind) \(last.contact)"])
        }
    }

    /// Every MonkeyChat handler, by intent name.
    public static func handlers(_ store: Store) -> [String: any IntentHandler] {
        [
            "INSendMessageIntent": INSendMessageIntent.handler(SendMessageHandler(store: store)),
            "INSearchForMessagesIntent": INSearchForMessagesIntent.handler(SearchForMessagesHandler(store: store)),
            "INSetMessageAttributeIntent": INSetMessageAttributeIntent.handler(SetMessageAttributeHandler(store: store)),
            "INStartAudioCallIntent": INStartAudioCallIntent.handler(StartAudioCallHandler(store: store)),
            "INStartVideoCallIntent": INStartVideoCallIntent.handler(StartVideoCallHandler(store: store)),
            "INSearchCallHistoryIntent": INSearchCallHistoryIntent.handler(SearchCallHistoryHandler(store: store)),
        ]
    }
}
