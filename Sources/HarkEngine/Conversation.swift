import HarkIntents

/// What the engine is waiting for from the person.
public enum Question: Sendable, Hashable {
    /// A value for this parameter.
    case value(ParameterDescription)
    /// Yes or no: is this the value meant?
    case confirmValue(ParameterDescription, ParameterValue)
    /// One of these values (by name or ordinal).
    case choice(ParameterDescription, [ParameterValue])
    /// Yes or no: go ahead with the request?
    case confirmIntent
}

/// The person's answer to a ``Question``.
public enum Answer: Sendable, Hashable {
    case value(ParameterValue)
    /// The option at this index (0-based) of a choice.
    case choice(Int)
    case yes
    case no
    case cancel
}

/// What the engine says after a turn.
public struct EngineReply: Sendable, Hashable {
    /// The words spoken to the person.
    public var speech: String
    /// The stage's response code, when the turn ended in confirm or handle.
    public var code: IntentResponseCode?
    /// What the engine now waits for; nil when the conversation is over.
    public var question: Question?
    /// The request as it stands.
    public var intent: Intent

    public init(speech: String, code: IntentResponseCode?, question: Question?, intent: Intent) {
        self.speech = speech
        self.code = code
        self.question = question
        self.intent = intent
    }

    /// A short word for the outcome: the response code, `prompt` while
    /// asking, `cancelled` when the person cancelled.
    public var outcome: String {
        if let code { return code.rawValue }
        return question == nil ? "cancelled" : "prompt"
    }
}

