import Foundation
import Hark
import HarkAudio
import HarkSampleApps
import HarkSpeech
import HarkTestSupport
import Testing

/// Other people's apps: custom intents declared in Info.plist, handled by
/// the examples' real extension processes (python3, sh) and by Swift
/// handlers registered with the builder, driven through the `hark` binary
/// and the library.
@Suite("Apps plug in", .serialized)
struct AppsPlugInTests {
    static let examples = Repo.root.appendingPathComponent("examples").path

    /// `hark converse` over `lines` with the examples installed and Barista
    /// and Lamps authorized, in `data`.
    static func converse(_ lines: [String], data: URL, apps: String = examples) throws -> (status: Int32, out: String, err: String) {
        for app in ["Barista", "Lamps"] {
            _ = try runHark(["apps", "authorize", app, "--apps", apps, "--data-dir", data.path])
        }
        let input = data.appendingPathComponent("input.txt")
        try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        return try runHark(["converse", "--json", "--apps", apps, "--data-dir", data.path], stdin: input.path)
    }

    static func turns(_ output: String) throws -> [Turn] {
        try output.split(separator: "\n").map { try JSONDecoder().decode(Turn.self, from: Data($0.utf8)) }
    }

    @Test("the coffee example takes an order with its own sentence, asks for a missing size and keeps the history")
    func coffee() throws {
        let data = try temporaryDirectory()
        let result = try Self.converse(["can I get a large latte with soy milk", "yes",
                                        "can I get a latte", "medium", "yes"], data: data)
        #expect(result.status == 0, "\(result.err)")
        let turns = try Self.turns(result.out)
        try #require(turns.count == 5)
        #expect(turns[0].speech == "That's a large latte with soy milk. Shall I make it?")
        #expect(turns[0].prompt)
        #expect(turns[1].speech == "Your large latte with soy milk will be ready in two minutes at the counter. That's order 1.")
        #expect(turns[1].code == "success")
        #expect(turns[1].output["order"] == "1")
        #expect(turns[2].speech == "What size would you like?")
        #expect(turns[3].slots["size"] == "medium")
        #expect(turns[4].speech == "Your medium latte will be ready in two minutes at the counter. That's order 2.")
        let history = try String(contentsOf: data.appendingPathComponent("apps/Barista/orders.jsonl"), encoding: .utf8)
        #expect(history.split(separator: "\n").count == 2)
        #expect(history.contains("\"drink\": \"medium latte\""))
        // Only the installed apps: no sample app's data was made or authorized.
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("groups").path))
        let authorizations = try String(contentsOf: data.appendingPathComponent("authorizations.json"), encoding: .utf8)
        #expect(!authorizations.contains("MonkeyChat"))
    }

    @Test("the shell example answers, one process per request")
    func lamps() throws {
        let data = try temporaryDirectory()
        let result = try Self.converse(["turn on the kitchen lights", "switch the lights off"], data: data)
        let turns = try Self.turns(result.out)
        try #require(turns.count == 2, "\(result.err)")
        #expect(turns[0].speech == "Lamps: The kitchen lights are on.", "\(result.err)")
        #expect(turns[1].speech == "Lamps: All the lights are off.", "\(result.err)")
        #expect(turns[1].output["times"] == "1")
    }

    @Test("help uses the apps' own example phrases")
    func help() throws {
        let result = try Self.converse(["What can Barista do?", "What can you do?"], data: try temporaryDirectory())
        let turns = try Self.turns(result.out)
        try #require(turns.count == 2)
        #expect(turns[0].speech == "With Barista you can: order a drink from the coffee maker. Try “Can I get a large latte with soy milk”, “Make me a double shot espresso”, “I'd like a small dark roast americano with cream and sugar”.")
        #expect(turns[1].speech.hasPrefix("I can work with Barista and Lamps. For example, say “Can I get a large latte with soy milk”"))
    }

    @Test("apps list says who handles each intent")
    func appsList() throws {
        let data = try temporaryDirectory()
        let result = try runHark(["apps", "list", "--json", "--apps", Self.examples, "--data-dir", data.path])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n")
        try #require(lines.count == 2)
        let barista = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let intents = try #require(barista["intents"] as? [[String: Any]])
        #expect(intents.first?["handler"] as? String == "extension")
        #expect(intents.first?["command"] as? [String] == ["python3", "extension.py"])
        let samples = try runHark(["apps", "list", "--data-dir", data.path])
        #expect(samples.out.contains("INSendMessageIntent: built in"))
    }

    /// An app folder whose extension misbehaves as `mode` says, the first
    /// time only (a marker file in its data folder), and behaves after.
    static func faultyApp(_ mode: String) throws -> String {
        let apps = try temporaryDirectory("faulty")
        let folder = apps.appendingPathComponent("Barista")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(examples)/coffee/Barista.hark", toPath: folder.appendingPathComponent("Barista.hark").path)
        // The coffee app without its confirmation question.
        let plist = try String(contentsOfFile: "\(examples)/coffee/Info.plist", encoding: .utf8)
            .replacingOccurrences(of: #"<key>Confirmation</key>\s*<string>[^<]*</string>"#, with: "", options: .regularExpression)
        try plist.write(to: folder.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        try """
            import json, os, sys, time
            marker = os.path.join(os.environ["HARK_APP_DATA_DIR"], "misbehaved")
            first = not os.path.exists(marker)
            open(marker, "a").close()
            print(json.dumps({"hark_extension": 1, "intents": ["orderDrink"], "stages": ["handle"]}), flush=True)
            for line in sys.stdin:
                request = json.loads(line)
                if first and "\(mode)" == "crash": os.abort()
                if first and "\(mode)" == "hang": time.sleep(600)
                if first and "\(mode)" == "garbage": print("<html>oops</html>", flush=True); continue
                print(json.dumps({"id": request["id"], "code": "success", "speech": "Coming up."}), flush=True)
            """.write(to: folder.appendingPathComponent("extension.py"), atomically: true, encoding: .utf8)
        return apps.path
    }

    @Test("an extension that crashes, hangs or prints garbage gives a clean spoken failure, and the next turn works",
          arguments: ["crash", "hang", "garbage"])
    func faults(_ mode: String) async throws {
        let data = try temporaryDirectory()
        let builder = AssistantBuilder(appsDirectory: try Self.faultyApp(mode), modelsDirectory: Repo.models, dataDirectory: data,
                                       configuration: EngineConfiguration(progressBudget: .milliseconds(400), timeout: .seconds(3)))
        let installed = try builder.start()
        try installed.authorizations().set(.authorized, for: "Barista")
        let assistant = try installed.makeAssistant()
        let first = await assistant.read("can I get a large latte")
        if mode == "hang" {
            // Slow: the in-progress notice first, then the failure.
            #expect(first.code == "inProgress")
            #expect(first.speech == "Barista is still working on it. I'll tell you when it's done.")
            let late = await assistant.lateResults()
            #expect(late.map(\.speech) == ["Sorry, Barista isn't responding."])
            #expect(late.first?.developerError?.contains("did not answer request 1") == true)
        } else {
            #expect(first.speech == "Sorry, Barista isn't responding.")
            #expect(first.code == "failure")
            #expect(first.developerError?.contains(mode == "crash" ? "killed by signal 6" : "<html>oops</html>") == true)
        }
        let next = await assistant.read("can I get a large latte")
        #expect(next.speech == "Coming up.")
        #expect(next.code == "success")
        await installed.shutdown()
    }

    @Test("a Swift handler registered with the builder handles an app's own intent, and wins over its extension")
    func swiftHandler() async throws {
        struct Order: IntentHandler {
            func handle(_ intent: Intent) async throws -> IntentResponse {
                IntentResponse(code: .success, message: "Swift made a \(intent["size"]?.value ?? "?") \(intent["coffeeDrink"]?.value ?? "?").")
            }
        }
        let data = try temporaryDirectory()
        var builder = AssistantBuilder(appsDirectory: Self.examples, modelsDirectory: Repo.models, dataDirectory: data)
        builder.register(Order(), for: "orderDrink", app: "Barista")
        let installed = try builder.start()
        #expect(installed.handlerKind(app: "Barista", intent: "orderDrink") == .swift)
        #expect(installed.handlerKind(app: "Lamps", intent: "switchLights") == .extensionCommand(["sh", "lamps.sh"]))
        try installed.authorizations().set(.authorized, for: "Barista")
        let assistant = try installed.makeAssistant()
        let question = await assistant.read("can I get a small mocha")
        #expect(question.speech == "That's a small mocha. Shall I make it?")
        let answer = await assistant.read("yes")
        #expect(answer.speech == "Swift made a small mocha.")
    }

    @Test("an app that declares a parameter its grammar has no slot for is refused, naming the key")
    func badDeclaration() throws {
        let apps = try temporaryDirectory()
        let folder = apps.appendingPathComponent("Barista")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Self.examples)/coffee/Barista.hark", toPath: folder.appendingPathComponent("Barista.hark").path)
        let plist = try String(contentsOfFile: "\(Self.examples)/coffee/Info.plist", encoding: .utf8)
            .replacingOccurrences(of: "<string>roast</string>", with: "<string>temperature</string>")
        try plist.write(to: folder.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        let result = try runHark(["apps", "list", "--apps", apps.path])
        #expect(result.status != 0)
        #expect(result.err.contains("Info.plist: HarkIntents.orderDrink.Parameters[2].Name: 'temperature' is not a slot of intent orderDrink"))
    }

    /// The sample apps with a fresh data folder, and a fixture sending Bobo a message on MonkeyChat.
    private func messageToMonkeyChat() throws -> (Assistant, [Int16]) {
        let assistant = try SampleApps.assistant(modelsDirectory: Repo.models, dataDirectory: try temporaryDirectory(),
                                                 decoder: sharedDecoder, configuration: patient)
        let speech = try TurnAudio.read(path: Repo.fixtures.appendingPathComponent("flite-rms/monkeychat-send-bobo-bananas.wav").path)
        return (assistant, speech)
    }

    @Test("while Hark speaks, what the microphone hears is dropped; after the echo tail, speech is heard again")
    func notHearingItself() async throws {
        let (assistant, speech) = try messageToMonkeyChat()
        let silence = [Int16](repeating: 0, count: 16_000)
        let playing = Gate(), played = Gate()
        let source = ScriptedSource { emit in
            emit(speech + silence)                  // a request
            await playing.wait()                    // Hark is answering it aloud:
            emit(speech + silence)                  // its loudspeaker, heard by the microphone
            await played.wait()
            try? await Task.sleep(for: .milliseconds(1500))
            emit(speech + silence)                  // the person again, after the echo tail
        }
        let sink = SlowSpeaker(playing: playing, played: played)
        var configuration = VoiceSession.Configuration()
        configuration.echoTail = .milliseconds(300)
        let session = VoiceSession(source: source, assistant: assistant, recognizer: sharedDecoder,
                                   synthesizer: try ESpeakSynthesizer(), sink: sink, configuration: configuration)
        let events = EventLog()
        try await session.run { await events.append($0) }
        let all = await events.events
        let turns = all.compactMap { if case .turn(let turn) = $0 { return turn } else { return nil } }
        #expect(turns.count == 2)
        #expect(turns.allSatisfy { $0.intent == "INSendMessageIntent" })
        #expect(all.contains { if case .droppedWhileSpeaking(let seconds) = $0 { return seconds > 4 } else { return false } })
    }

    @Test("with no wake phrase, a clatter after a request is reported as unheard, not answered")
    func clatterUnheard() async throws {
        let (assistant, speech) = try messageToMonkeyChat()
        let silence = [Int16](repeating: 0, count: 16_000)
        let noise = clatter(seed: 11)
        let source = ScriptedSource { emit in emit(speech + silence + noise + silence) }
        let session = VoiceSession(source: source, assistant: assistant, recognizer: sharedDecoder,
                                   synthesizer: nil, sink: nil, configuration: VoiceSession.Configuration())
        let events = EventLog()
        try await session.run { await events.append($0) }
        let all = await events.events
        let turns = all.compactMap { if case .turn(let turn) = $0 { return turn } else { return nil } }
        #expect(turns.map(\.intent) == ["INSendMessageIntent"], "\(turns.map(\.speech))")
        #expect(all.contains { if case .unheard(let seconds) = $0 { return seconds > 0.3 && seconds < 1.5 } else { return false } }, "\(all)")
    }
}

/// Frames from a script that decides when to emit them.
struct ScriptedSource: AudioSource {
    let script: @Sendable (_ emit: @Sendable ([Int16]) -> Void) async -> Void
    init(_ script: @escaping @Sendable (_ emit: @Sendable ([Int16]) -> Void) async -> Void) { self.script = script }
    var name: String { "scripted source" }
    func frames() -> AsyncThrowingStream<[Int16], any Error> {
        AsyncThrowingStream { continuation in
            Task {
                await script { samples in
                    stride(from: 0, to: samples.count, by: 1600).forEach {
                        continuation.yield(Array(samples[$0..<min(samples.count, $0 + 1600)]))
                    }
                }
                continuation.finish()
            }
        }
    }
}

/// A loudspeaker that takes a while to play, opening gates as it starts and ends.
struct SlowSpeaker: AudioSink {
    let playing: Gate
    let played: Gate
    func write(_ audio: PCMAudio) async throws {
        playing.open()
        try await Task.sleep(for: .milliseconds(800))
        played.open()
    }
}

actor EventLog {
    var events: [VoiceSession.Event] = []
    func append(_ event: VoiceSession.Event) { events.append(event) }
}
