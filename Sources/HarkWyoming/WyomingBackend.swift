/// What a Wyoming service needs from the assistant behind it. The server
/// and its sessions know the protocol; the backend knows speech and apps.
/// Conversations are named by `conversation` (a client's `conversation_id`,
/// else one per connection); `site` is the client's room or address.
public protocol WyomingBackend: Sendable {
    /// The `info` event's data: the asr, intent, handle, tts and wake programs offered.
    func info() async -> [String: JSONValue]
    /// Recognises 16 kHz mono speech against the conversation's grammar, without acting on it.
    func transcribe(_ samples: [Int16], conversation: String) async throws -> String
    /// Reads text into an intent without running its app, or nil when nothing matches.
    func recognize(_ text: String, conversation: String) async throws -> WyomingIntent?
    /// Answers a request (or an answer to the conversation's question) with the whole engine.
    func handle(_ text: String, conversation: String, site: String) async throws -> WyomingReply
    /// Hears 16 kHz mono speech and answers it: one turn of a voice pipeline.
    func hear(_ samples: [Int16], conversation: String, site: String) async throws -> WyomingReply
    /// Speaks text: 16-bit mono samples at `rate`.
    func synthesize(_ text: String) async throws -> (samples: [Int16], rate: Int)
    /// Looks for a wake phrase (one of `names`, or any configured): the
    /// phrase found and the sample just after it, or nil.
    func spotWake(_ samples: [Int16], names: [String]?) async throws -> (name: String, end: Int)?
    /// Whether the conversation is waiting for an answer (which needs no wake phrase).
    func isAsking(conversation: String) async -> Bool
    /// Forgets a conversation (its connection closed).
    func endConversation(_ conversation: String) async
}

/// An intent read from text, as Wyoming's `intent` event carries it.
public struct WyomingIntent: Sendable, Equatable {
    public var name: String
    public var entities: [(name: String, value: String)]
    public var text: String

    public init(name: String, entities: [(name: String, value: String)], text: String) {
        self.name = name
        self.entities = entities
        self.text = text
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && a.text == b.text && a.entities.map(\.name) == b.entities.map(\.name)
            && a.entities.map(\.value) == b.entities.map(\.value)
    }
}

/// The assistant's answer to one turn.
public struct WyomingReply: Sendable, Equatable {
    /// What was heard (or read).
    public var heard: String
    /// What the assistant says.
    public var speech: String
    /// Whether an app took the request (false: not understood, unsupported).
    public var handled: Bool
    /// Whether the assistant asked a question and waits for the answer.
    public var prompt: Bool

    public init(heard: String, speech: String, handled: Bool, prompt: Bool) {
        self.heard = heard
        self.speech = speech
        self.handled = handled
        self.prompt = prompt
    }
}