/// One request's conversation: resolve every parameter in order, asking the
/// person when needed, then confirm and handle.
///
/// ```swift
/// let conversation = Conversation(intent: intent, description: Domains.sendMessage, handler: handler)
/// var reply = await conversation.start()
/// while reply.question != nil { reply = await conversation.answer(nextAnswer()) }
/// ```
public actor Conversation {
    public private(set) var intent: Intent
    public let description: IntentDescription
    let handler: any IntentHandler
    private var question: Question?
    /// Parameters the person has settled (confirmed or chosen), not resolved again.
    private var settled: Set<String> = []

    public init(intent: Intent, description: IntentDescription, handler: any IntentHandler) {
        self.intent = intent
        self.description = description
        self.handler = handler
    }

    /// Resolves, confirms and handles as far as possible without the person.
    public func start() async -> EngineReply {
        await proceed()
    }

    /// Takes the person's answer to the pending question and goes on.
    public func answer(_ answer: Answer) async -> EngineReply {
        guard let pending = question else { return await proceed() }
        if answer == .cancel { return finish(speech: "Okay, cancelled.", code: nil) }
        switch (pending, answer) {
        case (.value(let parameter), .value(let value)):
            intent[parameter.name] = value
        case (.confirmValue(let parameter, let value), .yes):
            intent[parameter.name] = value
            settled.insert(parameter.name)
        case (.confirmValue(let parameter, _), .no):
            intent[parameter.name] = nil
            return ask(.value(parameter), speech: IntentDescription.fill(parameter.prompt, from: intent))
        case (.choice(let parameter, let options), .choice(let index)) where options.indices.contains(index):
            intent[parameter.name] = options[index]
            settled.insert(parameter.name)
        case (.choice(let parameter, let options), .value(let value)):
            guard let match = options.first(where: { $0.value == value.value || $0.spoken == value.spoken }) else {
                return ask(pending, speech: "Sorry, which one? " + Self.list(options))
            }
            intent[parameter.name] = match
            settled.insert(parameter.name)
        case (.confirmIntent, .yes):
            return await handle()
        case (.confirmIntent, .no):
            return finish(speech: "Okay, I won't.", code: nil)
        default:
            return ask(pending, speech: "Sorry, I didn't get that. " + Self.speech(for: pending, intent: intent))
        }
        return await proceed()
    }

    // MARK: - Stages

    private func proceed() async -> EngineReply {
        for parameter in description.parameters where !settled.contains(parameter.name) {
            let result: ResolutionResult
            do {
                result = try await handler.resolve(parameter.name, of: intent)
            } catch {
                return finish(speech: "Sorry, \(intent.app) ran into a problem: \(error)", code: .failure)
            }
            switch result {
            case .success(let value):
                intent[parameter.name] = value
            case .notRequired:
                continue
            case .needsValue:
                return ask(.value(parameter), speech: IntentDescription.fill(parameter.prompt, from: intent))
            case .needsMoreDetails:
                intent[parameter.name] = nil
                return ask(.value(parameter), speech: "I need a bit more detail. " + IntentDescription.fill(parameter.prompt, from: intent))
            case .unsupported(let reason):
                intent[parameter.name] = nil
                let why = reason.map { "\($0) " } ?? "\(intent.app) can't do that. "
                return ask(.value(parameter), speech: why + IntentDescription.fill(parameter.prompt, from: intent))
            case .confirmationRequired(let value):
                let question = Question.confirmValue(parameter, value)
                return ask(question, speech: Self.speech(for: question, intent: intent))
            case .disambiguation(let options):
                guard (2...10).contains(options.count) else {
                    return finish(speech: "Sorry, \(intent.app) gave an invalid answer.", code: .failure,
                                  developerError: "resolve(\(parameter.name)) returned a disambiguation with \(options.count) options; SiriKit allows 2 to 10")
                }
                let question = Question.choice(parameter, options)
                return ask(question, speech: Self.speech(for: question, intent: intent))
            }
            settled.insert(parameter.name)
        }
        let confirmation: IntentResponse
        do {
            confirmation = try await handler.confirm(intent)
        } catch {
            return finish(speech: "Sorry, \(intent.app) ran into a problem: \(error)", code: .failure)
        }
        guard confirmation.code == .ready else {
            let speech = confirmation.message ?? IntentDescription.fill(description.failureSpeech, from: intent)
            return finish(speech: speech, code: confirmation.code)
        }
        if let template = description.confirmation {
            return ask(.confirmIntent, speech: IntentDescription.fill(template, from: intent))
        }
        return await handle()
    }

    private func handle() async -> EngineReply {
        let response: IntentResponse
        do {
            response = try await handler.handle(intent)
        } catch {
            return finish(speech: "Sorry, \(intent.app) ran into a problem: \(error)", code: .failure)
        }
        switch response.code {
        case .ready:
            return finish(speech: "Sorry, \(intent.app) gave an invalid answer.", code: .failure,
                          developerError: "handle(_:) answered 'ready'; only confirm(_:) may")
        case .success, .inProgress:
            var speech = IntentDescription.fill(description.successSpeech, from: intent)
            if let message = response.message { speech += " " + message }
            return finish(speech: speech, code: response.code)
        case .failureRequiringAppLaunch:
            let speech = response.message ?? "You'll need to continue in \(intent.app)."
            return finish(speech: speech, code: response.code)
        case .failure, .unspecified:
            let speech = response.message ?? IntentDescription.fill(description.failureSpeech, from: intent)
            return finish(speech: speech, code: response.code)
        }
    }

    // MARK: - Replies

    private func ask(_ question: Question, speech: String) -> EngineReply {
        self.question = question
        return EngineReply(speech: speech, code: nil, question: question, intent: intent)
    }

    private func finish(speech: String, code: IntentResponseCode?, developerError: String? = nil) -> EngineReply {
        question = nil
        var speech = speech
        if let developerError { speech += " (\(developerError))" }
        return EngineReply(speech: speech, code: code, question: nil, intent: intent)
    }

    public static func speech(for question: Question, intent: Intent) -> String {
        switch question {
        case .value(let parameter): return IntentDescription.fill(parameter.prompt, from: intent)
        case .confirmValue(_, let value): return "Did you mean \(value.spoken)?"
        case .choice(_, let options): return "Which one? " + list(options)
        case .confirmIntent: return "Shall I go ahead?"
        }
    }

    /// "1, Bobo the Great; 2, Bobo Jr.; or 3, Little Bobo."
    static func list(_ options: [ParameterValue]) -> String {
        let items = options.enumerated().map { "\($0.offset + 1), \($0.element.spoken)" }
        guard items.count > 1 else { return (items.first ?? "") + "." }
        return items.dropLast().joined(separator: "; ") + "; or " + items.last! + "."
    }
}
