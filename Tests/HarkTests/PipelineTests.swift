import Foundation
import Hark
import HarkAudio
import Testing

/// Free-text slots are recognised by dictation, which the grammar does not
/// constrain; they are judged by word error rate, the others exactly.
let freeTextSlots: Set<String> = ["content"]

@Suite("Whole pipeline on the audio fixtures", .serialized)
struct PipelineTests {
    @Test("the manifest lists every fixture file, and each exists")
    func manifest() {
        #expect(Fixture.core.count == 24)
        // Every SiriKit intent a sample app handles is spoken in three voices.
        #expect(Set(Fixture.all.filter { $0.set == "domains" }.compactMap(\.intent)).count == 27)
        #expect(Fixture.all.contains { $0.set == "out-of-grammar" && $0.intent == nil })
        for fixture in Fixture.all {
            #expect(FileManager.default.fileExists(atPath: fixture.path), "\(fixture.audio) is missing")
        }
    }

    @Test("each single-turn fixture reaches its app and intent with its slots", arguments: Fixture.singleTurn)
    func fixture(_ fixture: Fixture) async throws {
        let assistant = try makeAssistant()
        let turn = try await assistant.hear(try TurnAudio.read(path: fixture.path))
        #expect(turn.audioSeconds > 0.5)
        #expect(turn.decodeSeconds > 0)
        let check = {
            #expect(turn.app == fixture.app, "heard '\(turn.heard)'")
            #expect(turn.intent == fixture.intent, "heard '\(turn.heard)'")
            for (name, value) in fixture.slots where !freeTextSlots.contains(name) {
                #expect(turn.slots[name] == value, "heard '\(turn.heard)'")
            }
        }
        if Self.knownMisrecognitions.contains(fixture.audio) {
            // Recorded as a known issue: the test fails if it starts passing, so this list stays true.
            withKnownIssue("known misrecognition (see knownMisrecognitions)") { check() }
        } else {
            check()
        }
    }

    /// Fixtures Hark currently gets wrong, each with why. Since TasksNotes
    /// gained the alternative name MonkeyTodo, espeak-ng's British voice's
    /// "MonkeyChat Bobo" is heard as "MonkeyTodo note" and the rest as the
    /// note's free text ("monkey to do note nice and will honor").
    /// espeak-ng's US voice's "MonkeyChat Bobo please send more bananas" is
    /// heard as "monkey chat bobo resistance or bananas", the message over
    /// half of it and the words around it heard at 0.38: under
    /// ``DecoderOptions/minimumNamedFreeTextConfidence``, not understood
    /// (until 2026-11-29 it was read back, misheard). The same voice's
    /// "Send a message to Bobo on MonkeyChat saying please send more
    /// bananas" has the same message, "resistance or bananas"; since
    /// other apps' names are heard (2026-12-04) its reading is heard at
    /// 0.43, under the same floor (0.47 before), and not understood
    /// rather than read back misheard. espeak-ng's British voice's "Send a
    /// text to Little Bobo on MonkeyChat saying see you at the tree" is
    /// heard as "send a text to little bobo on the top citing see all the
    /// three": no app's name is heard, and a heard request that names no
    /// app is not taken while several apps are installed
    /// (``Assistant/sayTheApp``; until 2026-12-06 the message went on as
    /// "see all the three").
    static let knownMisrecognitions: Set<String> = ["espeak-gb/monkeychat-verb-bobo-bananas.wav",
                                                    "espeak-gb/monkeychat-little-bobo.wav",
                                                    "espeak-us/monkeychat-verb-bobo-bananas.wav",
                                                    "espeak-us/monkeychat-send-bobo-bananas.wav"]

