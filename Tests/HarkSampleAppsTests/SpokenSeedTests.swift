import Foundation
import HarkTestSupport
import Testing

/// Speech synthesised at test time with flite (a different synthesizer from
/// Hark's own espeak-ng voice), one WAV per user turn.
func synthesise(_ text: String, voice: String = "rms", to path: String) throws {
    let result = try ProcessRunner.run("/usr/bin/flite", ["-voice", voice, "-t", text, "-o", path])
    #expect(result.status == 0, "flite failed on '\(text)': \(result.err)")
}

/// The seed conversations spoken: each user turn synthesised, the turns
/// replayed through recognition, the narrowed answer grammars and the engine.
@Suite("Seed conversations, spoken", .serialized)
struct SpokenSeedTests {
    static let seeds: [(name: String, turns: [String])] = [
        // As the seeds are spoken, "Hey Siri" and all: the request search accepts a leading wake phrase.
        // Each ends as the seeds' Siri does: the message read back, answered "send it" or "yes".
        ("a", ["Hey Siri, send a MonkeyChat message", "Bobo", "Please send more bananas", "Send it"]),
        ("b", ["Send a message to Bobo on MonkeyChat", "Please send more bananas", "Yes"]),
        ("c", ["MonkeyChat Bobo please send more bananas", "Yes please send it"]),
        ("d", ["Hey Siri, can you please do me a favor and launch the MonkeyChat app to send a text with the message please send more bananas",
               "My best friend Bobo", "Send"]),
    ]

    @Test("each seed ends in MonkeyChat / INSendMessageIntent to Bobo, asking in between", arguments: seeds.map(\.name))
    func seed(name: String) throws {
        let turns = try #require(Self.seeds.first { $0.name == name }).turns
        let dir = try temporaryDirectory("spoken-\(name)")
        let files = try turns.enumerated().map { index, text in
            let path = dir.appendingPathComponent("turn\(index + 1).wav").path
            try synthesise(text, to: path)
            return path
        }
        // The shipped catalog (models/apps): what `make demo` runs.
        let result = try runHark(["replay"] + files + ["--json", "--data-dir", dir.appendingPathComponent("data").path])
        #expect(result.status == 0, "\(result.err)")
        let replies = try result.out.split(separator: "\n").map { try JSONDecoder().decode(ConverseTurn.self, from: Data($0.utf8)) }
        try #require(replies.count == turns.count)
        for reply in replies.dropLast() {
            #expect(reply.prompt, "turn '\(reply.heard)' should ask: \(reply.speech)")
        }
        let readBack = replies[replies.count - 2]
        #expect(readBack.speech == "Your message to Bobo says: please send more bananas. Ready to send it?", "\(readBack.speech)")
        let last = try #require(replies.last)
        #expect(last.app == "MonkeyChat")
        #expect(last.intent == "INSendMessageIntent")
        #expect(last.slots["recipients"] == "Bobo")
        #expect(last.code == "success")
        // Free text is heard by the n-gram pass; in flite's rms voice all four seeds come out word for word.
        #expect(last.slots["content"] == "please send more bananas")
    }
}
