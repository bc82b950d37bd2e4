import HarkIntents
import Logging

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
    /// "Change it": at a read-back, say the free text again.
    case change
}

/// A result still on its way: a handler that overran the progress budget.
/// The conversation is over for the person (they were told it is in
/// progress); ``result()`` answers when the handler does, or fails at the
/// hard timeout.
public struct PendingResult: Sendable {
    let task: Task<EngineReply, Never>

    /// The final reply.
    public func result() async -> EngineReply { await task.value }
}

/// What the engine says after a turn.
public struct EngineReply: Sendable {
    /// The words spoken to the person.
    public var speech: String
    /// The stage's response code, when the turn ended in confirm or handle.
    public var code: IntentResponseCode?
    /// What the engine now waits for; nil when the conversation is over.
    public var question: Question?
    /// The request as it stands.
    public var intent: Intent
    /// The app's response (result fields, user activity), when there is one.
    public var response: IntentResponse?
    /// What the app's developer did wrong, when the failure is theirs
    /// (logged, never spoken).
    public var developerError: String?
    /// The late result of a slow handler, after an `inProgress` reply.
    public var pending: PendingResult?

    public init(speech: String, code: IntentResponseCode?, question: Question?, intent: Intent,
                response: IntentResponse? = nil, developerError: String? = nil, pending: PendingResult? = nil) {
        self.speech = speech
        self.code = code
        self.question = question
        self.intent = intent
        self.response = response
        self.developerError = developerError
        self.pending = pending
    }

    /// A short word for the outcome: the response code, `prompt` while
    /// asking, `cancelled` when the person cancelled.
    public var outcome: String {
        if let code { return code.rawValue }
        return question == nil ? "cancelled" : "prompt"
    }
}