    @Test("free text heard unsurely is read back before the request goes on: no asks for it again, yes goes ahead")
    func unsureFreeTextReadBack() async throws {
        // espeak-ng's US voice: "Remind me to leave home at 8 am in
        // TasksNotes", the reminder heard as "be poetic" (its words' mean
        // confidence under 0.5). flite's slt voice saying the same was the
        // example until the n-gram model was pruned (2026-11-26): its
        // "leave on" (unsure, read back) became "believe" heard surely
        // (0.92) — one of the confident misreadings free text has with
        // either model (docs/measurements.md, "Memory": over the fixtures, 75% of free-text
        // words heard with 0.8 or more are right with both).
        let assistant = try makeAssistant()
        let asked = try await assistant.hear(try TurnAudio.read(path: Repo.fixtures.appendingPathComponent("espeak-us/reminder.wav").path))
        #expect(asked.intent == "INAddTasksIntent", "heard '\(asked.heard)'")
        #expect(asked.prompt)
        let heard = try #require(asked.slots["taskTitles"])
        #expect(asked.speech == "I heard: \(heard). Is that right?")
        let free = asked.words.filter(\.isFreeText)
        #expect(!free.isEmpty && free.map(\.confidence).reduce(0, +) / Double(free.count) < Assistant.readBackBelow)
        let again = await assistant.read("no")
        #expect(again.prompt)
        #expect(again.slots["taskTitles"] == nil)
        let done = await assistant.read("leave home")
        #expect(done.code == "success", "\(done.speech)")
        #expect(done.slots["taskTitles"] == "leave home")

        // The same kind of request heard surely goes straight on; a yes
        // to a read-back goes ahead with what was heard.
        let sure = try makeAssistant()
        let created = try await sure.hear(try TurnAudio.read(path: Repo.fixtures.appendingPathComponent("flite-rms/create-note.wav").path))
        #expect(created.code == "success", "\(created.speech)")
        let list = try makeAssistant()
        let readBack = try await list.hear(try TurnAudio.read(path: Repo.fixtures.appendingPathComponent("flite-slt/grocery-list.wav").path))
        #expect(readBack.speech.hasPrefix("I heard: "), "\(readBack.speech)")
        let yes = await list.read("yes")
        #expect(yes.code == "success", "\(yes.speech)")
        #expect(yes.slots["taskTitles"] == readBack.slots["taskTitles"])
        // Typed requests are never read back.
        let typed = await (try makeAssistant(recognizer: false)).read("Remind me to leave home at 8 am in TasksNotes")
        #expect(typed.code == "success", "\(typed.speech)")
    }

    @Test("a request heard unsurely that would act at once is read back first: yes carries it out, no does not; heard surely, it is carried out")
    func unsureRequestReadBack() async throws {
        // espeak-ng's US voice: "Start a Bananarific workout with MonkeyFit",
        // heard right at 0.35.
        let assistant = try makeAssistant()
        let asked = try await assistant.hear(try TurnAudio.read(path: Repo.fixtures.appendingPathComponent("espeak-us/start-workout.wav").path))
        #expect(asked.intent == "INStartWorkoutIntent" && asked.confidence < Assistant.confirmActionBelow, "heard '\(asked.heard)' at \(asked.confidence)")
        #expect(asked.prompt && asked.speech.hasSuffix("I heard: \(asked.heard). Is that right?"), "\(asked.speech)")
        let started = await assistant.read("yes")
        #expect(started.code == "success" && started.slots["workoutName"] == "Bananarific", "\(started.speech)")

        let declined = try makeAssistant()
        _ = try await declined.hear(try TurnAudio.read(path: Repo.fixtures.appendingPathComponent("espeak-us/start-workout.wav").path))
        let no = await declined.read("no")
        #expect(no.speech == "Okay, I won't." && no.code != "success", "\(no.speech)")

        // flite's rms voice: "Call Little Bobo on MonkeyChat", heard at 0.94: called at once.
        let sure = try await (try makeAssistant()).hear(try TurnAudio.read(path: Repo.fixtures.appendingPathComponent("flite-rms/audio-call.wav").path))
        #expect(sure.confidence >= Assistant.confirmActionBelow && !sure.prompt && sure.intent == "INStartAudioCallIntent", "\(sure.speech)")
        #expect(!Assistant.onlyReads("INStartWorkoutIntent") && Assistant.onlyReads("INSearchForMessagesIntent") && Assistant.onlyReads("INGetRideStatusIntent"))
    }

    @Test("free text heard unsurely in a request that first asks \"Which app?\" is read back once the app is chosen")
    func unsureFreeTextReadBackAfterWhichApp() async throws {
        // flite's kal voice: "create a list called chores", the title heard
        // wrongly ("toward") and unsurely; no app named, so Hark asks which.
        let dir = try temporaryDirectory("which-app-read-back")
        let raw = dir.appendingPathComponent("8k.wav").path, wav = dir.appendingPathComponent("request.wav").path
        try run("/usr/bin/flite", ["-voice", "kal", "-t", "create a list called chores", "-o", raw])
        try run("/usr/bin/sox", [raw, "-r", "16000", "-c", "1", "-b", "16", wav])
        let assistant = try makeAssistant()
        let asked = try await assistant.hear(try TurnAudio.read(path: wav))
        try #require(asked.code == "whichApp", "heard '\(asked.heard)': \(asked.speech)")
        let free = asked.words.filter(\.isFreeText)
        try #require(!free.isEmpty && free.map(\.confidence).reduce(0, +) / Double(free.count) < Assistant.readBackBelow,
                     "\(asked.words)")
        let heard = free.map(\.word).joined(separator: " ")

