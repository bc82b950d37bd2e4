import Foundation
import Testing

/// The issue's seed conversations, typed through `hark converse`.
@Suite("Seed conversations, typed", .serialized)
struct SeedConversationTests {
    func expectSent(_ turn: ConverseTurn?, to recipient: String = "Bobo", saying content: String = "please send more bananas") {
        #expect(turn?.app == "MonkeyChat")
        #expect(turn?.intent == "INSendMessageIntent")
        #expect(turn?.slots["recipients"] == recipient)
        #expect(turn?.slots["content"] == content)
        #expect(turn?.code == "success")
        #expect(turn?.prompt == false)
    }

    /// The read-back before a message goes out.
    /// The read-back before a message goes out; the message as it was typed.
    func expectReadBack(_ turn: ConverseTurn?, to recipient: String = "Bobo", saying content: String = "please send more bananas") {
        #expect(turn?.speech == "Your message to \(recipient) says: \(content). Ready to send it?")
        #expect(turn?.prompt == true)
        #expect(turn?.slots["content"] == content)
    }

    @Test("a message is read back before it goes out: change it asks for the content again, no keeps it unsent")
    func readBack() throws {
        let converse = try Converse()
        let turns = try converse.run(["MonkeyChat Bobo please send more bananas", "change it", "these were great bananas", "yes send it"])
        try #require(turns.count == 4)
        expectReadBack(turns[0])
        #expect(turns[1].speech == "What do you want to say to Bobo?" && turns[1].prompt)
        #expect(turns[2].speech == "Your message to Bobo says: these were great bananas. Ready to send it?")
        #expect(turns[3].code == "success" && turns[3].slots["content"] == "these were great bananas")
        let declined = try converse.run(["MonkeyChat Bobo hello there", "no"])
        #expect(declined[1].speech == "Okay, I won't.")
        let history = try #require(try converse.read(group: "group.com.example.monkeychat", file: "messages.json") as? [[String: Any]])
        #expect(history.filter { $0["sender"] as? String == "me" }.map { $0["content"] as? String } == ["these were great bananas"])
    }

    @Test("(a) send a MonkeyChat message → who? → Bobo → what? → the content")
    func seedA() throws {
        let turns = try Converse().run(["Hey Siri, send a MonkeyChat message", "Bobo", "Please send more bananas", "send it"])
        try #require(turns.count == 4)
        #expect(turns[0].speech == "Who do you want to message?")
        #expect(turns[0].prompt && turns[0].code == "prompt")
        #expect(turns[1].speech == "What do you want to say to Bobo?")
        #expect(turns[1].prompt)
        expectReadBack(turns[2], saying: "Please send more bananas")
        expectSent(turns[3], saying: "Please send more bananas")
    }

    @Test("(b) send a message to Bobo on MonkeyChat → content prompt → the content")
    func seedB() throws {
        let turns = try Converse().run(["Send a message to Bobo on MonkeyChat", "Please send more bananas", "yes"])
        try #require(turns.count == 3)
        #expect(turns[0].speech == "What do you want to say to Bobo?")
        #expect(turns[0].slots["recipients"] == "Bobo")
        expectReadBack(turns[1], saying: "Please send more bananas")
        expectSent(turns[2], saying: "Please send more bananas")
    }

    @Test("(c) MonkeyChat Bobo please send more bananas, in one turn")
    func seedC() throws {
        let turns = try Converse().run(["MonkeyChat Bobo please send more bananas", "yes please"])
        try #require(turns.count == 2)
        expectReadBack(turns[0])
        expectSent(turns[1])
        #expect(turns[1].speech == "Your message to Bobo was sent.")
    }

    @Test("(d) the long request → who? → my best friend Bobo")
    func seedD() throws {
        let turns = try Converse().run([
            "Hey Siri, can you please do me a favor and launch the MonkeyChat app to send a text with the message please send more bananas",
            "My best friend Bobo",
            "go ahead",
        ])
        try #require(turns.count == 3)
        #expect(turns[0].speech == "Who do you want to message?")
        #expect(turns[0].slots["content"] == "please send more bananas")
        expectReadBack(turns[1])
        expectSent(turns[2])
    }

    @Test("the message is in MonkeyChat's history afterwards, and survives a new process")
    func persisted() throws {
        let converse = try Converse()
        _ = try converse.run(["MonkeyChat Bobo please send more bananas", "send it"])
        _ = try converse.run(["MonkeyChat Little Bobo hello there", "yes"])
        let history = try #require(try converse.read(group: "group.com.example.monkeychat", file: "messages.json") as? [[String: Any]])
        let sent = history.filter { $0["sender"] as? String == "me" }
        #expect(sent.map { $0["recipient"] as? String } == ["Bobo", "Little Bobo"])
        #expect(sent.first?["content"] as? String == "please send more bananas")
    }

