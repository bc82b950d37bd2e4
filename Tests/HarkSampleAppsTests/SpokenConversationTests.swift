import Foundation
import Testing

/// The rest of issue 5's conversations spoken, not typed: each user turn
/// synthesised with a flite voice the fixtures do not use (kal16, awb),
/// replayed through `hark replay` (recognition, the narrowed answer
/// grammars, the engine and the shipped sample apps), one process per
/// conversation as a person would have it.
@Suite("Sample-app conversations, spoken", .serialized)
struct SpokenConversationTests {
    /// Speaks `turns` with `voice` and replays them; returns Hark's replies.
    func replay(_ turns: [String], voice: String, converse: Converse, extra: [String] = []) throws -> [ConverseTurn] {
        let dir = try temporaryDirectory("spoken")
        let files = try turns.enumerated().map { index, text in
            let path = dir.appendingPathComponent("turn\(index + 1).wav").path
            try synthesise(text, voice: voice, to: path)
            return path
        }
        let result = try runHark(["replay"] + files + ["--json", "--apps", converse.apps.path, "--data-dir", converse.data.path] + extra)
        #expect(result.status == 0, "\(result.err)")
        let replies = try result.out.split(separator: "\n").map { try JSONDecoder().decode(ConverseTurn.self, from: Data($0.utf8)) }
        try #require(replies.count == turns.count, "\(turns.count) turns, \(replies.count) replies: \(result.err)")
        return replies
    }