        // Before, the list was made at once under the misheard title.
        let chosen = await assistant.read("TasksNotes")
        #expect(chosen.app == "TasksNotes")
        #expect(chosen.prompt)
        #expect(chosen.speech.lowercased().hasSuffix("i heard: \(heard). is that right?"), "\(chosen.speech)")
        let again = await assistant.read("no")
        #expect(again.prompt, "\(again.speech)")
        let made = await assistant.read("chores")
        #expect(made.code == "success", "\(made.speech)")
        #expect(made.slots["title"].map { $0.lowercased() } == "chores", "\(made.slots)")

        // A typed request that asks which app goes straight on once it is chosen.
        let typed = try makeAssistant(recognizer: false)
        _ = await typed.read("create a list called chores")
        let direct = await typed.read("TasksNotes")
        #expect(direct.code == "success", "\(direct.speech)")
    }

    @Test("free-text slots: mean word error rate stays under the measured floor")
    func dictationAccuracy() async throws {
        var rates: [Double] = []
        for fixture in Fixture.singleTurn {
            guard let content = fixture.slots["content"] else { continue }
            let assistant = try makeAssistant()
            let turn = try await assistant.hear(try TurnAudio.read(path: fixture.path))
            rates.append(wordErrorRate(content, turn.slots["content"] ?? ""))
        }
        let mean = rates.reduce(0, +) / Double(max(1, rates.count))
        // Measured 0.76 with the unigram-weighted dictation loop, 0.63 with the
        // n-gram model decoding each run of free text alone, 0.57 (2026-11-23)
        // with the n-gram model reading the whole utterance for context.
        #expect(!rates.isEmpty)
        #expect(mean < 0.65, "mean content WER \(mean) over \(rates.count) fixtures")
    }

    @Test("a conversation over two recorded turns asks for the content, then sends", arguments: Fixture.conversations)
    func conversation(_ turns: [Fixture]) async throws {
        let assistant = try makeAssistant()
        for (index, fixture) in turns.enumerated() {
            let turn = try await assistant.hear(try TurnAudio.read(path: fixture.path))
            #expect(turn.code == fixture.code, "turn \(index + 1) heard '\(turn.heard)'")
            #expect(turn.app == fixture.app)
            #expect(turn.intent == fixture.intent)
            #expect(turn.slots["recipients"] == fixture.slots["recipients"])
            #expect(turn.slots.keys.sorted() == fixture.slots.keys.sorted())
        }
    }

    @Test("the same audio at other rates, widths and channel counts is heard the same")
    func formatIndependence() async throws {
        let source = try #require(Fixture.singleTurn.first { $0.audio.hasPrefix("flite-rms/monkeychat-send-bobo") })
        let dir = try temporaryDirectory()
        let assistant = try makeAssistant()
        let reference = try await assistant.hear(try TurnAudio.read(path: source.path)).heard
        #expect(!reference.isEmpty)
        let conversions: [(String, [String])] = [
            ("44k-stereo-float.wav", ["-r", "44100", "-c", "2", "-e", "floating-point", "-b", "32"]),
            ("8k-8bit.wav", ["-r", "8000", "-c", "1", "-e", "unsigned-integer", "-b", "8"]),
            ("48k-24bit.wav", ["-r", "48000", "-c", "1", "-e", "signed-integer", "-b", "24"]),
        ]
        for (name, options) in conversions {
            let out = dir.appendingPathComponent(name).path
            try run("/usr/bin/sox", [source.path] + options + [out])
            let turn = try await makeAssistant().hear(try TurnAudio.read(path: out))
            if name == "8k-8bit.wav" {
                // 8 kHz keeps only half the band and 8 bits add noise: the
                // request must still be understood the same way.
                #expect(turn.intent == source.intent)
                #expect(turn.slots["recipients"] == source.slots["recipients"])
            } else {
                #expect(turn.heard == reference, "\(name)")
            }
        }
    }

    @Test("heard after the app's name: a request taken back is not taken; 'for me', 'please' and 'thanks' close a request")
    func closingWords() async throws {
        func heard(_ text: String, voice: String) async throws -> Turn {
            try await makeAssistant().hear(try flite(text, voice: voice))
        }
        for voice in ["kal16", "awb"] {
            // Until 2026-12-07 heard "… with monkey ride via snapchat" and booked.
            let back = try await heard("Book a Jungle Limo to the river with MonkeyRide, no, scratch that", voice: voice)
            #expect(back.heard.hasSuffix("monkey ride no scratch that") && back.code == "notUnderstood", "\(voice): \(back.heard)")
            let paid = try await heard("Pay Little Bobo ten dollars on MonkeyPay, no wait, forget it", voice: voice)
            #expect(paid.heard.hasSuffix("forget it") && paid.code == "notUnderstood", "\(voice): \(paid.heard)")
            // Without the closing words "for me" was heard as "forget it".
            let ring = try await heard("Can you ring Bobo on MonkeyChat for me?", voice: voice)
            #expect(ring.app == "MonkeyChat" && ring.intent == "INStartAudioCallIntent" && ring.slots["contacts"] == "Bobo", "\(voice): \(ring.heard)")
        }
    }

    @Test("leading and trailing silence do not change what is heard")
    func silencePadding() async throws {
        let source = try #require(Fixture.singleTurn.first { $0.audio.hasPrefix("flite-rms/monkeychat-little-bobo") })
        let dir = try temporaryDirectory()
        let padded = dir.appendingPathComponent("padded.wav").path
        try run("/usr/bin/sox", [source.path, padded, "pad", "2.5", "3"])
        let plain = try await makeAssistant().hear(try TurnAudio.read(path: source.path))
        let long = try await makeAssistant().hear(try TurnAudio.read(path: padded))
        #expect(long.heard == plain.heard)
        #expect(long.audioSeconds < plain.audioSeconds + 0.5)
    }
}