    @Test("without a plain Bobo, Bobo is a spoken numbered choice answered by the second one")
    func disambiguation() throws {
        let converse = try Converse()
        try converse.write(#"["Bobo the Great", "Bobo Jr.", "Little Bobo"]"#, group: "group.com.example.monkeychat", file: "contacts.json")
        let turns = try converse.run(["Send a message to Bobo on MonkeyChat saying please send more bananas", "the second one", "yes"])
        try #require(turns.count == 3)
        #expect(turns[0].speech == "Which one? 1, Bobo the Great; 2, Bobo Jr.; or 3, Little Bobo.")
        #expect(turns[0].prompt)
        expectReadBack(turns[1], to: "Bobo Jr.")
        expectSent(turns[2], to: "Bobo Jr.")
    }

    @Test("a choice can be answered by name too, and cancelled")
    func disambiguationByNameAndCancel() throws {
        let converse = try Converse()
        try converse.write(#"["Bobo the Great", "Bobo Jr.", "Little Bobo"]"#, group: "group.com.example.monkeychat", file: "contacts.json")
        let byName = try converse.run(["MonkeyChat Bobo please send more bananas", "Little Bobo", "yes"])
        expectSent(byName.last, to: "Little Bobo")
        let cancelled = try converse.run(["MonkeyChat Bobo please send more bananas", "cancel"])
        #expect(cancelled.last?.code == "cancelled")
        #expect(cancelled.last?.speech == "Okay, cancelled.")
    }

    @Test("with a plain Bobo present, Bobo resolves to that contact without a question")
    func plainBobo() throws {
        let turns = try Converse().run(["Send a message to Bobo on MonkeyChat saying please send more bananas"])
        try #require(turns.count == 1)
        expectReadBack(turns[0])
    }

    @Test("one partial match is confirmed with a yes or no question")
    func confirmation() throws {
        let converse = try Converse()
        try converse.write(#"["Bobo", "Little Bobo", "Zuzu Kong"]"#, group: "group.com.example.monkeychat", file: "contacts.json")
        let turns = try converse.run(["MonkeyChat Zuzu please send more bananas", "sure", "yes"])
        try #require(turns.count == 3)
        #expect(turns[0].speech == "Send it to Zuzu Kong?")
        #expect(turns[1].slots["recipients"] == "Zuzu Kong")
        expectReadBack(turns[1], to: "Zuzu Kong")
        #expect(turns[2].code == "success")
        let declined = try converse.run(["MonkeyChat Zuzu please send more bananas", "nope", "Bobo", "send"])
        #expect(declined[1].speech == "Who do you want to message?")
        #expect(declined[2].slots["recipients"] == "Bobo")
        #expect(declined[3].code == "success")
    }

    @Test("an answer the question does not allow is asked again, not guessed")
    func badAnswer() throws {
        let turns = try Converse().run(["send a MonkeyChat message", "the weather in Paris", "Bobo"])
        #expect(turns[1].speech == "Sorry, I didn't get that. Who do you want to message?")
        #expect(turns[1].prompt)
        #expect(turns[2].speech == "What do you want to say to Bobo?")
    }

    @Test("what can you do, and what can MonkeyChat do")
    func help() throws {
        let turns = try Converse().run(["What can you do?", "What can MonkeyChat do?"])
        #expect(turns[0].code == "help")
        // Apps are named by their display names (ListOMat's is "List-o-Mat").
        for app in ["MonkeyChat", "List-o-Mat", "TasksNotes", "MonkeyFit", "MonkeyPay", "MonkeyRide"] {
            #expect(turns[0].speech.contains(app))
        }
        #expect(turns[1].speech.hasPrefix("With MonkeyChat you can: send a message to a contact"))
        #expect(turns[1].speech.contains("Send a message to Bobo on MonkeyChat"))
    }

    @Test("a request naming no app goes to the only app that can do it, or asks which app")
    func unnamedApp() throws {
        let turns = try Converse().run(["tell Bobo please send more bananas", "yes", "remind me to buy milk"])
        expectSent(turns[1])
        #expect(turns[2].code == "whichApp")
        #expect(turns[2].speech == "Which app? List-o-Mat or TasksNotes?")
    }

    @Test("an app's own card template shows the request in push-to-talk and terminal use")
    func appCard() throws {
        let turns = try Converse().run(["Send a message to Bobo on MonkeyChat saying please send more bananas", "yes",
                                        "Send Bobo twenty dollars for bananas with MonkeyPay", "yes"])
        #expect(turns[0].card == "💬 MonkeyChat to Bobo\n   “please send more bananas”")
        // A trailing app name is the app, not the end of the note.
        #expect(turns[2].slots["note"] == "bananas")
        #expect(turns[2].speech == "Send 20 dollars to Bobo?")
        #expect(turns[3].card == "🍌 Pay Bobo 20 USD\n   for bananas\n   sent: 20 dollars")
        let text = try runHark(["converse", "--apps", SampleInfo.appsFolder().path, "--data-dir", temporaryDirectory("card").path],
                               input: "Send a message to Bobo on MonkeyChat saying hi\n")
        #expect(text.out.contains("intent: MonkeyChat / INSendMessageIntent\n  💬 MonkeyChat to Bobo\n     “hi”\nhark:   Your message"), "\(text.out)")
    }
}
