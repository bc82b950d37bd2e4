import Foundation
import Hark
import HarkEngine
import HarkGrammar
import HarkIntents
import HarkSampleApps
import HarkTestSupport
import Testing

/// Handlers that misbehave, installed in place of MonkeyChat's.
struct ThrowingCallHistory: INSearchCallHistoryIntentHandling {
    struct Broken: Error, CustomStringConvertible { var description: String { "the call log is corrupt" } }
    func handle(intent: INSearchCallHistoryIntent) async throws -> IntentResponse { throw Broken() }
}

/// Slower than any budget until the test opens its gate.
struct SlowVideoCall: INStartVideoCallIntentHandling {
    let gate: Gate
    func handle(intent: INStartVideoCallIntent) async throws -> IntentResponse {
        await gate.wait()
        return IntentResponse(code: .success)
    }
}

struct ReadyAudioCall: INStartAudioCallIntentHandling {
    func handle(intent: INStartAudioCallIntent) async throws -> IntentResponse { IntentResponse(code: .ready) }
}

@Suite("Faulty handlers, typed turns")
struct FaultTests {
    /// The slow handler waits for `gate`, so the short budget always runs
    /// out first; the other handlers answer at once, and the long timeout
    /// leaves a busy test machine room.
    func assistant(budget: Duration = .seconds(60), gate: Gate = Gate()) throws -> Assistant {
        try SampleApps.assistant(
            modelsDirectory: Repo.models, appsDirectory: SampleInfo.appsFolder().path, dataDirectory: temporaryDirectory(),
            decoder: nil, configuration: EngineConfiguration(progressBudget: budget, timeout: .seconds(120)),
            extraHandlers: [
                IntentKey(app: "MonkeyChat", intent: "INSearchCallHistoryIntent"): INSearchCallHistoryIntent.handler(ThrowingCallHistory()),
                IntentKey(app: "MonkeyChat", intent: "INStartVideoCallIntent"): INStartVideoCallIntent.handler(SlowVideoCall(gate: gate)),
                IntentKey(app: "MonkeyChat", intent: "INStartAudioCallIntent"): INStartAudioCallIntent.handler(ReadyAudioCall()),
            ])
    }

    @Test("a throwing handler is a spoken failure, and the session goes on")
    func throwing() async throws {
        let assistant = try assistant()
        let failed = await assistant.read("show my missed calls on MonkeyChat")
        #expect(failed.code == "failure")
        #expect(failed.speech == "Sorry, MonkeyChat ran into a problem and couldn't do that.")
        #expect(failed.developerError == "handle(intent:) threw: the call log is corrupt")
        #expect(await assistant.read("MonkeyChat Bobo please send more bananas").code == "prompt")
        let next = await assistant.read("send it")
        #expect(next.code == "success")
    }

    @Test("a slow handler: the person hears it is in progress, then the result")
    func slow() async throws {
        let gate = Gate()
        let assistant = try assistant(budget: .milliseconds(100), gate: gate)
        let first = await assistant.read("video call Bobo on MonkeyChat")
        #expect(first.code == "inProgress")
        #expect(first.speech == "MonkeyChat is still working on it. I'll tell you when it's done.")
        gate.open()
        let late = await assistant.lateResults()
        #expect(late.map(\.code) == ["success"])
        #expect(late.first?.speech == "Starting a video call with Bobo.")
        #expect(await assistant.lateResults().isEmpty)
    }

    @Test("handle answering ready is a developer error, not spoken")
    func ready() async throws {
        let turn = try await assistant().read("call Bobo on MonkeyChat")
        #expect(turn.code == "failure")
        #expect(turn.speech == "Sorry, MonkeyChat couldn't do that.")
        #expect(turn.developerError?.contains("handle(intent:) answered 'ready'") == true)
    }
}

@Suite("List-o-Mat: a list that is no longer there")
struct StaleListTests {
    @Test("a title the app cannot find is unsupported: the reason is spoken and the question asked again")
    func unsupported() async throws {
        let assistant = try SampleApps.assistant(modelsDirectory: Repo.models, appsDirectory: SampleInfo.appsFolder().path,
                                                 dataDirectory: temporaryDirectory(), decoder: nil,
                                                 configuration: EngineConfiguration(progressBudget: .seconds(60), timeout: .seconds(120)))
        // The vocabulary still names a list the person has since deleted.
        try await assistant.setVocabulary(["Grocery", "Grocery Store", "Hardware Store", "Office Supplies", "Zoo"],
                                          type: "notebookItemTitle", app: "ListOMat")
        let turn = await assistant.read("Show me my zoo list in ListOMat")
        #expect(turn.intent == "INSearchForNotebookItemsIntent")
        #expect(turn.speech == "There's no list called Zoo. What are you looking for?")
        #expect(turn.prompt)
        let next = await assistant.read("grocery")
        #expect(next.code == "success")
        #expect(next.slots["title"] == "Grocery")
    }
}