@Suite("Typed turns")
struct TypedTurnTests {
    @Test("a request in one turn is read back, and sent on 'send it'", arguments: [
        "MonkeyChat Bobo please send more bananas",
        "Send a message to Bobo on MonkeyChat saying please send more bananas",
    ])
    func oneTurn(text: String) async throws {
        let assistant = try makeAssistant(recognizer: false)
        let readBack = await assistant.read(text)
        #expect(readBack.app == "MonkeyChat")
        #expect(readBack.intent == "INSendMessageIntent")
        #expect(readBack.slots == ["recipients": "Bobo", "content": "please send more bananas"])
        #expect(readBack.code == "prompt" && readBack.prompt)
        #expect(readBack.speech == "Your message to Bobo says: please send more bananas. Ready to send it?")
        let turn = await assistant.read("send it")
        #expect(turn.code == "success")
        #expect(turn.speech == "Your message to Bobo was sent.")
    }

    @Test("a request without content asks for it, and the answer completes it")
    func asksForContent() async throws {
        let assistant = try makeAssistant(recognizer: false)
        let asked = await assistant.read("Send a message to Bobo on MonkeyChat")
        #expect(asked.code == "prompt")
        #expect(asked.prompt)
        #expect(asked.speech == "What do you want to say to Bobo?")
        let readBack = await assistant.read("Please send more bananas")
        #expect(readBack.code == "prompt" && readBack.speech == "Your message to Bobo says: Please send more bananas. Ready to send it?")
        // The answer's words as typed.
        #expect(readBack.slots == ["recipients": "Bobo", "content": "Please send more bananas"])
        #expect(await assistant.read("yes please").code == "success")
    }

    @Test("a request naming nobody asks who, and takes a contact's name")
    func asksForRecipient() async throws {
        let assistant = try makeAssistant(recognizer: false)
        let asked = await assistant.read("Hey Siri, send a MonkeyChat message")
        #expect(asked.speech == "Who do you want to message?")
        let who = await assistant.read("Little Bobo")
        #expect(who.speech == "What do you want to say to Little Bobo?")
        let readBack = await assistant.read("see you at the tree")
        #expect(readBack.slots == ["recipients": "Little Bobo", "content": "see you at the tree"])
        #expect(readBack.code == "prompt")
        #expect(await assistant.read("send").code == "success")
    }

    @Test("nonsense is not understood, not guessed")
    func notUnderstood() async throws {
        let turn = await (try makeAssistant(recognizer: false)).read("what's the weather in Paris")
        #expect(turn.code == "notUnderstood")
        #expect(turn.app == nil)
    }
}