/// One request's conversation: resolve every parameter in order, asking the
/// person when needed, then confirm (asking yes or no where the domain
/// confirms) and handle.
///
/// ```swift
/// let conversation = Conversation(intent: intent, description: Domains.sendMessage, handler: handler)
/// var reply = await conversation.start()
/// while reply.question != nil { reply = await conversation.answer(nextAnswer()) }
/// ```
///
/// The engine enforces SiriKit's rules on the app (a disambiguation offers 2
/// to 10 options; only confirm may answer `ready`; confirm answers `ready`
/// or a failure) and bounds its time: each stage fails after
/// ``EngineConfiguration/timeout``; a handle slower than
/// ``EngineConfiguration/progressBudget`` is reported as in progress with
/// the result in ``EngineReply/pending``.
public actor Conversation {
    public private(set) var intent: Intent
    public let description: IntentDescription
    let handler: any IntentHandler
    let configuration: EngineConfiguration
    let logger: Logger
    private var question: Question?
    /// Parameters the person has settled (confirmed or chosen), not resolved again.
    private var settled: Set<String> = []
    /// How many times each parameter was asked, to stop an app looping forever.
    private var asked: [String: Int] = [:]
    /// Free-text parameters whose words the recognizer was unsure of: read
    /// back ("I heard: ... Is that right?") before the request goes on,
    /// unless the intent's own confirmation reads them back anyway.
    private var unsure: Set<String> = []
    /// What to ask before carrying out an intent that has no confirmation of
    /// its own, when the request itself was heard unsurely (``start(unsure:confirmingFirst:)``).
    private var confirmingFirst: String?
    static let maximumAsks = 4

    public init(intent: Intent, description: IntentDescription, handler: any IntentHandler,
                configuration: EngineConfiguration = EngineConfiguration(), logger: Logger = Logger(label: "hark.engine")) {
        self.intent = intent
        self.description = description
        self.handler = handler
        self.configuration = configuration
        self.logger = logger
    }

    /// The question pending, if any.
    public var pendingQuestion: Question? { question }

    /// Resolves, confirms and handles as far as possible without the person.
    ///
    /// - Parameters:
    ///   - unsure: Free-text parameters heard with low confidence; each is
    ///     read back for a yes or no before the request goes on.
    ///   - confirmingFirst: A question to ask ("I heard: … Is that right?")
    ///     once the intent is resolved and the app has confirmed it, before it
    ///     is handled, when the intent has no confirmation of its own (one
    ///     that has, such as a payment's, is asked instead). Answered as that
    ///     confirmation is: yes handles it, no drops it. Once the person has
    ///     answered any other question about the request, it is not asked.
    public func start(unsure: Set<String> = [], confirmingFirst: String? = nil) async -> EngineReply {
        self.unsure = unsure
        self.confirmingFirst = confirmingFirst
        return await proceed()
    }

    /// Takes the person's answer to the pending question and goes on.
    ///
    /// - Parameter unsure: Free-text parameters this answer gave that were
    ///   heard with low confidence (read back, as for ``start(unsure:)``).
    public func answer(_ answer: Answer, unsure: Set<String> = []) async -> EngineReply {
        self.unsure.formUnion(unsure)
        // The person answered a question about it: it was meant.
        confirmingFirst = nil
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
        case (.confirmValue(let parameter, _), .value(let value)):
            // "No, Bobo Jr." — a new value instead of yes or no.
            intent[parameter.name] = value
        case (.choice(let parameter, let options), .choice(let index)):
            guard options.indices.contains(index) else {
                return ask(pending, speech: "There are only \(options.count). " + Self.speech(for: pending, intent: intent))
            }
            intent[parameter.name] = options[index]
            settled.insert(parameter.name)
        case (.choice(let parameter, let options), .value(let value)):
            guard let match = Self.match(value, in: options) else {
                return ask(pending, speech: "Sorry, which one? " + Self.list(options))
            }
            intent[parameter.name] = match
            settled.insert(parameter.name)
        case (.confirmIntent, .yes):
            return await handle()
        case (.confirmIntent, .no):
            return finish(speech: "Okay, I won't.", code: nil)
        case (.confirmIntent, .change):
            // The read-back's free text (a message's content) is asked for again.
            guard let parameter = description.parameters.first(where: { $0.kind == .text && intent[$0.name] != nil }) else {
                return ask(pending, speech: "There's nothing to change. " + Self.speech(for: pending, intent: intent))
            }
            intent[parameter.name] = nil
            settled.remove(parameter.name)
            return ask(.value(parameter), speech: IntentDescription.fill(parameter.prompt, from: intent))
        default:
            return ask(pending, speech: "Sorry, I didn't get that. " + Self.speech(for: pending, intent: intent))
        }
        return await proceed()
    }

    /// SiriKit's default resolution for a handler with no opinion.
    static func applyingDefault(_ result: ResolutionResult, parameter: ParameterDescription, value: ParameterValue?) -> ResolutionResult {
        guard result == .byDefault else { return result }
        if let value { return .success(with: value) }
        return parameter.required ? .needsValue : .notRequired
    }

    static func match(_ value: ParameterValue, in options: [ParameterValue]) -> ParameterValue? {
        let key = ParameterValue.matchingKey
        return options.first { key($0.value) == key(value.value) || key($0.spoken) == key(value.spoken) }
    }

    // MARK: - Stages

    private func proceed() async -> EngineReply {
        for parameter in description.parameters where !settled.contains(parameter.name) {
            let intent = self.intent, handler = self.handler
            let call = AppCall { try await handler.resolve(parameter.name, of: intent) }
            let result: ResolutionResult
            switch await call.outcome(within: configuration.timeout) {
            case .value(let value): result = value
            case .failed(let error): return thrown(error, stage: "resolve(\(parameter.name))")
            case .timedOut:
                call.cancel()
                return timedOut(stage: "resolve(\(parameter.name))")
            }
            logger.debug("resolved", metadata: ["intent.name": "\(description.name)", "intent.parameter": "\(parameter.name)",
                                                "intent.resolution": "\(result)"])
            switch Self.applyingDefault(result, parameter: parameter, value: self.intent[parameter.name]) {
            case .byDefault:
                continue
            case .success(let value):
                self.intent[parameter.name] = value
                if unsure.remove(parameter.name) != nil, parameter.kind == .text, !readsBack(parameter) {
                    // Asked as a yes or no on the value, in words that say why.
                    return ask(.confirmValue(parameter, value), speech: "I heard: \(value.spoken). Is that right?")
                }
            case .notRequired:
                continue
            case .needsValue:
                self.intent[parameter.name] = nil
                return askValue(parameter, preface: nil)
            case .needsMoreDetails:
                // Too many matches to offer ("Bobo" among 14 Bobos): the whole name, please.
                let said = self.intent[parameter.name]?.spoken
                self.intent[parameter.name] = nil
                return askValue(parameter, preface: said.map { "More than ten match \($0); I need the whole name." } ?? "I need a bit more detail.")
            case .unsupported(let reason):
                self.intent[parameter.name] = nil
                return askValue(parameter, preface: reason ?? "\(intent.app) can't use that.")
            case .confirmationRequired(let value):
                let question = Question.confirmValue(parameter, value)
                return ask(question, speech: Self.speech(for: question, intent: self.intent))
            case .disambiguation(let options):
                guard (2...10).contains(options.count) else {
                    return contractViolation("resolve\(Self.capitalized(parameter.name))(for:) returned a disambiguation with \(options.count) option\(options.count == 1 ? "" : "s"); SiriKit allows 2 to 10 (use success(with:) or confirmationRequired(with:) for one)")
                }
                let question = Question.choice(parameter, options)
                return ask(question, speech: Self.speech(for: question, intent: self.intent))
            }
            settled.insert(parameter.name)
        }
        let intent = self.intent, handler = self.handler
        let confirmation: IntentResponse
        let confirmCall = AppCall { try await handler.confirm(intent) }
        switch await confirmCall.outcome(within: configuration.timeout) {
        case .value(let value): confirmation = value
        case .failed(let error): return thrown(error, stage: "confirm(intent:)")
        case .timedOut:
            confirmCall.cancel()
            return timedOut(stage: "confirm(intent:)")
        }
        switch confirmation.code {
        case .ready:
            break
        case .success, .inProgress:
            return contractViolation("confirm(intent:) answered '\(confirmation.code.rawValue)'; confirm answers ready, failure, failureRequiringAppLaunch or unspecified — carry the request out in handle(intent:)")
        case .failure, .failureRequiringAppLaunch, .unspecified:
            return ended(confirmation)
        }
        if let template = description.confirmation {
            var speech = IntentDescription.fill(template, from: intent)
            if let message = confirmation.message { speech = message + " " + speech }
            return ask(.confirmIntent, speech: speech)
        }
        if let question = confirmingFirst {
            confirmingFirst = nil
            return ask(.confirmIntent, speech: question)
        }
        return await handle()
    }

    private func handle() async -> EngineReply {
        let intent = self.intent, handler = self.handler
        let call = AppCall { try await handler.handle(intent) }
        switch await call.outcome(within: configuration.progressBudget) {
        case .value(let response): return handled(response)
        case .failed(let error): return thrown(error, stage: "handle(intent:)")
        case .timedOut:
            let rest = configuration.timeout - configuration.progressBudget
            let late = Task { () -> EngineReply in
                switch await call.outcome(within: rest) {
                case .value(let response): return await self.handled(response)
                case .failed(let error): return await self.thrown(error, stage: "handle(intent:)")
                case .timedOut:
                    call.cancel()
                    return await self.timedOut(stage: "handle(intent:)")
                }
            }
            logger.info("handler is slow; reporting progress", metadata: ["intent.name": "\(description.name)"])
            question = nil
            return EngineReply(speech: "\(intent.app) is still working on it. I'll tell you when it's done.",
                               code: .inProgress, question: nil, intent: intent, pending: PendingResult(task: late))
        }
    }

    /// The reply to handle's response.
    private func handled(_ response: IntentResponse) -> EngineReply {
        switch response.code {
        case .ready:
            return contractViolation("handle(intent:) answered 'ready'; only confirm(intent:) may — answer success, inProgress, failure, failureRequiringAppLaunch or unspecified")
        case .success:
            var speech = IntentDescription.fill(description.successSpeech, from: intent, output: response.output)
            if let message = response.message {
                // An app's own intent speaks for itself; a domain's sentence comes first.
                speech = description.isCustom ? message : speech + " " + message
            }
            return finish(speech: speech, code: .success, response: response)
        case .inProgress:
            var speech = "\(intent.app) is on it."
            if let message = response.message { speech += " " + message }
            return finish(speech: speech, code: .inProgress, response: response)
        case .failure, .failureRequiringAppLaunch, .unspecified:
            return ended(response)
        }
    }

    /// A failure-like response of confirm or handle.
    private func ended(_ response: IntentResponse) -> EngineReply {
        switch response.code {
        case .failureRequiringAppLaunch:
            var speech = response.message ?? IntentDescription.fill(description.failureSpeech, from: intent, output: response.output)
            speech += " You can continue in \(intent.app)."
            return finish(speech: speech, code: .failureRequiringAppLaunch, response: response)
        case .unspecified:
            return finish(speech: response.message ?? "\(intent.app) didn't say whether that worked.", code: .unspecified, response: response)
        default:
            return finish(speech: response.message ?? IntentDescription.fill(description.failureSpeech, from: intent, output: response.output),
                          code: .failure, response: response)
        }
    }

    // MARK: - Faults

    private func thrown(_ error: any Error, stage: String) -> EngineReply {
        logger.error("handler threw", metadata: ["intent.app": "\(intent.app)", "intent.name": "\(description.name)",
                                                 "intent.stage": "\(stage)", "error": "\(error)"])
        let speech = (error as? any SpokenFailure)?.spokenSentence(app: intent.app)
            ?? (error as? any ErrorWithSpokenReason).map { "Sorry, \(intent.app) couldn't do that: \($0.spokenReason)" }
            ?? "Sorry, \(intent.app) ran into a problem and couldn't do that."
        return finish(speech: speech, code: .failure, developerError: "\(stage) threw: \(error)")
    }

    private func timedOut(stage: String) -> EngineReply {
        let limit = configuration.timeout
        logger.error("handler timed out", metadata: ["intent.app": "\(intent.app)", "intent.stage": "\(stage)",
                                                     "timeout": "\(limit)"])
        return finish(speech: "Sorry, \(intent.app) didn't answer in time.", code: .failure,
                      developerError: "\(stage) did not return within \(limit)")
    }

    private func contractViolation(_ message: String) -> EngineReply {
        logger.error("handler broke a SiriKit rule", metadata: ["intent.app": "\(intent.app)",
                                                                "intent.name": "\(description.name)", "developer.error": "\(message)"])
        return finish(speech: "Sorry, \(intent.app) couldn't do that.", code: .failure, developerError: message)
    }

    // MARK: - Replies

    private func askValue(_ parameter: ParameterDescription, preface: String?) -> EngineReply {
        asked[parameter.name, default: 0] += 1
        guard asked[parameter.name]! <= Self.maximumAsks else {
            return finish(speech: "Sorry, I couldn't get that right. Let's try again later.", code: .failure)
        }
        let prompt = IntentDescription.fill(parameter.prompt, from: intent)
        return ask(.value(parameter), speech: preface.map { $0 + " " + prompt } ?? prompt)
    }

    private func ask(_ question: Question, speech: String) -> EngineReply {
        self.question = question
        return EngineReply(speech: speech, code: nil, question: question, intent: intent)
    }

    private func finish(speech: String, code: IntentResponseCode?, response: IntentResponse? = nil,
                        developerError: String? = nil) -> EngineReply {
        question = nil
        return EngineReply(speech: speech, code: code, question: nil, intent: intent, response: response,
                           developerError: developerError)
    }

    /// Whether the intent's confirmation speaks `parameter`'s value (a
    /// message's read-back says its content): then that is the read-back.
    private func readsBack(_ parameter: ParameterDescription) -> Bool {
        description.confirmation?.contains("{\(parameter.name)}") == true
    }

    public static func speech(for question: Question, intent: Intent) -> String {
        switch question {
        case .value(let parameter): return IntentDescription.fill(parameter.prompt, from: intent)
        case .confirmValue(let parameter, let value):
            if parameter.kind == .person, intent.name == "INSendMessageIntent" { return "Send it to \(value.spoken)?" }
            return "Did you mean \(value.spoken)?"
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

    static func capitalized(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }
}