    @Test("without a plain Bobo, Bobo is a numbered choice, answered by the second one", arguments: ["kal16", "awb"])
    func disambiguation(voice: String) throws {
        let converse = try Converse()
        try converse.write(#"["Bobo the Great", "Bobo Jr.", "Little Bobo"]"#, group: "group.com.example.monkeychat", file: "contacts.json")
        let replies = try replay(["Send a message to Bobo on MonkeyChat saying please send more bananas", "The second one", "Yes, send it"],
                                 voice: voice, converse: converse)
        #expect(replies[0].speech == "Which one? 1, Bobo the Great; 2, Bobo Jr.; or 3, Little Bobo.", "heard '\(replies[0].heard)'")
        #expect(replies[1].intent == "INSendMessageIntent")
        #expect(replies[1].slots["recipients"] == "Bobo Jr.", "heard '\(replies[1].heard)'")
        // The message is read back before it goes.
        #expect(replies[1].code == "prompt" && replies[1].speech.hasPrefix("Your message to Bobo Jr. says: "), "\(replies[1].speech)")
        #expect(replies[2].code == "success", "heard '\(replies[2].heard)'")
    }

    @Test("a ride asked for with no place: 'Where do you want to go?' is answered by a street on no list, and the ride is booked there", arguments: ["kal16", "awb"])
    func placeOnNoList(voice: String) throws {
        let replies = try replay(["Book a MonkeyRide", "Maple Street", "Yes"], voice: voice, converse: try Converse())
        #expect(replies[0].intent == "INRequestRideIntent" && replies[0].speech == "Where do you want to go?", "heard '\(replies[0].heard)'")
        // Heard in lower case, written as a name.
        #expect(replies[1].slots["dropOffLocation"] == "Maple Street", "heard '\(replies[1].heard)'")
        #expect(replies[1].code == "prompt" && replies[1].speech.hasSuffix("Book a ride to Maple Street?"), "\(replies[1].speech)")
        #expect(replies[2].code == "success", "heard '\(replies[2].heard)'")
    }

    @Test("with a plain Bobo, Bobo is that contact, with no question", arguments: ["kal16", "awb"])
    func plainBobo(voice: String) throws {
        let replies = try replay(["Send a message to Bobo on MonkeyChat saying please send more bananas", "Send it"], voice: voice, converse: try Converse())
        #expect(replies[0].slots["recipients"] == "Bobo", "heard '\(replies[0].heard)'")
        #expect(replies[0].code == "prompt" && replies[0].speech.hasSuffix("Ready to send it?"), "\(replies[0].speech)")
        #expect(replies[1].code == "success", "heard '\(replies[1].heard)'")
    }

    @Test("TasksNotes: Remind me to leave home at 8 am", arguments: ["kal16", "awb"])
    func reminder(voice: String) throws {
        let converse = try Converse()
        let replies = try replay(["Remind me to leave home at 8 am in TasksNotes", "Yes"], voice: voice, converse: converse)
        let reply = replies[0]
        #expect(reply.app == "TasksNotes" && reply.intent == "INAddTasksIntent", "heard '\(reply.heard)'")
        #expect(reply.slots["targetTaskList"] == "Reminders")
        #expect(reply.slots["taskTitles"] == "leave home", "heard '\(reply.heard)'")
        // Heard surely, it is added at once; heard unsurely (its words'
        // confidence), the reminder is read back first, and "yes" adds it.
        if reply.code != "success" { #expect(reply.speech == "I heard: leave home. Is that right?") }
        let done = try #require(replies.first { $0.code == "success" }, "\(replies.map(\.speech))")
        #expect(done.speech == "Added leave home. I'll remind you at 8 am.")
    }

    @Test("TasksNotes: Add WWDC to the training list", arguments: ["kal16", "awb"])
    func addToTraining(voice: String) throws {
        let converse = try Converse()
        let reply = try replay(["Add WWDC to the training list in TasksNotes"], voice: voice, converse: converse)[0]
        #expect(reply.intent == "INAddTasksIntent", "heard '\(reply.heard)'")
        #expect(reply.slots["targetTaskList"] == "Training")
        #expect(reply.code == "success")
        let book = try #require(try converse.read(group: "group.com.example.tasksnotes", file: "notebook.json") as? [String: Any])
        let training = try #require((book["lists"] as? [[String: Any]])?.first { $0["title"] as? String == "Training" })
        #expect((training["tasks"] as? [[String: Any]])?.count == 2, "the new task is on the list")
    }

    @Test("TasksNotes: Mark buy iPhone as completed (the task heard as the app names it)", arguments: ["kal16", "awb"])
    func markCompleted(voice: String) throws {
        let converse = try Converse()
        let replies = try replay(["Mark buy iPhone as completed in TasksNotes"], voice: voice, converse: converse)
        #expect(replies[0].intent == "INSetTaskAttributeIntent", "heard '\(replies[0].heard)'")
        #expect(replies[0].slots["status"] == "completed")
        // The task is one of TasksNotes' own (its vocabulary), so it is heard
        // as the app names it, not dictated ("by iphone" used to need a
        // "Did you mean buy iPhone?" first).
        #expect(replies[0].code == "success", "\(replies[0].speech)")
        #expect(replies[0].slots["targetTask"] == "buy iPhone")
        let book = try #require(try converse.read(group: "group.com.example.tasksnotes", file: "notebook.json") as? [String: Any])
        let shopping = try #require((book["lists"] as? [[String: Any]])?.first { $0["title"] as? String == "Shopping" })
        let iPhone = (shopping["tasks"] as? [[String: Any]])?.first { $0["title"] as? String == "buy iPhone" }
        #expect(iPhone?["completed"] as? Bool == true)
    }

    @Test("List-o-Mat: an exact name, a name of several lists, and part of one", arguments: ["kal16", "awb"])
    func listOMat(voice: String) throws {
        let converse = try Converse()
        let exact = try replay(["In ListOMat show the grocery list"], voice: voice, converse: converse)[0]
        #expect(exact.intent == "INSearchForNotebookItemsIntent" && exact.slots["title"] == "Grocery", "heard '\(exact.heard)'")
        #expect(exact.code == "success")
        let several = try replay(["Show me my store list in ListOMat", "The second one"], voice: voice, converse: converse)
        #expect(several[0].speech == "Which one? 1, Grocery Store; or 2, Hardware Store.", "heard '\(several[0].heard)'")
        #expect(several[1].slots["title"] == "Hardware Store" && several[1].code == "success", "heard '\(several[1].heard)'")
        let part = try replay(["Show me my office list in ListOMat", "Yes"], voice: voice, converse: converse)
        #expect(part[0].speech == "Did you mean Office Supplies?", "heard '\(part[0].heard)'")
        #expect(part[1].slots["title"] == "Office Supplies" && part[1].code == "success", "heard '\(part[1].heard)'")
    }

    @Test("MonkeyPay: a payment above the balance fails at confirm with the reason spoken", arguments: ["kal16", "awb"])
    func paymentAboveBalance(voice: String) throws {
        let reply = try replay(["Pay Bobo two hundred dollars on MonkeyPay"], voice: voice, converse: try Converse())[0]
        #expect(reply.intent == "INSendPaymentIntent", "heard '\(reply.heard)'")
        #expect(reply.code == "failure")
        #expect(reply.speech == "You can't send 200 dollars: your Checking balance is only 100 dollars.")
    }

    @Test("MonkeyPay is refused while the device is locked", arguments: ["kal16", "awb"])
    func locked(voice: String) throws {
        let reply = try replay(["Send Bobo twenty dollars with MonkeyPay"], voice: voice, converse: try Converse(), extra: ["--locked"])[0]
        #expect(reply.app == "MonkeyPay" && reply.intent == "INSendPaymentIntent", "heard '\(reply.heard)'")
        #expect(reply.code == "refused")
        #expect(reply.speech == "You'll need to unlock your device first.")
    }
}
