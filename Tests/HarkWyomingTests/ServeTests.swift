import Foundation
import HarkTestSupport
import Testing

/// `hark serve` driven by the Wyoming project's own Python library (PyPI
/// `wyoming`) and `wyoming-satellite`, on 127.0.0.1.
@Suite("hark serve with the wyoming library's clients", .serialized)
struct ServeTests {
    @Test("describe, asr, intent, handle (three turns), tts and wake answer as the library expects")
    func services() throws {
        try #require(WyomingPython.ready)
        let server = try ServeProcess(name: "services")
        defer { server.stop() }

        // describe → info, read with the library's own Info.from_event (as Home Assistant does).
        let info = try #require(try server.client(["describe"]).first)
        #expect(info["type"] as? String == "info")
        #expect(info["asr"] as? [String] == ["hark-asr"])
        #expect(info["tts"] as? [String] == ["hark-tts"])
        #expect(info["handle"] as? [String] == ["hark"])
        #expect(info["intent"] as? [String] == ["hark-intent"])
        #expect(info["wake"] as? [String] == ["hey hark"])

        // A fixture transcribed, as sent (16 kHz mono) and as 44.1 kHz stereo.
        let fixture = Repo.path("audio-fixtures/flite-rms/monkeychat-send-bobo-bananas.wav")
        let expected = "send a message to bobo on monkey chat saying please send more bananas"
        #expect(try server.client(["transcribe", fixture]).first?["text"] as? String == expected)
        #expect(try server.client(["transcribe", fixture, "--stereo", "--rate", "44100"]).first?["text"] as? String == expected)

        // A typed request recognized (without running the app), and one that matches nothing.
        let intent = try #require(try server.client(["recognize", "Send a message to Bobo on MonkeyChat saying please send more bananas"]).first)
        #expect(intent["type"] as? String == "intent")
        #expect(intent["name"] as? String == "INSendMessageIntent")
        #expect(intent["entities"] as? [String: String] == ["app": "MonkeyChat", "recipients": "Bobo", "content": "please send more bananas"])
        #expect(try server.client(["recognize", "what is the weather on jupiter"]).first?["type"] as? String == "not-recognized")

        // The three-turn conversation, over one connection, with the client's site.
        let turns = try server.client(["handle", "Send a message to Bobo on MonkeyChat", "Please send more bananas", "Send it", "--site", "kitchen"])
        #expect(turns.map { $0["type"] as? String } == ["handled", "handled", "handled"])
        #expect(turns.first?["text"] as? String == "What do you want to say to Bobo?")
        #expect(turns.dropFirst().first?["text"] as? String == "Your message to Bobo says: Please send more bananas. Ready to send it?")
        #expect(turns.last?["text"] as? String == "Your message to Bobo was sent.")
        #expect((turns.last?["context"] as? [String: Any])?["site"] as? String == "kitchen")
        // ... and across connections when the client names the conversation.
        let first = try server.client(["handle", "Send a message to Bobo on MonkeyChat", "--conversation-id", "c-42"])
        #expect(first.first?["text"] as? String == "What do you want to say to Bobo?")
        let second = try server.client(["handle", "Please send more bananas", "--conversation-id", "c-42"])
        #expect(second.first?["type"] as? String == "handled")
        #expect((second.first?["text"] as? String)?.contains("Bobo") == true)
        #expect(try server.client(["handle", "blue potatoes jump sideways"]).first?["type"] as? String == "not-handled")
        // Every handled turn is printed with its site.
        let printed = server.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(printed.contains { $0["site"] as? String == "kitchen" && $0["code"] as? String == "success" })

        // Speech synthesised and read back: the answer's audio, transcribed by Hark itself.
        let directory = try temporaryDirectory("tts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spoken = directory.appendingPathComponent("spoken.wav").path
        let audio = try #require(try server.client(["synthesize", "Send a message to Bobo on MonkeyChat", spoken]).first)
        #expect((audio["seconds"] as? Double ?? 0) > 1)
        #expect(try server.client(["transcribe", spoken]).first?["text"] as? String == "send a message to bobo on monkey chat")

        // A wake phrase detected, and not detected in speech without it.
        let woken = try speech("hey hark", in: directory, name: "wake")
        #expect(try server.client(["detect", woken]).first?["type"] as? String == "detection")
        #expect(try server.client(["detect", woken]).first?["name"] as? String == "hey hark")
        #expect(try server.client(["detect", fixture]).first?["type"] as? String == "not-detected")
    }

    @Test("wyoming-satellite streams a fixture as its microphone and plays Hark's answer")
    func satellite() throws {
        try #require(WyomingPython.ready)
        let directory = try temporaryDirectory("satellite")
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = try speech("hey hark send a message to bobo on monkeychat saying see you at the tree", in: directory, name: "request")
        let raw = directory.appendingPathComponent("mic.raw").path, answer = directory.appendingPathComponent("answer.raw").path
        #expect(try ProcessRunner.run("/usr/bin/sox", [wav, "-t", "raw", "-r", "16000", "-c", "1", "-e", "signed", "-b", "16", raw]).status == 0)
        // A port for the satellite (a server itself): bind to 0, read it, release it.
        let port = try freePort()
        let satellite = Process()
        // Foundation starts it in a process group of its own, stopped whole with its microphone loop.
        satellite.executableURL = URL(fileURLWithPath: WyomingPython.satellite)
        satellite.arguments = ["-m", "wyoming_satellite", "--uri", "tcp://127.0.0.1:\(port)", "--name", "kitchen-pi", "--area", "Kitchen",
                               "--no-zeroconf",
                               // The microphone repeats the request (the satellite drops audio until Hark connects).
                               "--mic-command", "sh -c 'while :; do cat \(raw); sleep 4; done'",
                               "--snd-command", "sh -c 'cat >> \(answer)'"]
        satellite.standardOutput = FileHandle.nullDevice
        satellite.standardError = FileHandle.nullDevice
        try satellite.run()
        defer { stopProcess(satellite, group: true) }
        let server = try ServeProcess(["--satellite", "tcp://127.0.0.1:\(port)"], name: "satellite")
        defer { server.stop() }
        var turn: [String: Any]?
        for _ in 0..<300 where turn == nil {
            Thread.sleep(forTimeInterval: 0.2)
            turn = server.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.first
        }
        let heard = try #require(turn, "no turn from the satellite within 60 s")
        #expect(heard["site"] as? String == "Kitchen")
        #expect(heard["intent"] as? String == "INSendMessageIntent")
        #expect((heard["slots"] as? [String: String])?["recipients"] == "Bobo")
        // The answer's audio reached the satellite's speaker command.
        var bytes = 0
        for _ in 0..<100 where bytes < 22_050 {
            Thread.sleep(forTimeInterval: 0.2)
            bytes = ((try? FileManager.default.attributesOfItem(atPath: answer))?[.size] as? Int) ?? 0
        }
        #expect(bytes >= 22_050, "the satellite played \(bytes) bytes of Hark's answer")
    }

    @Test("hostile clients get an error event or a closed connection in bounded time, and others are still served")
    func hostile() throws {
        try #require(WyomingPython.ready)
        let server = try ServeProcess(["--event-timeout", "2", "--max-connections", "16"], name: "hostile")
        defer { server.stop() }
        let expectations: [(String, String?)] = [
            ("malformed", "malformed-header"), ("huge-header", "too-large"), ("lying-length", "too-large"),
            ("stops-mid-payload", "timeout"), ("absurd-rate", "bad-audio"), ("trickle", nil), ("many", nil),
        ]
        for (name, code) in expectations {
            let result = try #require(try server.client(["hostile", name]).first, "\(name): no report")
            #expect(result["timeout"] == nil, "\(name): the server neither answered nor closed within 30 s")
            #expect((result["seconds"] as? Double ?? 99) < 25, "\(name) took \(result["seconds"] ?? "?") s")
            if let code { #expect(result["code"] as? String == code, "\(name): \(result)") }
            // Another client is still served.
            #expect(try server.client(["recognize", "Send a message to Bobo on MonkeyChat"]).first?["type"] as? String == "intent", "after \(name)")
        }
        #expect(server.process.isRunning)
    }
}

/// A TCP port free on 127.0.0.1 just now.
func freePort() throws -> Int {
    let result = try ProcessRunner.run("/usr/bin/python3", ["-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
    return try #require(Int(result.out.trimmingCharacters(in: .whitespacesAndNewlines)))
}
