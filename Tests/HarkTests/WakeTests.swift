import Foundation
import Hark
import HarkAudio
import HarkTestSupport
import Testing

/// Speech from flite's kal16 voice at 16 kHz, untrimmed.
private func speech(_ text: String, in dir: URL, name: String) throws -> String {
    let raw = dir.appendingPathComponent("\(name)-8k.wav").path, wav = dir.appendingPathComponent("\(name).wav").path
    try run("/usr/bin/flite", ["-voice", "kal16", "-t", text, "-o", raw])
    try run("/usr/bin/sox", [raw, "-r", "16000", wav])
    return wav
}

@Suite("Hands-free: the wake phrase", .serialized)
struct WakeTests {
    @Test("without the wake phrase an utterance is ignored; after it, the rest is the request; alone, the next utterance is")
    func gate() async throws {
        let dir = try temporaryDirectory("wake")
        func samples(_ text: String, _ name: String) throws -> [Int16] {
            try WAVReader.read(contentsOf: try speech(text, in: dir, name: name)).audio.toRecognitionFormat().int16Samples()
        }
        let request = try samples("show my messages from bobo on monkeychat", "request")
        let woken = try samples("hey hark show my messages from bobo on monkeychat", "woken")
        let wakeAlone = try samples("hey hark", "wake")
        let assistant = try makeAssistant()
        var gate = WakeGate(phrase: "hey hark")

        #expect(try await gate.admit(request, assistant: assistant, decoder: sharedDecoder) == .ignored)
        guard case .request(let rest) = try await gate.admit(woken, assistant: assistant, decoder: sharedDecoder) else {
            Issue.record("the wake phrase with a request was not taken as a request")
            return
        }
        #expect(rest.count < woken.count - 8_000, "the wake phrase is cut off the request")
        let turn = try await assistant.hear(rest)
        // A request done in one turn (a message would be read back and wait for an answer).
        #expect(turn.app == "MonkeyChat" && turn.intent == "INSearchForMessagesIntent" && turn.slots["senders"] == "Bobo", "heard '\(turn.heard)'")

        #expect(try await gate.admit(wakeAlone, assistant: assistant, decoder: sharedDecoder) == .woke)
        #expect(gate.awake)
        #expect(try await gate.admit(request, assistant: assistant, decoder: sharedDecoder) == .request(request))
        #expect(!gate.awake)
        // Spotting switched the decoder's search; recognition still uses the grammar.
        let again = try await assistant.hear(request)
        #expect(again.intent == "INSearchForMessagesIntent", "heard '\(again.heard)'")
    }

    @Test("hark listen --wake answers only what follows the phrase, and says Yes? to the phrase alone")
    func listenCommand() throws {
        let dir = try temporaryDirectory("wake-cli")
        let request = try speech("show my messages from bobo on monkeychat", in: dir, name: "request")
        let woken = try speech("hey hark show my messages from bobo on monkeychat", in: dir, name: "woken")
        let wake = try speech("hey hark", in: dir, name: "wake")
        let silence = dir.appendingPathComponent("silence.wav").path
        try run("/usr/bin/sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", silence, "trim", "0", "1.5"])
        let stream = dir.appendingPathComponent("stream.raw").path
        try run("/usr/bin/sox", [request, silence, woken, silence, wake, silence, request, silence,
                                 "-t", "raw", "-r", "16000", "-c", "1", "-e", "signed", "-b", "16", stream])
        let result = try runHark(["listen", "--device", "-", "--wake", "hey hark", "--playback", "none", "--json"], stdin: stream)
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(result.out)")
        #expect(lines[0].contains(#""intent":"INSearchForMessagesIntent""#), "\(lines[0])")
        #expect(lines[1].contains(#""code":"awake""#))
        #expect(lines[2].contains(#""intent":"INSearchForMessagesIntent""#), "\(lines[2])")
        #expect(result.err.contains("ignored"))
    }

    @Test("a card's brief speech: questions and failures in full, a finished request's first sentence")
    func briefSpeech() async throws {
        let assistant = try makeAssistant(recognizer: false)
        let booked = await assistant.read("get me a Banana Car to the airport with MonkeyRide")
        #expect(booked.prompt && booked.briefSpeech == booked.speech, "a question is asked in full")
        _ = await assistant.read("yes")
        let status = await assistant.read("where is my MonkeyRide ride")
        #expect(status.code == "success" && status.speech.hasPrefix("Here's your ride. "), "\(status.speech)")
        #expect(status.briefSpeech == "Here's your ride.")
    }
}
