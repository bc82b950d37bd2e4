import Foundation
import HarkCatalog
import HarkGrammar
import HarkIntents
import HarkSampleApps
import Testing

@Suite("Sample apps, typed", .serialized)
struct AppsTests {
    // MARK: TasksNotes

    @Test("Make a grocery list with apples, bananas and pears in TasksNotes")
    func groceryList() throws {
        let converse = try Converse()
        let turn = try #require(try converse.run(["Make a grocery list with apples, bananas and pears in TasksNotes"]).first)
        #expect(turn.app == "TasksNotes")
        #expect(turn.intent == "INCreateTaskListIntent")
        #expect(turn.code == "success")
        #expect(turn.slots["title"] == "Grocery")
        let book = try #require(try converse.read(group: "group.com.example.tasksnotes", file: "notebook.json") as? [String: Any])
        let lists = try #require(book["lists"] as? [[String: Any]])
        let grocery = try #require(lists.first { $0["title"] as? String == "Grocery" })
        let tasks = (grocery["tasks"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        #expect(tasks == ["apples", "bananas", "pears"])
    }

    @Test("Add WWDC to the training list in TasksNotes")
    func addToTraining() throws {
        let converse = try Converse()
        let turn = try #require(try converse.run(["Add WWDC to the training list in TasksNotes"]).first)
        #expect(turn.intent == "INAddTasksIntent")
        #expect(turn.slots["targetTaskList"] == "Training")
        #expect(turn.slots["taskTitles"] == "WWDC")  // as typed
        #expect(turn.code == "success")
        let book = try #require(try converse.read(group: "group.com.example.tasksnotes", file: "notebook.json") as? [String: Any])
        let training = try #require((book["lists"] as? [[String: Any]])?.first { $0["title"] as? String == "Training" })
        #expect((training["tasks"] as? [[String: Any]])?.last?["title"] as? String == "WWDC")
    }

    @Test("Mark buy iPhone as completed in TasksNotes (and by its other name, MonkeyTodo)")
    func markCompleted() throws {
        let converse = try Converse()
        let turns = try converse.run(["Mark buy iPhone as completed in TasksNotes", "mark buy bananas as done in MonkeyTodo"])
        #expect(turns[0].intent == "INSetTaskAttributeIntent")
        #expect(turns[0].slots["targetTask"] == "buy iPhone")
        #expect(turns[0].slots["status"] == "completed")
        #expect(turns[0].code == "success")
        #expect(turns[1].app == "TasksNotes")
        #expect(turns[1].code == "success")
        let book = try #require(try converse.read(group: "group.com.example.tasksnotes", file: "notebook.json") as? [String: Any])
        let shopping = try #require((book["lists"] as? [[String: Any]])?.first { $0["title"] as? String == "Shopping" })
        #expect((shopping["tasks"] as? [[String: Any]])?.allSatisfy { $0["completed"] as? Bool == true } == true)
    }

    @Test("Remind me to leave home at 8 am in TasksNotes")
    func reminder() throws {
        let converse = try Converse()
        let turn = try #require(try converse.run(["Remind me to leave home at 8 am in TasksNotes"]).first)
        #expect(turn.intent == "INAddTasksIntent")
        #expect(turn.slots["taskTitles"] == "leave home")
        #expect(turn.slots["targetTaskList"] == "Reminders")
        #expect(turn.code == "success")
        #expect(turn.speech.contains("I'll remind you at 8 am"))
        #expect(turn.output?["due"] == "at 8 am")
    }

    @Test("a list made in this session can be named in the next request (the app's vocabulary follows its data)")
    func newListIsHeard() throws {
        let turns = try Converse().run(["make a packing list with socks in TasksNotes", "add bananas to the packing list in TasksNotes",
                                        "show me my packing list in TasksNotes"])
        #expect(turns.map(\.code) == ["success", "success", "success"])
        #expect(turns[1].slots["targetTaskList"] == "Packing")
        #expect(turns[2].speech.contains("Packing has socks and bananas."))
    }

    // MARK: ListOMat

    @Test("List-o-Mat: an exact list name is found at once")
    func listExact() throws {
        let turn = try #require(try Converse().run(["Show me my grocery list in ListOMat"]).first)
        #expect(turn.intent == "INSearchForNotebookItemsIntent")
        #expect(turn.slots["title"] == "Grocery")
        #expect(turn.code == "success")
        #expect(turn.speech.contains("Grocery has apples and bananas."))
    }

    @Test("List-o-Mat: one partial match is confirmed")
    func listPartialOne() throws {
        let turns = try Converse().run(["Show me my office list in ListOMat", "yes"])
        #expect(turns[0].speech == "Did you mean Office Supplies?")
        #expect(turns[1].slots["title"] == "Office Supplies")
        #expect(turns[1].code == "success")
    }

    @Test("List-o-Mat: several partial matches are a choice")
    func listPartialSeveral() throws {
        let turns = try Converse().run(["search for the store list in ListOMat", "the hardware store"])
        #expect(turns[0].speech == "Which one? 1, Grocery Store; or 2, Hardware Store.")
        #expect(turns[1].slots["title"] == "Hardware Store")
        #expect(turns[1].speech.contains("Hardware Store has nails and glue."))
    }

    @Test("List-o-Mat: add tasks to a list named in part")
    func listAdd() throws {
        let converse = try Converse()
        let turns = try converse.run(["add bread to the store list in ListOMat", "the first one"])
        #expect(turns[1].slots["targetTaskList"] == "Grocery Store")
        #expect(turns[1].code == "success")
        let book = try #require(try converse.read(group: "group.com.example.listomat", file: "notebook.json") as? [String: Any])
        let list = try #require((book["lists"] as? [[String: Any]])?.first { $0["title"] as? String == "Grocery Store" })
        #expect((list["tasks"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["milk", "bread"])
    }

    @Test("List-o-Mat: make a list, then find it")
    func listCreate() throws {
        let turns = try Converse().run(["make a packing list with socks and bananas in ListOMat"])
        #expect(turns.first?.intent == "INCreateTaskListIntent")
        #expect(turns.first?.app == "ListOMat")
        #expect(turns.first?.code == "success")
        #expect(turns.first?.output?["tasks"] == "socks, bananas")
    }

    // MARK: MonkeyPay

    @Test("a payment within the balance is confirmed, then sent")
    func payment() throws {
        let converse = try Converse()
        let turns = try converse.run(["Send Bobo twenty dollars with MonkeyPay", "yes"])
        #expect(turns[0].intent == "INSendPaymentIntent")
        #expect(turns[0].speech == "Send 20 dollars to Bobo?")
        #expect(turns[0].prompt)
        #expect(turns[1].code == "success")
        #expect(turns[1].speech == "Sent 20 dollars to Bobo.")
        let ledger = try #require(try converse.read(group: "group.com.example.monkeypay", file: "ledger.json") as? [String: Any])
        let checking = (ledger["accounts"] as? [[String: Any]])?.first
        #expect((checking?["balance"] as? NSNumber)?.intValue == 80)
    }

    @Test("a payment above the balance fails at confirm, with the reason")
    func paymentAboveBalance() throws {
        let converse = try Converse()
        let turns = try converse.run(["Pay Bobo two hundred dollars on MonkeyPay"])
        try #require(turns.count == 1)
        #expect(turns[0].code == "failure")
        #expect(turns[0].prompt == false)
        #expect(turns[0].speech == "You can't send 200 dollars: your Checking balance is only 100 dollars.")
        // Nothing was written: the ledger is still the app's starting one.
        let ledger = try? converse.read(group: "group.com.example.monkeypay", file: "ledger.json") as? [String: Any]
        #expect((ledger?["payments"] as? [Any])?.isEmpty ?? true)
    }

    @Test("a missing amount is asked for, then confirmed")
    func paymentAsksAmount() throws {
        let turns = try Converse().run(["Pay Bobo with MonkeyPay", "five dollars", "no"])
        #expect(turns[0].speech == "How much do you want to send to Bobo?")
        #expect(turns[1].speech == "Send 5 dollars to Bobo?")
        #expect(turns[2].code == "cancelled")
        // Typed, the amount may have cents and any size: the built-in type, typed only.
        let typed = try Converse().run(["Pay Bobo with MonkeyPay", "$12.50", "yes"])
        #expect(typed[1].speech == "Send 12.50 dollars to Bobo?")
        #expect(typed[2].code == "success" && typed[2].speech.contains("12.50"), "\(typed[2].speech)")
    }

    @Test("MonkeyPay is refused while the device is locked, and so is what an app restricts; the rest works")
    func locked() throws {
        let converse = try Converse()
        let turns = try converse.run(["Send Bobo twenty dollars with MonkeyPay", "MonkeyChat Bobo hello", "send it",
                                      "get me a ride to the zoo with MonkeyRide", "read my messages from Bobo on MonkeyChat"],
                                     extra: ["--locked"])
        #expect(turns[0].code == "refused")
        #expect(turns[0].speech == "You'll need to unlock your device first.")
        #expect(turns[1].code == "prompt" && turns[2].code == "success")
        #expect(turns[3].code == "refused")
        #expect(turns[4].intent == "INSearchForMessagesIntent")
        #expect(turns[4].code == "refused")
        // Unlocked, the same requests go ahead.
        let unlocked = try converse.run(["read my messages from Bobo on MonkeyChat"])
        #expect(unlocked.first?.code == "success")
    }

    // MARK: MonkeyRide and MonkeyFit

    @Test("a ride is confirmed before it is booked, then has a status, and can be cancelled")
    func ride() throws {
        let converse = try Converse()
        let turns = try converse.run([
            "Get me a Banana Car to the airport with MonkeyRide", "yes", "where is my MonkeyRide ride", "cancel my MonkeyRide ride", "yes",
        ])
        #expect(turns[0].intent == "INRequestRideIntent")
        #expect(turns[0].slots["dropOffLocation"] == "the airport")
        #expect(turns[0].speech == "A Banana Car costs 12 dollars and is 4 minutes away. Book a ride to the airport?")
        #expect(turns[1].code == "success")
        #expect(turns[2].intent == "INGetRideStatusIntent")
        #expect(turns[2].speech.contains("Banana Car to the airport"))
        #expect(turns[3].speech == "Cancel your ride?")
        #expect(turns[4].code == "success")
    }

    @Test("a Bananarific workout with a goal starts, pauses and ends")
    func workout() throws {
        let turns = try Converse().run([
            "Start a Bananarific workout for thirty minutes with MonkeyFit", "pause my workout in MonkeyFit", "end my workout in MonkeyFit",
            "pause my workout in MonkeyFit",
        ])
        #expect(turns[0].intent == "INStartWorkoutIntent")
        #expect(turns[0].slots["workoutName"] == "Bananarific")
        #expect(turns[0].speech == "Your Bananarific workout has started. Goal: 30 minutes.")
        #expect(turns[1].code == "success")
        #expect(turns[2].code == "success")
        #expect(turns[3].code == "failure")
        #expect(turns[3].speech == "You don't have a workout running.")
    }

    // MARK: Authorization

    @Test("an app the person revoked is refused with its usage description; authorizing it again shows that description")
    func authorization() throws {
        let converse = try Converse()
        let revoke = try runHark(["apps", "revoke", "MonkeyChat", "--apps", converse.apps.path, "--data-dir", converse.data.path])
        #expect(revoke.status == 0, "\(revoke.err)")
        let refused = try converse.run(["MonkeyChat Bobo please send more bananas"])
        #expect(refused.first?.code == "refused")
        #expect(refused.first?.speech.contains("MonkeyChat sends your messages to your fellow monkeys.") == true)
        #expect(refused.first?.speech.contains("hark apps authorize MonkeyChat") == true)
        let authorize = try runHark(["apps", "authorize", "monkeychat", "--apps", converse.apps.path, "--data-dir", converse.data.path])
        #expect(authorize.status == 0)
        #expect(authorize.out.contains("MonkeyChat sends your messages to your fellow monkeys."))
        #expect(try converse.run(["MonkeyChat Bobo please send more bananas", "send it"]).map(\.code) == ["prompt", "success"])
        let unknown = try runHark(["apps", "authorize", "Nope", "--apps", converse.apps.path, "--data-dir", converse.data.path])
        #expect(unknown.status != 0)
        #expect(unknown.err.contains("no installed app is called 'Nope'"))
    }
}

@Suite("hark domains")
struct DomainsCommandTests {
    @Test("lists every intent with its typed parameters; an unknown intent is a one-line error")
    func domains() throws {
        let all = try runHark(["domains"])
        #expect(all.status == 0)
        for name in ["INSendMessageIntent", "INGetVisualCodeIntent", "INSetTaskAttributeIntent", "INTransferMoneyIntent"] {
            #expect(all.out.contains("  \(name): "))
        }
        #expect(all.out.contains("recipients: INPerson — "))
        let bad = try runHark(["domains", "--intent", "INFlyIntent"])
        #expect(bad.status != 0)
        #expect(bad.err.contains("unknown intent 'INFlyIntent'"))
    }
}

@Suite("Shipped sample apps")
struct ShippedAppsTests {
    @Test("each sample app declares in Info.plist exactly the intents it has handlers for, and every one has a grammar")
    func declaredIntentsMatchHandlers() throws {
        let catalog = try Catalog.load(appsDirectory: Repo.models + "/apps", domainsDirectory: Repo.models + "/domains")
        let handlers = try SampleApps(dataDirectory: temporaryDirectory()).handlers
        let graph = try catalog.compile()
        for name in SampleApps.appNames {
            let app = try #require(catalog.apps.first { $0.name == name }, "\(name) is not in models/apps")
            let handled = Set(handlers.keys.filter { $0.app == name }.map(\.intent))
            #expect(Set(app.info.intentsSupported) == handled, "\(name): Info.plist IntentsSupported vs handlers")
            for intent in handled {
                #expect(Set(graph.finals.values).contains(IntentKey(app: name, intent: intent)), "\(name) \(intent) has no grammar")
            }
        }
    }
}
