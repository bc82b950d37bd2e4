import HarkEngine
import HarkIntents
import Testing

/// A handler whose answers the test sets, recording what the engine asked.
final class ScriptedHandler: IntentHandler, @unchecked Sendable {
    var resolutions: [String: [ResolutionResult]] = [:]
    var confirmResponse = IntentResponse(code: .ready)
    var handleResponse = IntentResponse(code: .success)
    var handleError: (any Error)?
    private(set) var handled: [Intent] = []

    func resolve(_ parameter: String, of intent: Intent) async throws -> ResolutionResult {
        if var queue = resolutions[parameter], !queue.isEmpty {
            let next = queue.removeFirst()
            resolutions[parameter] = queue
            return next
        }
        return intent[parameter].map { .success(with: $0) } ?? .needsValue
    }

    func confirm(_ intent: Intent) async throws -> IntentResponse { confirmResponse }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        if let handleError { throw handleError }
        handled.append(intent)
        return handleResponse
    }
}

struct HandlerFailure: Error, CustomStringConvertible {
    var description: String { "the banana store is closed" }
}

func message(_ parameters: [String: String] = [:]) -> Intent {
    Intent(app: "MonkeyChat", name: "INSendMessageIntent", parameters: parameters.mapValues { ParameterValue($0) })
}

@Suite("Resolve, confirm, handle")
struct ConversationTests {
    @Test("at the read-back, change asks for the free text again and keeps the rest")
    func changeAtReadBack() async throws {
        let handler = ScriptedHandler()
        let conversation = Conversation(intent: message(["recipients": "Bobo", "content": "hi"]), description: Domains.sendMessage, handler: handler)
        var reply = await conversation.start()
        #expect(reply.question == .confirmIntent)
        reply = await conversation.answer(.change)
        #expect(reply.speech == "What do you want to say to Bobo?")
        reply = await conversation.answer(.value(ParameterValue("hello")))
        #expect(reply.speech == "Your message to Bobo says: hello. Ready to send it?")
        reply = await conversation.answer(.no)
        #expect(reply.speech == "Okay, I won't.")
        #expect(handler.handled.isEmpty)
    }

    @Test("missing values are asked for in order, then handled")
    func asksForMissingValues() async throws {
        let handler = ScriptedHandler()
        let conversation = Conversation(intent: message(), description: Domains.sendMessage, handler: handler)
        var reply = await conversation.start()
        #expect(reply.speech == "Who do you want to message?")
        #expect(reply.outcome == "prompt")
        reply = await conversation.answer(.value(ParameterValue("Bobo")))
        #expect(reply.speech == "What do you want to say to Bobo?")
        reply = await conversation.answer(.value(ParameterValue("please send more bananas")))
        // The read-back before it goes out.
        #expect(reply.speech == "Your message to Bobo says: please send more bananas. Ready to send it?")
        #expect(reply.question == .confirmIntent)
        #expect(handler.handled.isEmpty)
        reply = await conversation.answer(.yes)
        #expect(reply.code == .success)
        #expect(reply.question == nil)
        #expect(reply.speech == "Your message to Bobo was sent.")
        #expect(handler.handled.first?["content"]?.value == "please send more bananas")
    }

    @Test("a disambiguation is read as a numbered list and answered by ordinal")
    func disambiguation() async throws {
        let handler = ScriptedHandler()
        let options = ["Bobo the Great", "Bobo Jr.", "Little Bobo"].map { ParameterValue($0) }
        handler.resolutions["recipients"] = [.disambiguation(with: options)]
        let conversation = Conversation(intent: message(["recipients": "bobo", "content": "hi"]),
                                        description: Domains.sendMessage, handler: handler)
        let asked = await conversation.start()
        #expect(asked.speech == "Which one? 1, Bobo the Great; 2, Bobo Jr.; or 3, Little Bobo.")
        let done = await conversation.answerConfirmingReadBack(.choice(1))
        #expect(done.code == .success)
        #expect(handler.handled.first?["recipients"]?.value == "Bobo Jr.")
    }

    @Test("a confirmation answered no asks for the value again")
    func confirmationNo() async {
        let handler = ScriptedHandler()
        handler.resolutions["recipients"] = [.confirmationRequired(with: ParameterValue("Little Bobo"))]
        let conversation = Conversation(intent: message(["recipients": "bobo", "content": "hi"]),
                                        description: Domains.sendMessage, handler: handler)
        #expect(await conversation.start().speech == "Send it to Little Bobo?")
        #expect(await conversation.answer(.no).speech == "Who do you want to message?")
        #expect(await conversation.answerConfirmingReadBack(.value(ParameterValue("Bobo"))).code == .success)
    }

    @Test("unsupported values are explained and asked again")
    func unsupported() async {
        let handler = ScriptedHandler()
        handler.resolutions["recipients"] = [.unsupported(reason: "I couldn't find Zed in your contacts.")]
        let conversation = Conversation(intent: message(["recipients": "zed", "content": "hi"]),
                                        description: Domains.sendMessage, handler: handler)
        #expect(await conversation.start().speech == "I couldn't find Zed in your contacts. Who do you want to message?")
    }

    @Test("a disambiguation with fewer than two options is the app's mistake, not a question", arguments: [0, 1, 11])
    func disambiguationRule(count: Int) async {
        let handler = ScriptedHandler()
        handler.resolutions["recipients"] = [.disambiguation(with: (0..<count).map { ParameterValue("Bobo \($0)") })]
        let conversation = Conversation(intent: message(["recipients": "bobo", "content": "hi"]),
                                        description: Domains.sendMessage, handler: handler)
        let reply = await conversation.start()
        #expect(reply.code == .failure)
        #expect(reply.question == nil)
        #expect(handler.handled.isEmpty)
        #expect(reply.developerError?.contains("SiriKit allows 2 to 10") == true)
        #expect(reply.speech == "Sorry, MonkeyChat couldn't do that.")
    }

    @Test("handle may not answer ready")
    func handleReady() async {
        let handler = ScriptedHandler()
        handler.handleResponse = IntentResponse(code: .ready)
        let conversation = Conversation(intent: message(["recipients": "Bobo", "content": "hi"]),
                                        description: Domains.sendMessage, handler: handler)
        let reply = await conversation.startConfirmingReadBack()
        #expect(reply.code == .failure)
        // The person hears a clean failure; the developer gets the rule.
        #expect(reply.speech == "Sorry, MonkeyChat couldn't do that.")
        #expect(reply.developerError?.contains("only confirm(intent:) may") == true)
    }

    @Test("a handler that throws becomes a spoken failure")
    func throwingHandler() async {
        let handler = ScriptedHandler()
        handler.handleError = HandlerFailure()
        let conversation = Conversation(intent: message(["recipients": "Bobo", "content": "hi"]),
                                        description: Domains.sendMessage, handler: handler)
        let reply = await conversation.startConfirmingReadBack()
        #expect(reply.code == .failure)
        #expect(reply.speech == "Sorry, MonkeyChat ran into a problem and couldn't do that.")
        #expect(reply.developerError == "handle(intent:) threw: the banana store is closed")
    }

    @Test("a request heard unsurely is read back before it is handled: yes handles it, no drops it; an intent with its own confirmation asks that instead")
    func confirmingFirst() async throws {
        let workout = Intent(app: "MonkeyFit", name: "INStartWorkoutIntent", parameters: ["workoutName": ParameterValue("Run")])
        // (No goal and no place: neither is needed.)
        func ScriptedHandler() -> HarkEngineTests.ScriptedHandler {
            let handler = HarkEngineTests.ScriptedHandler()
            handler.resolutions = ["goal": [.notRequired], "workoutLocationType": [.notRequired]]
            return handler
        }
        let yes = ScriptedHandler()
        let asked = Conversation(intent: workout, description: INStartWorkoutIntent.intentDescription, handler: yes)
        var reply = await asked.start(confirmingFirst: "I heard: start a run. Is that right?")
        #expect(reply.question == .confirmIntent && reply.speech == "I heard: start a run. Is that right?")
        #expect(reply.outcome == "prompt" && yes.handled.isEmpty)
        reply = await asked.answer(.yes)
        #expect(reply.code == .success && yes.handled.count == 1)

        let no = ScriptedHandler()
        let declined = Conversation(intent: workout, description: INStartWorkoutIntent.intentDescription, handler: no)
        _ = await declined.start(confirmingFirst: "I heard: start a run. Is that right?")
        reply = await declined.answer(.no)
        #expect(reply.speech == "Okay, I won't." && no.handled.isEmpty)

        // Heard surely: handled at once.
        let sure = ScriptedHandler()
        reply = await Conversation(intent: workout, description: INStartWorkoutIntent.intentDescription, handler: sure).start()
        #expect(reply.code == .success && sure.handled.count == 1)

        // A message has its own read-back, asked once, not both.
        let handler = ScriptedHandler()
        let sent = Conversation(intent: message(["recipients": "Bobo", "content": "hi"]), description: Domains.sendMessage, handler: handler)
        reply = await sent.start(confirmingFirst: "I heard: tell bobo hi. Is that right?")
        #expect(reply.speech == "Your message to Bobo says: hi. Ready to send it?")
        reply = await sent.answer(.yes)
        #expect(reply.code == .success && handler.handled.count == 1)
    }

    @Test("a failed confirm stops before handle")
    func confirmFailure() async {
        let handler = ScriptedHandler()
        handler.confirmResponse = IntentResponse(code: .failure, message: "MonkeyChat is offline.")
        let conversation = Conversation(intent: message(["recipients": "Bobo", "content": "hi"]),
                                        description: Domains.sendMessage, handler: handler)
        let reply = await conversation.start()
        #expect(reply.code == .failure)
        #expect(reply.speech == "MonkeyChat is offline.")
        #expect(handler.handled.isEmpty)
    }

    @Test("cancel ends the conversation at any question")
    func cancel() async {
        let conversation = Conversation(intent: message(), description: Domains.sendMessage, handler: ScriptedHandler())
        _ = await conversation.start()
        let reply = await conversation.answer(.cancel)
        #expect(reply.outcome == "cancelled")
        #expect(reply.question == nil)
    }
}

extension Conversation {
    /// Starts, and answers yes when the first question is the read-back
    /// (messages are read back before they go out): for the tests of what
    /// happens in handle.
    func startConfirmingReadBack() async -> EngineReply {
        let reply = await start()
        return reply.question == .confirmIntent ? await answer(.yes) : reply
    }

    /// Answers, then yes when that leads to the read-back.
    func answerConfirmingReadBack(_ given: Answer) async -> EngineReply {
        let reply = await answer(given)
        return reply.question == .confirmIntent ? await answer(.yes) : reply
    }
}
