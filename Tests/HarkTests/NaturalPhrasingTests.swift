import Foundation
@testable import Hark
import HarkAudio
import HarkBench
import HarkSampleApps
import Testing

/// The values each shipped example phrase must reach. Every example in a
/// sample app's `AppIntentVocabulary.plist` needs an entry here, so a new
/// example cannot ship unchecked.
private let exampleValues: [String: [String: String]] = [
    "In ListOMat show the grocery list": ["title": "Grocery"],
    "Show my grocery list in List-o-Mat": ["title": "Grocery"],
    "Add bananas to the grocery list in ListOMat": ["taskTitles": "bananas", "targetTaskList": "Grocery"],
    "Send a message to Bobo on MonkeyChat saying these were great bananas": ["recipients": "Bobo", "content": "these were great bananas"],
    "MonkeyChat Bobo these were great bananas": ["recipients": "Bobo", "content": "these were great bananas"],
    "Tell Bobo the Great with MonkeyChat that the bananas are ripe": ["recipients": "Bobo the Great", "content": "the bananas are ripe"],
    "Start a Bananarific in MonkeyFit": ["workoutName": "Bananarific"],
    "Start a vine swing with MonkeyFit": ["workoutName": "Vine Swing"],
    "End my workout in MonkeyFit": [:],
    "Send Bobo five bananas with MonkeyPay": ["payee": "Bobo", "currencyAmount": "five bananas"],
    "Pay Little Bobo ten dollars using UnicornPay": ["payee": "Little Bobo", "currencyAmount": "ten dollars"],
    "Request twenty dollars from Bobo Jr. on MonkeyPay": ["payer": "Bobo Jr.", "currencyAmount": "twenty dollars"],
    "Get me a ride to the river with MonkeyRide": ["dropOffLocation": "the river"],
    "Book a Monkey Pool to the zoo on MonkeyRide": ["dropOffLocation": "the zoo", "rideOptionName": "monkey-pool"],
    "Where is my MonkeyRide ride": [:],
    "Cancel my MonkeyRide ride": [:],
    "Create a note in MonkeyNotes saying buy more bananas": ["content": "buy more bananas"],
    "Add peel the bananas to my list in MonkeyTodo": ["taskTitles": "peel the bananas"],
]

/// Shipped examples whose synthesised rendering the recognizer mishears
/// today (espeak-ng's 150-words-a-minute voice is misheard in 5 of 18, with
/// the old grammars as with these). flite kal16's "Add peel the bananas to
/// my list in MonkeyTodo" is heard "add the all the bananas to my list in
/// monkey todo", its last words unlike the audio ("in" 0.06, "monkey"
/// 0.10, "todo" 0.01): since stop 87's heard tail after an app's name
/// "monkey" reads 0.09, one more word under the forced-reading floor, and
/// the reading is rejected as forced rather than taken with the task "the
/// all the bananas".
private let misheardSpoken: Set<String> = ["Add peel the bananas to my list in MonkeyTodo"]

/// The development sets `files` (in models/dev, at least `count` requests
/// in all), each read as a new typed request and scored.
private func typedReport(_ files: [String], atLeast count: Int) async throws -> TypedBench.Report {
    let requests = try files.flatMap { try TypedBench.load(Repo.models + "/dev/" + $0) }
    #expect(requests.count >= count)
    let assistant = try makeAssistant(recognizer: false)
    var readings: [TextReading] = []
    for request in requests { readings.append(await assistant.reading(of: request.text)) }
    return TypedBench.run(requests, readings: readings)
}

/// A batch's report meets its floors: at least `coverage` of its requests
/// read exactly right, at most `falseActions` of its sentences for nobody
/// acted on; the report's table is printed with any miss.
private func expectBatch(_ report: TypedBench.Report, coverage: Double, falseActions: Double = 0,
                         sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(report.coverage >= coverage, "coverage \(report.coverage)\n\(report.markdown)", sourceLocation: sourceLocation)
    #expect(report.falseActionRate <= falseActions, "false actions \(report.falseActionRate)\n\(report.markdown)",
            sourceLocation: sourceLocation)
}

/// (app, intent, example) for every example phrase the sample apps ship.
private func shippedExamples() throws -> [(app: String, intent: String, text: String)] {
    let catalog = try Catalog.load(appsDirectory: Repo.models + "/apps", domainsDirectory: Repo.models + "/domains")
    return catalog.apps.flatMap { app in
        (app.vocabulary?.intentPhrases ?? []).flatMap { phrase in
            phrase.examples.map { (app.name, phrase.intentName, $0) }
        }
    }
}

@Suite("Natural phrasings")
struct NaturalPhrasingTests {
    @Test("every example phrase the sample apps ship, typed, reaches its app, intent and values")
    func shippedExamplesTyped() async throws {
        let examples = try shippedExamples()
        #expect(examples.count >= 18)
        let assistant = try makeAssistant(recognizer: false)
        for example in examples {
            let values = try #require(exampleValues[example.text], "no expected values for the shipped example \"\(example.text)\"")
            let reading = await assistant.reading(of: example.text)
            guard case .understood(let app, let intent, let slots) = reading else {
                Issue.record("\"\(example.text)\": \(reading)")
                continue
            }
            #expect(app == example.app, "\"\(example.text)\"")
            #expect(intent == example.intent, "\"\(example.text)\"")
            for (name, value) in values {
                #expect(slots[name]?.lowercased() == value.lowercased(), "\"\(example.text)\": \(name) is \(slots[name] ?? "missing")")
            }
        }
    }

    @Test("every shipped example, typed as a whole turn, is handled by its app without a follow-up question about its values")
    func shippedExamplesHandled() async throws {
        for example in try shippedExamples() {
            let assistant = try makeAssistant(recognizer: false)
            let turn = await assistant.read(example.text)
            #expect(turn.app == example.app && turn.intent == example.intent, "\"\(example.text)\": \(turn.speech)")
            // A confirmation ("Ready to send it?") may follow; "doesn't have", "couldn't find" may not.
            #expect(!turn.speech.contains("doesn't have") && !turn.speech.contains("couldn't find") && !turn.speech.contains("isn't one of"),
                    "\"\(example.text)\": \(turn.speech)")
        }
    }

    @Test("every shipped example, spoken (flite's kal16 voice), is heard as its app and intent")
    func shippedExamplesSpoken() async throws {
        let folder = try temporaryDirectory()
        for (index, example) in try shippedExamples().enumerated() {
            // Each example is the first request on the apps' initial data, as the typed check reads it.
            let assistant = try makeAssistant()
            let wav = folder.appendingPathComponent("\(index).wav").path
            try run("/usr/bin/flite", ["-voice", "kal16", "-t", example.text, "-o", wav])
            let audio = try WAVReader.read(contentsOf: wav).audio.toRecognitionFormat()
            let turn = try await assistant.hear(audio.int16Samples())
            let check = {
                #expect(turn.app == example.app && turn.intent == example.intent,
                        "\"\(example.text)\" was heard as \"\(turn.heard)\" (\(turn.app ?? "no app") \(turn.intent ?? "no intent"))")
            }
            if misheardSpoken.contains(example.text) {
                // Known: when one of these starts being heard right, this fails and the list shrinks.
                withKnownIssue("flite's rendering of \"\(example.text)\" is misheard", check)
            } else {
                check()
            }
        }
    }

    @Test("the development set: most natural requests are read exactly right and sentences meant for nobody stay not understood")
    func developmentSet() async throws {
        let report = try await typedReport(["requests.jsonl", "requests-2.jsonl"], atLeast: 400)
        expectBatch(report, coverage: 0.9, falseActions: 0.05)
    }

    @Test("the third development batch (many voices: wordy, slangy, non-native): what is read stays read, and nothing is done for sentences meant for nobody")
    func thirdBatch() async throws {
        let report = try await typedReport(["requests-3.jsonl"], atLeast: 140)
        // 30.2% as written (2026-11-26); 43.7% with the polite openings and
        // the request found inside other words. Far from the other batches:
        // docs/measurements.md, "Natural requests, typed".
        // 78.2% with sentences split off and the phrasings of everydayVerbs (2026-11-27).
        // 2026-11-28: 89.7% ("I wonder if Bobo the Great got back to me",
        // "read out whatever Bobo Jr. sent me", "I won't need that MonkeyRide
        // after all", "tell me whether my MonkeyRide car is nearly here", ...).
        expectBatch(report, coverage: 0.88, falseActions: 0.05)
    }

    @Test("the fourth development batch (mostly sentences meant for nobody, near misses among them): none is acted on")
    func fourthBatch() async throws {
        let report = try await typedReport(["requests-4.jsonl"], atLeast: 170)
        // As written (2026-11-26): 64.2% of 53 requests read right, 1 of 120
        // sentences meant for nobody acted on ("I finished my run this
        // morning, ten kilometers" marked a task done).
        expectBatch(report, coverage: 0.6)
    }

    @Test("the fifth development batch: messages through apps that are not installed are not MonkeyChat messages; short messages opening the same way still are")
    func fifthBatch() async throws {
        let report = try await typedReport(["requests-5.jsonl"], atLeast: 30)
        // As written (2026-11-27): 9 of 15 sentences meant for another app
        // sent as MonkeyChat messages ("on messenger", "via signal"); with
        // the app named alone as where it goes, 2 ("over viber", "voice note
        // on telegram"), and the 15 messages read as before (14).
        expectBatch(report, coverage: 0.9, falseActions: 0.14)
    }

    @Test("the sixth batch (held out until measured): requests read right, and nothing meant for nobody is acted on")
    func sixthBatch() async throws {
        let report = try await typedReport(["requests-6.jsonl"], atLeast: 70)
        // As written (2026-11-27), never looked at before: 40 of 45 read
        // right (88.9%), 0 of 25 sentences for nobody acted on; its five
        // misses then had general forms added (appNamedAsPeopleDo): 45 of 45.
        expectBatch(report, coverage: 0.97)
    }

    @Test("the seventh batch (held out until measured): requests read right, and nothing meant for nobody is acted on")
    func seventhBatch() async throws {
        let report = try await typedReport(["requests-7.jsonl"], atLeast: 90)
        // As written (2026-11-28), never looked at before: 48 of 68 read
        // right (70.6%), 1 of 25 sentences for nobody acted on ("Note that
        // the monkey ate all the bananas", since moved to the requests: Siri
        // takes it as a note too). Its misses then had general forms added
        // ("kick off", "hold my run for a sec", "is my driver close", "we're
        // out of milk, add it to ...", "my ListOMat grocery list", ...).
        expectBatch(report, coverage: 0.95)
    }

    @Test("the eighth batch (held out until measured, after the seventh's changes): requests read right, nothing meant for nobody acted on")
    func eighthBatch() async throws {
        let report = try await typedReport(["requests-8.jsonl"], atLeast: 65)
        // As written (2026-11-28): 42 of 47 read right (89.4%), 0 of 20
        // sentences for nobody acted on ("We're out of luck", "Tell him I
        // said hi", "I'll pay you back next week"). Its five misses then had
        // general forms added ("show me what Little Bobo sent", "flag Bobo's
        // last message", "who did I miss a call from", "I need eggs on the
        // grocery list", "rate my last MonkeyRide").
        expectBatch(report, coverage: 0.97)
    }

    @Test("the ninth batch (held out until measured, after the eighth's changes): requests read right, nothing meant for nobody acted on")
    func ninthBatch() async throws {
        let report = try await typedReport(["requests-9.jsonl"], atLeast: 77)
        // As written (2026-11-28): 54 of 57 read right (94.7%), 0 of 20 for
        // nobody acted on. Of its misses, "the train station" was the label's
        // (the place list reads it "the station"); "get me started on a
        // Bananarific workout" and "rate my MonkeyRide driver four stars"
        // then had general forms added.
        expectBatch(report, coverage: 0.98)
    }

    @Test("the tenth batch, messier on purpose (held out until measured): requests read right, nothing meant for nobody acted on")
    func tenthBatch() async throws {
        let report = try await typedReport(["requests-10.jsonl"], atLeast: 62)
        // As written (2026-11-28): 29 of 42 read right (69.0%), 0 of 20 acted
        // on. Its misses' general forms: "send Bobo a MonkeyChat real quick
        // saying ...", "anything new from Bobo", "get Bobo Jr. on a video
        // call", "who tried to call me", "I'm gonna go for a swim now", "keep
        // going", "I'm all done with my run", "show the cashier my code",
        // "MonkeyRide to downtown", "never mind the ride", "five stars for my
        // driver", "add ... to MonkeyTodo", "ListOMat new list ...".
        expectBatch(report, coverage: 0.97)
    }

    @Test("the eleventh batch, terse and roundabout (held out until measured): requests read right, nothing meant for nobody acted on")
    func eleventhBatch() async throws {
        let report = try await typedReport(["requests-11.jsonl"], atLeast: 62)
        // As written (2026-11-28): 33 of 42 read right (78.6%), 0 of 20 acted
        // on. Its misses' general forms: "read Zuzu's messages" (a typed
        // name with the possessive), "flag the message from Little Bobo"
        // (the verb is the attribute: message-verbs.hark), "missed calls on
        // MonkeyChat?", "Bobo the Great still owes me 20 dollars, request
        // it", "MonkeyRide, the airport please", "give my last MonkeyRide two
        // stars", "put renew passport on my MonkeyTodo list", "does my
        // hardware store list have anything on it". "Grocery list in
        // ListOMat: add coffee" stays a miss: heard, free text at the end of
        // that form took an out-of-grammar clip for a task.
        expectBatch(report, coverage: 0.97)
    }

    @Test("the twelfth batch (held out until measured): requests read right, nothing meant for nobody acted on")
    func twelfthBatch() async throws {
        let report = try await typedReport(["requests-12.jsonl"], atLeast: 80)
        // As written (2026-11-28): 45 of 55 read right (81.8%), 1 of 25 for
        // nobody acted on ("Kiki owes me like thirty bucks").
        expectBatch(report, coverage: 0.92)
    }

    @Test("the thirteenth batch (held out until measured): requests read right, nothing meant for nobody acted on")
    func thirteenthBatch() async throws {
        let report = try await typedReport(["requests-13.jsonl"], atLeast: 85)
        // As written (2026-11-28, labels corrected for form only): 44 of 60
        // read right (73.3%), 1 of 25 for nobody acted on ("take a note in
        // Evernote, buy stamps"). Its misses' general forms: hesitations
        // around a message, "..., send it with MonkeyChat", "check
        // MonkeyChat for missed calls", "it's for lunch", "out of my
        // savings", "there's 4 of us", "how much would it be to get from
        // home to the mall", "tip him 3 dollars", "jot this down", "for
        // Saturday morning".
        expectBatch(report, coverage: 0.9)
    }

    @Test("the fourteenth batch (held out until measured): requests read right, nothing meant for nobody acted on")
    func fourteenthBatch() async throws {
        let report = try await typedReport(["requests-14.jsonl"], atLeast: 85)
        // As written (2026-12-01, labels corrected for form only): 37 of 60
        // read right (61.7%), 0 of 25 for nobody acted on.
        expectBatch(report, coverage: 0.85)
    }

    @Test("the fifteenth batch (held out until measured): requests read right, nothing meant for nobody acted on")
    func fifteenthBatch() async throws {
        let report = try await typedReport(["requests-15.jsonl"], atLeast: 85)
        // As written (2026-12-01, labels corrected for form only): 43 of 60
        // read right (71.7%), 1 of 25 for nobody acted on ("remind me to,
        // no wait, never mind" asked "Which app?").
        expectBatch(report, coverage: 0.9)
    }

    @Test("the fifteenth batch's forms: the app's name as a payment's verb keeps what it is for, a ride that picks up and takes, a time from now first, a note named that no list has")
    func fifteenthBatchForms() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            // The note was dropped: the typed request was read without its last words.
            ("UnicornPay Bobo Jr. twenty bucks for the pizza", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo Jr.", "currencyAmount": "twenty bucks", "note": "the pizza"]),
            // The drop-off was "pick me up at the Grand Hotel and take me to the opera house".
            ("can MonkeyRide send a Jungle Limo to pick me up at the Grand Hotel and take me to the opera house", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "jungle-limo", "pickupLocation": "the Grand Hotel", "dropOffLocation": "the Opera House"]),
            ("MonkeyTodo, in two hours remind me to take the chicken out of the freezer", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "take the chicken out of the freezer", "temporalEventTrigger": "two hours"]),
            // A task "bring sunscreen to my Beach Trip note" before.
            ("add bring sunscreen to my Beach Trip note in TasksNotes", "TasksNotes", "INAppendToNoteIntent",
             ["content": "bring sunscreen", "targetNote": "Beach Trip"]),
            ("okay so in MonkeyNotes can you add to my Recipes note that the oven goes to 180", "TasksNotes", "INAppendToNoteIntent",
             ["targetNote": "Recipes", "content": "the oven goes to 180"]),
            ("flag the messages from Bobo Jr. in MonkeyChat", "MonkeyChat", "INSetMessageAttributeIntent",
             ["attribute": "flagged", "sender": "Bobo Jr."]),
            ("did Bobo the Great try to call me? check MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent", ["recipient": "Bobo the Great"]),
            ("I wanna do some swinging, can MonkeyFit track that", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Vine Swing"]),
        ], by: assistant)
        // Free text that only takes the request back is no request; a message saying it is one.
        #expect(await assistant.reading(of: "remind me to, no wait, never mind") == .notUnderstood)
        #expect(await assistant.reading(of: "tell Bobo on MonkeyChat never mind")
                == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo", "content": "never mind"]))
        // A typed request is no longer read without words that open a value
        // of its own ("for the pizza"); "for me" may still be left out.
        #expect(Assistant.opensAValue(["for", "the", "pizza"]) && Assistant.opensAValue(["that", "the", "oven", "is", "hot"]))
        #expect(!Assistant.opensAValue(["for", "me"]) && !Assistant.opensAValue(["dear"]))
        #expect(await assistant.reading(of: "could MonkeyChat video call Bobo the Great for me")
                == .understood(app: "MonkeyChat", intent: "INStartVideoCallIntent", slots: ["contacts": "Bobo the Great"]))
    }

    @Test("the sixteenth development batch, written from the plists alone, reads as well as the fifteenth did once its forms were in")
    func sixteenthBatch() async throws {
        let report = try await typedReport(["requests-16.jsonl"], atLeast: 70)
        // As written (2026-12-02, labels corrected for form only): 32 of 60
        // read right (53.3%), none of the 25 for nobody acted on.
        expectBatch(report, coverage: 0.7)
    }

    @Test("the sixteenth batch's forms: a message with no verb, 'ring … for me', 'what are my unread ones', 'flag everything from', a ride 'going to', the app's name alone at the end of a typed request")
    func sixteenthBatchForms() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("message to Bobo please, saying the party moved to Saturday", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "the party moved to Saturday"]),
            ("um what are my unread ones in MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", ["attributes": "unread"]),
            ("in MonkeyChat flag everything from Little Bobo would you", "MonkeyChat", "INSetMessageAttributeIntent",
             ["attribute": "flagged", "sender": "Little Bobo"]),
            ("ring Bobo for me on MonkeyChat", "MonkeyChat", "INStartAudioCallIntent", ["contacts": "Bobo"]),
            ("uh what do I have left on UnicornPay", "MonkeyPay", "INSearchForAccountsIntent", [:]),
            ("need a Monkey Pool for three people going to the beach", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "monkey-pool", "partySize": "3", "dropOffLocation": "the beach"]),
            // Only the app's name after a place on no list: it says where the request goes.
            ("can I get a Jungle Limo from the hotel to the concert hall, MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "jungle-limo", "pickupLocation": "the hotel", "dropOffLocation": "the Concert Hall"]),
            ("start Bananarific indoors please MonkeyFit", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Bananarific", "workoutLocationType": "indoor"]),
            ("in TasksNotes stick eggs and milk at the end of the shopping note", "TasksNotes", "INAppendToNoteIntent",
             ["content": "eggs and milk", "targetNote": "Shopping"]),
            ("can you read me my grocery list", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "Grocery", "itemType": "taskList"]),
        ], by: assistant)
        // Only the app's name (with "please") cut after a run names the app;
        // not after a word that would carry it: no message saying "on".
        #expect(Assistant.onlyNames(["please", "monkey", "fit"], of: [["monkey", "fit"]]))
        #expect(!Assistant.onlyNames(["monkey", "fit", "later"], of: [["monkey", "fit"]]))
        #expect(await assistant.reading(of: "okay tell Bobo on MonkeyChat") == .notUnderstood)
    }

    @Test("the seventeenth development batch (terse, questions, chatty; written from the plists alone)")
    func seventeenthBatch() async throws {
        let report = try await typedReport(["requests-17.jsonl"], atLeast: 70)
        // As written (2026-12-02, labels corrected for form only): 21 of 60
        // read right (35.0%), 2 of 25 for nobody acted on (a payment and a
        // workout the person took back).
        expectBatch(report, coverage: 0.7)
    }

    @Test("the seventeenth batch's forms: terse requests, a request beside a clause and wrapped in words, a task's words that name a list, and a request corrected or taken back")
    func seventeenthBatchForms() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("MonkeyChat unread", "MonkeyChat", "INSearchForMessagesIntent", ["attributes": "unread"]),
            ("MonkeyPay balance", "MonkeyPay", "INSearchForAccountsIntent", [:]),
            ("MonkeyRide, Monkey Pool, downtown", "MonkeyRide", "INRequestRideIntent", ["rideOptionName": "monkey-pool", "dropOffLocation": "downtown"]),
            ("MonkeyFit done", "MonkeyFit", "INEndWorkoutIntent", [:]),
            ("I've read all of those already, mark the ones from Little Bobo as read in MonkeyChat", "MonkeyChat", "INSetMessageAttributeIntent",
             ["attribute": "read", "sender": "Little Bobo"]),
            ("can you flag Bobo the Great's messages on MonkeyChat so I don't forget them?", "MonkeyChat", "INSetMessageAttributeIntent",
             ["attribute": "flagged", "sender": "Bobo the Great"]),
            ("can I do a video call with Little Bobo through MonkeyChat?", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Little Bobo"]),
            ("who did I miss on MonkeyChat today, I had my phone on silent all morning", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "missed"]),
            // A clause beside a request wrapped in words of its own.
            ("I'm at the till, pull up my MonkeyPay code so they can scan it", "MonkeyPay", "INGetVisualCodeIntent", [:]),
            ("OK I've got my shoes on, let's do a Bananarific, MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Bananarific"]),
            ("it's freezing out here, is my MonkeyRide car anywhere close yet", "MonkeyRide", "INGetRideStatusIntent", [:]),
            // Before, the note's words were "a note called gift ideas that says …".
            ("could you jot down in MonkeyNotes a note called gift ideas that says Bobo wants a hammock", "TasksNotes", "INCreateNoteIntent",
             ["title": "gift ideas", "content": "Bobo wants a hammock"]),
            // Before, tasks "paint the fence to my weekend note" and "bread to grocery list" on the default list.
            ("add paint the fence to my weekend note TasksNotes", "TasksNotes", "INAppendToNoteIntent", ["content": "paint the fence", "targetNote": "Weekend"]),
            ("we're out of bread, add bread to grocery list ListOMat", "ListOMat", "INAddTasksIntent", ["taskTitles": "bread", "targetTaskList": "Grocery"]),
            // A request taken back first is still one; "I mean" inside a message is its words.
            ("never mind, cancel the MonkeyRide, Bobo's giving me a lift", "MonkeyRide", "INCancelRideIntent", [:]),
            ("tell Bobo on MonkeyChat I mean it", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "I mean it"]),
        ], by: assistant)
        // Taken back. (Corrected, the correction is taken: SelfCorrectionTests.)
        await expectNotUnderstood(["send Bobo twenty dollars on MonkeyPay, no wait, forget it, I'll give him cash",
                                   "start a run in MonkeyFit, actually no, my knee still hurts, never mind"], by: assistant)
        #expect(Assistant.endsNamingAContainer(["bread", "to", "grocery", "list"]))
        #expect(Assistant.endsNamingAContainer(["paint", "the", "fence", "to", "my", "weekend", "note"]))
        #expect(!Assistant.endsNamingAContainer(["write", "a", "to", "do", "list"]) && !Assistant.endsNamingAContainer(["make", "a", "list"]))
    }

    @Test("a task that opens with a question word is a question for the person's memory, not a task; one that asks further on is a task")
    func questionIsNoTask() async throws {
        let assistant = try makeAssistant()
        // As the recognizer hears "Remind me why we bought this speaker
        // again": "to" put in; "Which app?" for a task before.
        await expectNotUnderstood(["remind me to why we bought this speaker again", "remind me at ten to why we're doing this",
                                   "remind me to who you are in TasksNotes", "add what to my grocery list in ListOMat"], by: assistant)
        #expect(await assistant.reading(of: "remind me to check why the sink leaks in TasksNotes")
                == .understood(app: "TasksNotes", intent: "INAddTasksIntent",
                               slots: ["taskTitles": "check why the sink leaks"]))
        #expect(Assistant.opensWithAQuestion(["why", "we", "bought", "this"]) && !Assistant.opensWithAQuestion(["water", "the", "plants"]))
    }

    @Test("the eighteenth batch, written in other styles (chat shorthand, spoken with fillers, polite), reads at least 85% exactly and acts on no sentence for nobody")
    func eighteenthBatch() async throws {
        let report = try await typedReport(["requests-18.jsonl"], atLeast: 85)
        // As written (2026-12-02, before this stop's amounts and shorthand;
        // labels corrected for form only): 38 of 60 read right (63.3%; 41,
        // 68.3%, with "$45" and "forty five dollars" compared as the same
        // amount), 0 of 25 for nobody acted on.
        expectBatch(report, coverage: 0.85)
    }

    @Test("the eighteenth batch's forms: chat shorthand, a place said with a restart, 'asap', 'tell him' opening a message, typed amounts")
    func eighteenthBatchForms() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            // Shorthand reads as the words; a message keeps what was typed.
            ("msg bobo on monkeychat tell him im at the gate", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "im at the gate"]),
            ("any msgs from bobo the great on monkeychat", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Bobo the Great"]),
            ("whats my savings balance monkeypay", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Savings"]),
            ("what rides r there to the mall on monkeyride", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the mall"]),
            // Before, places "the Airport Asap" and "The, Um, the Opera House".
            ("need a ride to the airport asap monkeyride", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the airport"]),
            ("Get me a Jungle Limo to the, um, the opera house with MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "jungle-limo", "dropOffLocation": "the Opera House"]),
            ("Would you tell me how far away my driver is on MonkeyRide, please?", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("Would you please move $250.75 from checking to savings in MonkeyPay?", "MonkeyPay", "INTransferMoneyIntent",
             ["fromAccount": "Checking", "toAccount": "Savings", "transactionAmount": "250.75 USD"]),
        ], by: assistant)
        #expect(Assistant.withoutRestarts("the, um, the opera house") == "the opera house")
        #expect(Assistant.withoutRestarts("Bora Bora") == "Bora Bora" && Assistant.withoutRestarts("uh") == "uh")
        // A tip after a "+" is cut off: not read, rather than a rating without its tip.
        #expect(await assistant.reading(of: "rate my monkeyride 4 stars + $3 tip") == .notUnderstood)
    }

    @Test("the nineteenth batch, written in other styles (context first, terse fragments, questions), reads at least 66% exactly and acts on no sentence for nobody")
    func nineteenthBatch() async throws {
        let report = try await typedReport(["requests-19.jsonl"], atLeast: 85)
        // As written (2026-12-02, before any change for it): 28 of 60 read
        // right (46.7%), 42 the right app and intent (70.0%), 2 of 25 for
        // nobody acted on (both taken back in a later clause). Labels then
        // put in the form the other batches use ("grocery list" → "Grocery",
        // "shopping note" → "shopping"): 38 of 60 (63.3%).
        expectBatch(report, coverage: 0.66)
    }

    @Test("the nineteenth batch's forms: a request taken back in a later clause, 'what kind of rides can MonkeyRide get me', 'has Bobo sent me anything', missed calls from someone, 'letting Bobo know'")
    func nineteenthBatchForms() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            // Before, a ride booked in answer to a question about the kinds of ride.
            ("What kind of rides can MonkeyRide get me from the office to the stadium?", "MonkeyRide", "INListRideOptionsIntent",
             ["dropOffLocation": "the stadium", "pickupLocation": "work"]),
            ("what rides can MonkeyRide get me to the airport", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the airport"]),
            ("Has Little Bobo sent me anything on MonkeyChat?", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Little Bobo"]),
            // Before, all missed calls, not Bobo's.
            ("Did I miss any calls from Bobo on MonkeyChat?", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "missed", "recipient": "Bobo"]),
            ("Would you mind letting Bobo know on MonkeyChat that the bananas are in the fridge?", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "the bananas are in the fridge"]),
            // A take-back before the request, or words that only sound like one, leave it a request.
            ("never mind, cancel my ride on MonkeyRide", "MonkeyRide", "INCancelRideIntent", [:]),
            ("Send Bobo 5 dollars on MonkeyPay, no rush", "MonkeyPay", "INSendPaymentIntent", ["payee": "Bobo", "currencyAmount": "five dollars"]),
            ("Text Bobo on MonkeyChat saying no, not today", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "no, not today"]),
        ], by: assistant)
        // Taken back after it: no ride, no workout.
        await expectNotUnderstood(["Book a Banana Car to the river on MonkeyRide... wait, never mind, I'll walk",
                                   "Start a Coconut Crunch in MonkeyFit, hmm, no, not today",
                                   "Get me a ride to the airport with MonkeyRide, actually, forget it"], by: assistant)
    }

    @Test("the twentieth batch (regional English, numbers and times said every way, afterthoughts): coverage and no false actions")
    func twentiethBatch() async throws {
        let report = try await typedReport(["requests-20.jsonl"], atLeast: 85)
        // As written (2026-12-02, before any change for it): 31 of 60 read
        // right (51.7%), 40 the right app and intent (66.7%), 1 of 25 for
        // nobody acted on ("…, hang on, scrap that, I'll drive myself").
        // Labels then put in the other batches' form (List-o-Mat's
        // "shopping list" is its Grocery list, "the braai" as said, no
        // item type where the list's own name says "list"): 33 of 60 (55.0%).
        expectBatch(report, coverage: 0.9)
    }

    @Test("the twentieth batch's forms: times, dates, amounts and goals said every way, a bare app name last, afterthoughts, dialect")
    func twentiethBatchForms() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            // Times and dates read whole (typed): the task's words end before them.
            ("Remind me to ring the vet at half past six with MonkeyTodo", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "ring the vet", "temporalEventTrigger": "half past six"]),
            ("In TasksNotes remind me the day after tomorrow to renew my passport", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "renew my passport", "temporalEventTrigger": "the day after tomorrow"]),
            ("Using MonkeyTodo, remind me next Tuesday evening to put the bins out", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "put the bins out", "temporalEventTrigger": "next tuesday evening"]),
            // Round sums, tips and goals.
            ("Move a grand from checking to savings in MonkeyPay", "MonkeyPay", "INTransferMoneyIntent",
             ["transactionAmount": "1000 USD", "fromAccount": "Checking", "toAccount": "Savings"]),
            ("Send Little Bobo a couple of bucks with UnicornPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "2 USD"]),
            ("On MonkeyRide, three stars for that ride and tip him a fiver", "MonkeyRide", "INSendRideFeedbackIntent",
             ["rating": "3", "tip": "5 USD"]),
            ("In MonkeyFit, do a Bananarific for three quarters of an hour", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Bananarific", "goal": "three quarters of an hour"]),
            ("Start an outdoor run of five k with MonkeyFit", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Run", "workoutLocationType": "outdoor", "goal": "five k"]),
            ("MonkeyFit Bananarific 30 minutes", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Bananarific", "goal": "thirty minutes"]),
            // The app's bare name last, typed.
            ("call Bobo MonkeyChat", "MonkeyChat", "INStartAudioCallIntent", ["contacts": "Bobo"]),
            // A remark or a reason after the request is not its free text.
            ("Pay Little Bobo 40 bucks on MonkeyPay for the groceries, I promised him yesterday", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "forty bucks", "note": "the groceries"]),
            ("What rides does MonkeyRide have to the airport, I've got a flight at nine", "MonkeyRide", "INListRideOptionsIntent",
             ["dropOffLocation": "the airport"]),
            ("Create a note called gate code in MonkeyNotes saying four seven one nine, just so I don't lose it", "TasksNotes",
             "INCreateNoteIntent", ["title": "gate code", "content": "four seven one nine"]),
            // ... but a message's second clause is the message's, and a note keeps what is no reason.
            ("Tell Bobo on MonkeyChat I'm running late, I'll be there soon", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I'm running late, I'll be there soon"]),
            ("create a note saying buy milk, I need it for the cake in MonkeyNotes", "TasksNotes", "INCreateNoteIntent",
             ["content": "buy milk, I need it for the cake"]),
            // Regional English and a politer verb form.
            ("Cancel me lift on MonkeyRide, I'm after getting a lift off me brother", "MonkeyRide", "INCancelRideIntent", [:]),
            ("Carry on with me workout there on MonkeyFit", "MonkeyFit", "INResumeWorkoutIntent", [:]),
            ("MonkeyChat, kindly put me through to Bobo the Great on video", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Bobo the Great"]),
            ("Where has my MonkeyRide driver reached?", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("MonkeyRide, please arrange one taxi for me to the railway station", "MonkeyRide", "INRequestRideIntent",
             ["dropOffLocation": "the Railway Station"]),
            ("Get a Monkey Pool for the four of us to the stadium with MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "monkey-pool", "partySize": "4", "dropOffLocation": "the stadium"]),
            ("Would you mind sending Little Bobo five dollars with UnicornPay?", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "five dollars"]),
        ], by: assistant)
        // Taken back: "scrap that".
        #expect(await assistant.reading(of: "Book a ride to the airport with MonkeyRide... hang on, scrap that, I'll drive myself") == .notUnderstood)
        // Plainer forms are tried only when the words as written read as nothing.
        #expect(Assistant.plainForms(of: "Cancel me lift on MonkeyRide") == ["Cancel my lift on MonkeyRide"])
        #expect(Assistant.plainForms(of: "send me a ride, would you mind getting it") == [
            "send me a ride, would you mind gett it", "send me a ride, would you mind gette it", "send me a ride, would you mind get it"])
        #expect(Assistant.plainForms(of: "get me home there on MonkeyRide") == ["get me home on MonkeyRide"])
        #expect(Assistant.plainForms(of: "tell me about it").isEmpty)
    }

    @Test("the twenty-first batch (slang, formal, other assistants' habits): coverage and no false actions")
    func twentyFirstBatch() async throws {
        let report = try await typedReport(["requests-21.jsonl"], atLeast: 85)
        // As written (2026-12-02, after the twentieth batch's changes, before
        // any for it): 35 of 60 read right (58.3%), 38 the right app and
        // intent (63.3%), 0 of 25 for nobody acted on.
        expectBatch(report, coverage: 0.81)
    }

    @Test("the twenty-first batch's forms: formal openings, 'by way of', chat fillers, 'saying that', 'pull up', 'all of the messages'")
    func twentyFirstBatchForms() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("I would be obliged if you would commence a Coconut Crunch workout of twenty minutes in MonkeyFit.", "MonkeyFit",
             "INStartWorkoutIntent", ["workoutName": "Coconut Crunch", "goal": "twenty minutes"]),
            ("Pray resume my exercise session in MonkeyFit", "MonkeyFit", "INResumeWorkoutIntent", [:]),
            ("In MonkeyNotes, I should like to append two pints of milk to my shopping note.", "TasksNotes", "INAppendToNoteIntent",
             ["content": "two pints of milk", "targetNote": "Shopping"]),
            ("Would you be so kind as to send a message to Bobo the Great by way of MonkeyChat, saying that I shall arrive at half past four.",
             "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo the Great", "content": "I shall arrive at half past four"]),
            ("yo monkeyride get me to the mall rn", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the mall"]),
            ("Kindly mark all of the messages from Little Bobo as read in MonkeyChat.", "MonkeyChat", "INSetMessageAttributeIntent",
             ["attribute": "read", "sender": "Little Bobo"]),
            ("ngl can u pull up my unread msgs on monkeychat rn", "MonkeyChat", "INSearchForMessagesIntent", ["attributes": "unread"]),
            ("Hey Siri, tell MonkeyFit I'm finished with my workout", "MonkeyFit", "INEndWorkoutIntent", [:]),
            // Before, an audio call: the words the video call lacked were cut, "video" with them.
            ("lemme video call Little Bobo real quick on MonkeyChat", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Little Bobo"]),
        ], by: assistant)
    }

    @Test("the twenty-second batch (in a hurry, chatty, non-native English; written from the plists alone): none for nobody acted on")
    func twentySecondBatch() async throws {
        let report = try await typedReport(["requests-22.jsonl"], atLeast: 85)
        // As written (2026-12-03, before any change for it): 21 of 60 read
        // right (35.0%), 26 the right app and intent (43.3%), 2 of 25 for
        // nobody acted on or asked "Which app?" ("send Bobo a WhatsApp
        // saying I'm outside", "remind me to, no, nothing, forget I said
        // anything").
        expectBatch(report, coverage: 0.36)
    }

    @Test("the twenty-third batch (hands busy, an older polite speaker, values first; written from the plists alone): none for nobody acted on")
    func twentyThirdBatch() async throws {
        let report = try await typedReport(["requests-23.jsonl"], atLeast: 85)
        // As written (2026-12-03, before any change for it): 20 of 60 read
        // right (33.3%), 32 the right app and intent (53.3%), 2 of 25 for
        // nobody acted on or asked "Which app?" ("send Bobo the Great fifty
        // bucks on Venmo", "remind me to, actually forget it, I'll remember").
        expectBatch(report, coverage: 0.45)
    }

    @Test("the twenty-fourth batch (everyday speech; written from the plists alone): every request read right, none for nobody acted on")
    func twentyFourthBatch() async throws {
        let report = try await typedReport(["requests-24.jsonl"], atLeast: 85)
        // As written (2026-12-04, before any change for it): 54 of 60 read
        // right (90.0%), 1 of 25 for nobody acted on ("Text Little Bobo that
        // I'm running late, actually never mind").
        expectBatch(report, coverage: 0.98)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("facetime Little Bobo on MonkeyChat", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Little Bobo"]),
            ("What are my options on MonkeyRide to get downtown?", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "downtown"]),
            ("What are my ride options to get to the airport", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the airport"]),
            ("Jot down a note in MonkeyNotes the wifi password is banana123", "TasksNotes", "INCreateNoteIntent",
             ["content": "the wifi password is banana123"]),
        ], by: assistant)
        // A call naming no app is the phone's.
        #expect(await assistant.reading(of: "Call Bobo the Great") == .notUnderstood)
    }

    @Test("the twenty-fifth batch (wishes, needs and questions; written from the plists alone): none for nobody acted on")
    func twentyFifthBatch() async throws {
        let report = try await typedReport(["requests-25.jsonl"], atLeast: 85)
        // As written (2026-12-05, before any change for it): 51 of 60 read
        // right (85.0%), 53 the right app and intent (88.3%), 0 of 25 for
        // nobody acted on. Two read a place as the app's own name for it
        // ("the train station" as the station, "the office" as work), as
        // the labelling guide has labelled them since stop 77.
        expectBatch(report, coverage: 0.96)
        let assistant = try makeAssistant(recognizer: false)
        // The same ways of asking, in sentences not in the batch.
        await expectReadings([
            ("show me the calls I've made on MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "outgoing"]),
            ("When will the driver get here on MonkeyRide", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("set a reminder in MonkeyTodo to call mom tomorrow at 5 pm", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "call mom", "temporalEventTrigger": "tomorrow five p m"]),
            ("I'd like a Jungle Limo to the airport with MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "jungle-limo", "dropOffLocation": "the airport"]),
            ("I want to do 20 minutes of bananarific with MonkeyFit", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Bananarific", "goal": "twenty minutes"]),
            ("look up the note called gift ideas in MonkeyNotes", "TasksNotes", "INSearchForNotebookItemsIntent",
             ["itemType": "note", "title": "Gift Ideas"]),
        ], by: assistant)
        // Another app's driver, or a reminder with nothing to remind of, is no request.
        #expect(await assistant.reading(of: "When is my Uber driver getting here?") == .notUnderstood)
        #expect(await assistant.reading(of: "I need a reminder") == .notUnderstood)
    }

    @Test("the twenty-sixth batch (self-corrections, contracted casual speech, everything at once; written by a helper from the plists alone): none for nobody acted on")
    func twentySixthBatch() async throws {
        let report = try await typedReport(["requests-26.jsonl"], atLeast: 85)
        // As written (2026-12-05, before any change for it): 42 of 60 read
        // right (70.0%), 48 the right app and intent (80.0%), 1 of 25 for
        // nobody acted on ("Who put all these bananas on the grocery list
        // in List-o-Mat?", a task "all these bananas").
        expectBatch(report, coverage: 0.9)
        let assistant = try makeAssistant(recognizer: false)
        // The same ways of asking, in sentences not in the batch.
        await expectReadings([
            ("gimme my missed calls on MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "missed"]),
            ("gimme my read messages from Bobo on MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", ["attributes": "read", "senders": "Bobo"]),
            ("gimme a Banana Car to the airport with MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "banana-car", "dropOffLocation": "the airport"]),
            ("give me my packing list from TasksNotes", "TasksNotes", "INSearchForNotebookItemsIntent", ["title": "Packing", "itemType": "taskList"]),
            ("start a Vine Swing with a goal of 30 minutes in MonkeyFit", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Vine Swing", "goal": "thirty minutes"]),
            ("what rides can I get to the zoo right now on MonkeyRide", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the zoo"]),
            ("Pay Bobo, sorry, Little Bobo ten dollars on MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "ten dollars"]),
        ], by: assistant)
        // Asking who did it, or why, is no request to do it; "why don't you" is.
        #expect(await assistant.reading(of: "Who added milk to the grocery list on ListOMat?") == .notUnderstood)
        #expect(await assistant.reading(of: "Why add bananas to the grocery list in ListOMat") == .notUnderstood)
        #expect(await assistant.reading(of: "Who put bananas on the grocery list in ListOMat") == .notUnderstood)
        #expect(await assistant.reading(of: "Why don't you add bananas to the grocery list in ListOMat") != .notUnderstood)
    }

    @Test("the twenty-seventh batch (regional Englishes, everyday amounts and times, the app addressed with thanks; written by a helper from the plists alone): none for nobody acted on")
    func twentySeventhBatch() async throws {
        let report = try await typedReport(["requests-27.jsonl"], atLeast: 85)
        // As written (2026-12-05, before any change for it): 36 of 60 read
        // right (60.0%), 45 the right app and intent (75.0%), 0 of 25 for
        // nobody acted on.
        expectBatch(report, coverage: 0.93)
        let assistant = try makeAssistant(recognizer: false)
        // The same ways of asking, in sentences not in the batch.
        await expectReadings([
            ("ditch my MonkeyRide ride", "MonkeyRide", "INCancelRideIntent", [:]),
            ("have a go at a Vine Swing on MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Vine Swing"]),
            ("pop a note in TasksNotes saying the plumber comes at ten", "TasksNotes", "INCreateNoteIntent",
             ["content": "the plumber comes at ten"]),
            ("How far off is the driver on MonkeyRide", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("tip the driver five dollars and give him four stars on MonkeyRide", "MonkeyRide", "INSendRideFeedbackIntent",
             ["tip": "five dollars", "rating": "4"]),
            ("get MonkeyRide to take me to the airport", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the airport"]),
            ("MonkeyChat, video Little Bobo", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Little Bobo"]),
            ("what've I got on my grocery list in ListOMat", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "grocery"]),
            ("have a quick look for missed calls on MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "missed"]),
            ("sort Bobo out with twenty dollars on MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo", "currencyAmount": "twenty dollars"]),
            ("remind me to call the bank first thing on Monday in TasksNotes", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "call the bank", "temporalEventTrigger": "first thing monday"]),
            ("Remind me to pick up the dry cleaning this afternoon in TasksNotes", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "pick up the dry cleaning", "temporalEventTrigger": "afternoon"]),
        ], by: assistant)
        // Courtesy after a request is no part of it: what comes before is the request.
        let note = await assistant.read("add batteries to my packing note in MonkeyNotes, cheers mate")
        #expect(note.intent == "INAppendToNoteIntent" && note.slots["content"] == "batteries", "\(note.intent ?? "nil") \(note.slots)")
        // A reminder this afternoon is today's, at 3 pm when no time is said.
        let later = await assistant.read("remind me to water the plants this arvo in TasksNotes")
        #expect(later.intent == "INAddTasksIntent" && later.speech.contains("today at 3 pm"), "\(later.speech)")
    }

    @Test("the twenty-eighth batch (young texting-style speech, the context before the request, \"make sure\" and \"don't let me forget\"; written by a helper from the plists alone): none for nobody acted on")
    func twentyEighthBatch() async throws {
        let report = try await typedReport(["requests-28.jsonl"], atLeast: 85)
        // As written (2026-12-05, before any change for it): 50 of 60 read
        // right (83.3%), 50 the right app and intent, 1 of 25 for nobody
        // acted on (a message "I'm outside, oh never mind, he just saw me").
        expectBatch(report, coverage: 0.95)
        let assistant = try makeAssistant(recognizer: false)
        // The same ways of asking, in sentences not in the batch.
        await expectReadings([
            ("is my MonkeyRide driver on his way", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("what rides can MonkeyRide get us to the airport", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the airport"]),
            ("I just want to know what's in my checking on MonkeyPay", "MonkeyPay", "INSearchForAccountsIntent",
             ["accountNickname": "Checking"]),
            ("don't let me forget to renew my passport in TasksNotes", "TasksNotes", "INAddTasksIntent", ["taskTitles": "renew my passport"]),
            ("remind me to buy stamps tomorrow, add it to TasksNotes", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "buy stamps", "temporalEventTrigger": "tomorrow"]),
            ("make sure milk is on the grocery list in ListOMat", "ListOMat", "INAddTasksIntent", ["taskTitles": "milk", "targetTaskList": "Grocery"]),
            ("make sure Bobo gets the message on MonkeyChat: dinner is at eight", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "dinner is at eight"]),
            ("make sure Little Bobo gets his twenty dollars for the tickets on MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "twenty dollars", "note": "the tickets"]),
            // An app named as one word opens a sentence after a full stop,
            // as written, however long the sentence before it.
            ("My battery is about to die and I'm stuck on the train again. MonkeyChat Bobo I'm late", "MonkeyChat",
             "INSendMessageIntent", ["recipients": "Bobo", "content": "I'm late"]),
        ], by: assistant)
        let split = await assistant.splittingAppNames("stuck. MonkeyChat, hi (ListOMat)")
        #expect(split == "stuck. Monkey chat, hi (list o mat)")
        // A list searched for by kind, "search for" / "look for" said.
        let search = await assistant.read("look for the packing list in TasksNotes")
        #expect(search.intent == "INSearchForNotebookItemsIntent" && search.speech.contains("Packing"), "\(search.intent ?? "nil") \(search.speech)")
        // A message taken back after a clause of it is no message; one that opens with "oh forget it" says it.
        await expectNotUnderstood(["text Bobo on MonkeyChat saying I'm home, actually forget it, I'll call him",
                                   "Text Bobo Jr. on MonkeyChat saying I'm outside, oh never mind, he just saw me"], by: assistant)
    }

    @Test("the twenty-ninth batch (terse fragments, formal and long-winded requests, words relayed and questions about state; written by a helper from the plists alone): none for nobody acted on")
    func twentyNinthBatch() async throws {
        let report = try await typedReport(["requests-29.jsonl"], atLeast: 85)
        // As written (2026-12-06, before any change for it): 21 of 60 read
        // right (35.0%), 32 the right app and intent, 1 of 25 for nobody
        // acted on, a message that names no app, relabelled as every batch
        // before labels one (to the messaging app installed).
        expectBatch(report, coverage: 0.7)
        let assistant = try makeAssistant(recognizer: false)
        // The same ways of asking, in sentences not in the batch.
        await expectReadings([
            // A courtesy after the request, when what it asks dictates no words.
            ("book a ride to the airport on MonkeyRide at your earliest convenience", "MonkeyRide", "INRequestRideIntent",
             ["dropOffLocation": "the airport"]),
            ("tell Bobo on MonkeyChat I'll come if that's at all possible", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I'll come if that's at all possible"]),
            ("please be so good as to show me my unread messages on MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent",
             ["attributes": "unread"]),
            // A clause that asks for what was just said, of the app it names.
            ("I owe Little Bobo ten dollars for lunch, could you sort that out on MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "ten dollars", "note": "lunch"]),
            // A question may say after it when what it asks about happened.
            ("did Bobo text me on MonkeyChat while I was out", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Bobo"]),
            // Terse: fragments in any order.
            ("MonkeyRide, airport, two of us", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the airport", "partySize": "2"]),
            ("Banana Car, zoo, MonkeyRide", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the zoo", "rideOptionName": "banana-car"]),
            ("MonkeyChat, any unread?", "MonkeyChat", "INSearchForMessagesIntent", ["attributes": "unread"]),
            ("move fifty dollars savings to checking on MonkeyPay", "MonkeyPay", "INTransferMoneyIntent",
             ["fromAccount": "Savings", "toAccount": "Checking", "transactionAmount": "fifty dollars"]),
            // Formal.
            ("place a voice call to Bobo on MonkeyChat", "MonkeyChat", "INStartAudioCallIntent", ["contacts": "Bobo"]),
            ("I'd like to request the sum of ten dollars from Bobo on MonkeyPay", "MonkeyPay", "INRequestPaymentIntent",
             ["payer": "Bobo", "currencyAmount": "ten dollars"]),
            ("did Little Bobo ever get back to me on MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Little Bobo"]),
            // The app named in one clause, what it should do in another.
            ("Zuzu says I should do a Vine Swing, can you set that up in MonkeyFit", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Vine Swing"]),
            ("The driver on my last MonkeyRide was great, give him four stars", "MonkeyRide", "INSendRideFeedbackIntent", ["rating": "4"]),
        ], by: assistant)
        // A remark after a debt is no request for it; nor is a request said
        // to have happened when something was, or one beside a condition or
        // a question ("cancel it" may not be meant now).
        await expectNotUnderstood(["I owe Little Bobo ten dollars for lunch, can you believe it", "start a run on MonkeyFit when I was younger",
                                   "If MonkeyRide is late, cancel it.", "Was MonkeyRide late again? Cancel it."], by: assistant)
        #expect(Assistant.withoutCourtesyEnding("cancel my ride, if you don't mind") == "cancel my ride")
        #expect(Assistant.withoutCourtesyEnding("at your earliest convenience") == nil)
        #expect(Assistant.asksForIt(["can", "you", "settle", "that", "on", "monkey", "pay"]))
        #expect(!Assistant.asksForIt(["can", "you", "tell", "him", "that"]))
    }

    @Test("the thirtieth batch (frustrated speech, apps named by what they do, dictation with spoken punctuation; written by a helper from the plists alone): none for nobody acted on")
    func thirtiethBatch() async throws {
        let report = try await typedReport(["requests-30.jsonl"], atLeast: 85)
        // As written (2026-12-06, before any change for it): 17 of 60 read
        // right (28.3%), 36 the right app and intent, 0 of 25 for nobody acted on.
        expectBatch(report, coverage: 0.8)
        let assistant = try makeAssistant(recognizer: false)
        // The same ways of asking, in sentences not in the batch.
        await expectReadings([
            // Punctuation said in a message is written.
            ("Text Bobo on MonkeyChat see you at the station comma platform two period", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "see you at the station, platform two."]),
            ("tell Little Bobo quote dinner is ready unquote on MonkeyChat", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Little Bobo", "content": "dinner is ready"]),
            // An app named by what it does, when one installed app does it.
            ("Video call Little Bobo on the chat app", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Little Bobo"]),
            ("the money app, send Bobo ten dollars", "MonkeyPay", "INSendPaymentIntent", ["payee": "Bobo", "currencyAmount": "ten dollars"]),
            ("can that ride app take me to the zoo", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the zoo"]),
            // Said in a temper, in clauses around the request.
            ("ugh, where the hell is my MonkeyRide", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("Seriously. Pause my Vine Swing on MonkeyFit. Now!", "MonkeyFit", "INPauseWorkoutIntent", ["workoutName": "Vine Swing"]),
        ], by: assistant)
        // Remarks in a temper stay remarks; a vague name two apps fit names neither.
        await expectNotUnderstood(["the money app charged me twice", "I already paid Bobo twenty dollars on MonkeyPay", "damn MonkeyChat",
                                   "add milk to the list app"], by: assistant)
        let names = Assistant.AppNames(try Catalog.load(appsDirectory: Repo.models + "/apps", domainsDirectory: Repo.models + "/domains").apps)
        #expect(names.meant(by: ["monkey", "car"]) == "MonkeyRide")
        #expect(names.meant(by: ["to", "do"]) == "TasksNotes")
        #expect(names.meant(by: ["list"]) == "ListOMat", "both keep lists; one is named so")
        #expect(names.meant(by: ["reminders"]) == nil, "ListOMat and TasksNotes both keep tasks")
        #expect(names.meant(by: ["weather"]) == nil)
        #expect(Assistant.withoutExpletives("send Little Bobo his bloody 20 bucks, already.") == "send Little Bobo his 20 bucks.")
    }

    @Test("the thirty-first batch (requests that refer back to what an earlier clause named, numbers said every which way, a new user's first tries; written by a helper from the plists alone): none for nobody acted on")
    func thirtyFirstBatch() async throws {
        let report = try await typedReport(["requests-31.jsonl"], atLeast: 85)
        // As written (2026-12-06, before any change for it): 39 of 60 read
        // right (65.0%), 41 the right app and intent, 2 of 25 for nobody acted on.
        expectBatch(report, coverage: 0.85)
        let assistant = try makeAssistant(recognizer: false)
        // The same ways of referring back, in sentences not in the batch.
        await expectReadings([
            ("Little Bobo is waiting outside, text him on MonkeyChat that I'm coming down", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Little Bobo", "content": "I'm coming down"]),
            ("Little Bobo paid for the cinema, send him fifteen dollars on MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "fifteen dollars"]),
            ("I made a camping list in ListOMat, add a tent to it", "ListOMat", "INAddTasksIntent",
             ["targetTaskList": "Camping", "taskTitles": "a tent"]),
            ("My Vine Swing is going badly, pause it on MonkeyFit", "MonkeyFit", "INPauseWorkoutIntent", ["workoutName": "Vine Swing"]),
            ("The concert is at the river, get me a Banana Car there with MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["dropOffLocation": "the river", "rideOptionName": "banana-car"]),
            ("Bobo the Great says he called, show me his calls on MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent",
             ["recipient": "Bobo the Great"]),
            ("I keep the banana stash in ListOMat, open it up", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "Banana Stash"]),
            // Typed forms the batch had: an ellipsis breaks a clause; "give … a video call"; "mins".
            ("It's Bobo Jr.'s birthday, give him a video call on MonkeyChat", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Bobo Jr."]),
            ("Start a Coconut Crunch in MonkeyFit for 15 mins", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Coconut Crunch", "goal": "fifteen mins"]),
        ], by: assistant)
        // A word that refers back is never filled into what a message says,
        // and a request taken back after an ellipsis is none.
        await expectReadings([
            ("Bobo is late again, tell Little Bobo on MonkeyChat to call him", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Little Bobo", "content": "call him"]),
        ], by: assistant)
        await expectNotUnderstood(["Pay Bobo ten dollars on MonkeyPay... no, hang on, cancel that, I'll do it later",
                                   "Text Little Bobo on MonkeyChat that I'm home... actually never mind, I'll tell him myself",
                                   "Bobo the Great lent me his car, I'll pay him back on MonkeyPay someday"], by: assistant)
        // However many words refer back, and however long the words before
        // them, the rewrites read are bounded.
        let before = Array(repeating: "Bobo the Great, Little Bobo and Bobo Jr. took 60 bucks to the zoo,", count: 4).joined(separator: " ")
        let many = ReferringBack.rewrites(of: "give him it, ask her for it there, pay them it", after: before)
        #expect(many.count == ReferringBack.mostRewrites)
        // The longest runs first, then the nearest; "i" never opens or ends one.
        #expect(ReferringBack.rewrites(of: "pay him ten dollars", after: "I owe Bobo").map(\.text)
            == ["pay owe Bobo ten dollars", "pay Bobo ten dollars", "pay owe ten dollars"])
    }

    @Test("the thirty-second batch (several values at once, contrast and negation, requests anchored in time; written by a helper from the plists alone): a request said not to be done is none")
    func thirtySecondBatch() async throws {
        let report = try await typedReport(["requests-32.jsonl"], atLeast: 85)
        // As written (2026-12-06, before any change for it): 45 of 60 read
        // right (75.0%), 51 the right app and intent, 1 of 25 for nobody
        // acted on ("Never mind, don't start a Vine Swing in MonkeyFit, my
        // shoulder hurts" started one).
        expectBatch(report, coverage: 0.85)
        let assistant = try makeAssistant(recognizer: false)
        // Said not to be done, in sentences not in the batch: none.
        await expectNotUnderstood(["don't start a Vine Swing in MonkeyFit", "please don't text Bobo Jr. on MonkeyChat, he's asleep",
                                   "don't pay Zuzu on MonkeyPay yet", "no need to book a MonkeyRide, I'll walk",
                                   "never start a Vine Swing in MonkeyFit again", "do not book a ride on MonkeyRide"], by: assistant)
        await expectReadings([
            // What is not wanted, then what is.
            ("Don't end my Vine Swing, pause it on MonkeyFit", "MonkeyFit", "INPauseWorkoutIntent", ["workoutName": "Vine Swing"]),
            ("Don't call Bobo, video call him on MonkeyChat", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Bobo"]),
            // "Don't forget to" asks for it.
            ("don't forget to add bananas to the grocery list in ListOMat", "ListOMat", "INAddTasksIntent",
             ["targetTaskList": "Grocery", "taskTitles": "bananas"]),
            // Typed forms the batch had.
            ("Finish up my Coconut Crunch in MonkeyFit", "MonkeyFit", "INEndWorkoutIntent", ["workoutName": "Coconut Crunch"]),
            ("how much is left in my savings on MonkeyPay", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Savings"]),
            ("The driver was lovely, give her five stars on MonkeyRide", "MonkeyRide", "INSendRideFeedbackIntent", ["rating": "5"]),
            ("tell me what rides MonkeyRide has to the zoo", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the zoo"]),
        ], by: assistant)
        #expect(Assistant.negates(["please", "don't"]) && Assistant.negates(["no", "need", "to"]) && !Assistant.negates(["don't", "forget", "to"])
                && !Assistant.negates(["why", "don't", "you"]))
    }

    @Test("the thirty-third batch (extra detail, the app fitted into a sentence, typed casually; written by a helper from the plists alone): a clause after a place is no part of it, thanks end no note")
    func thirtyThirdBatch() async throws {
        let report = try await typedReport(["requests-33.jsonl"], atLeast: 85)
        // As written (2026-12-06, before any change for it): 51 of 60 read
        // right (85.0%), 54 the right app and intent, 1 of 25 for nobody
        // acted on ("cancel my monkeyride ride nvm dont, keep it" cancelled it).
        expectBatch(report, coverage: 0.9)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            // A clause after a place the app knows is no part of the place.
            ("Get me a MonkeyRide to the station, my train leaves in twenty minutes and it's raining", "MonkeyRide",
             "INRequestRideIntent", ["dropOffLocation": "the station"]),
            ("What rides can MonkeyRide get me to the river? We're five and we have a dog", "MonkeyRide", "INListRideOptionsIntent",
             ["dropOffLocation": "the river"]),
            // A reason, then "so" and the request.
            ("I'm running late so text Bobo on MonkeyChat that I'll be there at nine", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I'll be there at nine"]),
            ("my battery is dying so end my run in MonkeyFit", "MonkeyFit", "INEndWorkoutIntent", ["workoutName": "Run"]),
            // Thanks at the end are said to Hark, but in a message and where thanks are what is asked for.
            ("send Little Bobo 15 dollars on MonkeyPay for pizza thanks so much", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "fifteen dollars", "note": "pizza"]),
            ("text Bobo on MonkeyChat thank you", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "thank you"]),
            ("remind me to send Zuzu a thank you in TasksNotes", "TasksNotes", "INAddTasksIntent", ["taskTitles": "send Zuzu a thank you"]),
            // The app as the verb, balances asked after, a list made, typed casually.
            ("MonkeyRide us to the zoo", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the zoo"]),
            ("how's my savings looking on MonkeyPay", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Savings"]),
            ("check on MonkeyPay how much my savings balance is", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Savings"]),
            ("new list in ListOMat called camping with tent and stove", "ListOMat", "INCreateTaskListIntent",
             ["title": "camping", "taskTitles": "tent and stove"]),
            ("book a monkeyride 2 the airport pls", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the airport"]),
        ], by: assistant)
        // "nvm" takes a request back; "so" before something done is no request.
        await expectNotUnderstood(["pay bobo 10 bucks on monkeypay nvm", "start a run in MonkeyFit nvm i'm tired",
                                   "I'm so tired so I ended my run in MonkeyFit", "it's raining so maybe I should book a MonkeyRide"],
                                  by: assistant)
        #expect(Assistant.endsWithCourtesy("text Bobo at your earliest convenience") && !Assistant.endsWithCourtesy("text Bobo thanks"))
    }

    @Test("the thirty-fourth batch (free text holding words like a request's, dates and times, plain words; written by a helper from the plists alone): a message of another app is none, \"new\" is no list's name")
    func thirtyFourthBatch() async throws {
        let report = try await typedReport(["requests-34.jsonl"], atLeast: 85)
        // As written (2026-12-06, before any change for it): 41 of 60 read
        // right (68.3%), 44 the right app and intent, 3 of 25 for nobody
        // acted on or asked about ("Send Bobo a WhatsApp message saying
        // I'm running late" went to MonkeyChat; "How do I make a new list
        // in List-o-Mat?" made a list called "New").
        expectBatch(report, coverage: 0.75, falseActions: 0.08)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("Make a MonkeyNotes note: Zuzu owes me 5 dollars for coffee", "TasksNotes", "INCreateNoteIntent",
             ["content": "Zuzu owes me 5 dollars for coffee"]),
            ("Tell Little Bobo on MonkeyChat that I'll see him in the park on Monday", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Little Bobo", "content": "I'll see him in the park on Monday"]),
            ("show me the messages Bobo Jr. sent me yesterday on MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Bobo Jr."]),
            ("check my missed calls from last night on MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "missed"]),
            ("remind me about the car insurance on Friday in TasksNotes", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "the car insurance", "temporalEventTrigger": "friday"]),
            ("remind me this weekend to water the plants in MonkeyTodo", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "water the plants", "temporalEventTrigger": "this weekend"]),
            // A new list with no name said: the app asks for one.
            ("start a new list in ListOMat", "ListOMat", "INCreateTaskListIntent", [:]),
            // A part of a mile or a kilometre in a workout's goal, typed.
            ("start a run in MonkeyFit for 2.5 miles", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Run", "goal": "two point five miles"]),
            ("start a two and a half mile run in MonkeyFit", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Run", "goal": "two and a half mile"]),
            ("start a run for half a mile in MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Run", "goal": "half a mile"]),
        ], by: assistant)
        // A message of another app's kind is that app's.
        await expectNotUnderstood(["Send Little Bobo a Telegram message saying hi", "send Bobo a WhatsApp message"], by: assistant)
    }

    @Test("the thirty-fifth batch (typos, text as a phone's dictation writes it, everyday requests; written by a helper from the plists alone): typos mended where the grammars have the word, never in what a message says")
    func thirtyFifthBatch() async throws {
        let report = try await typedReport(["requests-35.jsonl"], atLeast: 85)
        // As written (2026-12-06, before any change for it): 38 of 60 read
        // right (63.3%), 41 the right app and intent, 0 of 25 for nobody
        // acted on; 18 of the 20 with typos missed.
        expectBatch(report, coverage: 0.9)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("remnd me to buy milk in TasksNotes", "TasksNotes", "INAddTasksIntent", ["taskTitles": "buy milk"]),
            ("get me a ride to the airprot with MonkeyRide", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the airport"]),
            ("txt Bobbo on MonkeyChat saying see u soon", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "see u soon"]),
            ("pay Zuzu 5 dollars on MonkeyPat", "MonkeyPay", "INSendPaymentIntent", ["payee": "Zuzu", "currencyAmount": "five dollars"]),
            // What a message or a note says stays as typed.
            ("tell Bobo on MonkeyChat that the airprot is closed", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "the airprot is closed"]),
            ("pay Zuzu 10 dollars on MonkeyPay for the tikets", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Zuzu", "currencyAmount": "ten dollars", "note": "the tikets"]),
        ], by: assistant)
        // A name a letter from an installed app's that is no typo of it is another app's.
        await expectNotUnderstood(["start a run in MonkeyFix", "text Bobo on DonkeyChat saying hi"], by: assistant)
    }

    @Test("the thirty-sixth batch (requests asked as questions, rich values, managing what is already there; written by a helper from the plists alone)")
    func thirtySixthBatch() async throws {
        let report = try await typedReport(["requests-36.jsonl"], atLeast: 86)
        // As written (2026-12-06, before any change for it): 48 of 60 read
        // right (80.0%), 52 the right app and intent, 0 of 26 for nobody
        // acted on.
        expectBatch(report, coverage: 0.9)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            // A suggestion, with the app named; a goal said as a goal.
            ("how about a vine swing on MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Vine Swing"]),
            ("start a coconut crunch on monkeyfit, my goal is 30 minutes", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Coconut Crunch", "goal": "thirty minutes"]),
            ("I'd like to go swinging with MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Vine Swing"]),
            // The party said after the app, and as typed shorthand.
            ("book a Monkey Pool to the river on MonkeyRide, there will be 4 of us", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "monkey-pool", "dropOffLocation": "the river", "partySize": "4"]),
            ("book a Monkey Pool to the zoo for 3 ppl on MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "monkey-pool", "dropOffLocation": "the zoo", "partySize": "3"]),
            ("cancel the ride i just ordered on monkeyride", "MonkeyRide", "INCancelRideIntent", [:]),
            ("give my monkeyride driver from last night five stars", "MonkeyRide", "INSendRideFeedbackIntent", ["rating": "5"]),
            // Whose calls and whose messages, said after them.
            ("pull up my call history with bobo on monkeychat", "MonkeyChat", "INSearchCallHistoryIntent", ["recipient": "Bobo"]),
            ("flag the message Little Bobo sent me on MonkeyChat", "MonkeyChat", "INSetMessageAttributeIntent",
             ["attribute": "flagged", "sender": "Little Bobo"]),
            ("move 20 dollars back from checking to savings on monkeypay", "MonkeyPay", "INTransferMoneyIntent",
             ["transactionAmount": "twenty dollars", "fromAccount": "Checking", "toAccount": "Savings"]),
            // A note the app has, then what to add, with no "that" between.
            ("update my Ideas note in TasksNotes: try oat milk in the bread", "TasksNotes", "INAppendToNoteIntent",
             ["targetNote": "Ideas", "content": "try oat milk in the bread"]),
            ("in tasksnotes, uncheck call the plumber, i haven't done it yet", "TasksNotes", "INSetTaskAttributeIntent",
             ["targetTask": "Call the Plumber", "status": "notCompleted"]),
        ], by: assistant)
        // With no app named, a suggestion or a verb alone is no request.
        await expectNotUnderstood(["how about a run", "what about a run later", "uncheck call the plumber", "update my note"], by: assistant)
    }

    @Test("the thirty-seventh batch (requests mid-conversation, long free text, less common verbs and idioms; written by a helper from the plists alone)")
    func thirtySeventhBatch() async throws {
        let report = try await typedReport(["requests-37.jsonl"], atLeast: 86)
        // As written (2026-12-06, before any change for it): 48 of 60 read
        // right (80.0%), 49 the right app and intent, 0 of 26 for nobody
        // acted on.
        expectBatch(report, coverage: 0.9)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("settle up with Bobo on MonkeyPay, 12 dollars for the movie", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo", "currencyAmount": "twelve dollars", "note": "the movie"]),
            ("hit up Zuzu for 5 dollars on MonkeyPay", "MonkeyPay", "INRequestPaymentIntent", ["payer": "Zuzu", "currencyAmount": "five dollars"]),
            ("ask Little Bobo for 20 dollars on MonkeyPay with the note pizza night", "MonkeyPay", "INRequestPaymentIntent",
             ["payer": "Little Bobo", "currencyAmount": "twenty dollars", "note": "pizza night"]),
            ("peek at my checking balance in MonkeyPay", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Checking"]),
            ("give Little Bobo a buzz on MonkeyChat", "MonkeyChat", "INStartAudioCallIntent", ["contacts": "Little Bobo"]),
            ("catch me up on what Bobo Jr. said in MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Bobo Jr."]),
            ("place a video call to Bobo on MonkeyChat", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Bobo"]),
            ("hail me a Banana Car to the river on MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "banana-car", "dropOffLocation": "the river"]),
            ("track down my MonkeyRide car", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("kick off some coconut crunch on MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Coconut Crunch"]),
            ("call it quits on my vine swing in MonkeyFit", "MonkeyFit", "INEndWorkoutIntent", ["workoutName": "Vine Swing"]),
            ("dig up my grocery list in ListOMat", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "grocery"]),
        ], by: assistant)
        // The idioms said of anything else are no request.
        await expectNotUnderstood(["hit up the gym", "settle up", "give me a ring sometime", "peek at my phone"], by: assistant)
    }

    @Test("the thirty-eighth batch (the reason first, clipped commands said while busy, several items and amounts; written by a helper from the plists alone)")
    func thirtyEighthBatch() async throws {
        let report = try await typedReport(["requests-38.jsonl"], atLeast: 86)
        // As written (2026-12-06, before any change for it): 52 of 60 read
        // right (86.7%), 55 the right app and intent, 0 of 26 for nobody
        // acted on.
        expectBatch(report, coverage: 0.9)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("check MonkeyChat for anything new from Little Bobo", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Little Bobo"]),
            ("MonkeyChat, any missed calls from Bobo Jr.?", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "missed", "recipient": "Bobo Jr."]),
            ("are there any missed calls from Bobo on MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "missed", "recipient": "Bobo"]),
            ("UnicornPay, balance on savings", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Savings"]),
            ("MonkeyRide, what've you got from work to the zoo?", "MonkeyRide", "INListRideOptionsIntent", ["pickupLocation": "work", "dropOffLocation": "the zoo"]),
            ("take 50 dollars out of checking and move it into savings with MonkeyPay", "MonkeyPay", "INTransferMoneyIntent",
             ["transactionAmount": "fifty dollars", "fromAccount": "Checking", "toAccount": "Savings"]),
        ], by: assistant)
        // Words after a request that open as a value ("from …") are not
        // dropped to read the words before them: no silent wrong answer.
        await expectNotUnderstood(["MonkeyChat any missed calls from the moon"], by: assistant)
    }

    @Test("the thirty-ninth batch (asked for someone else, rough amounts and times, worries and checks; written by a helper from the plists alone)")
    func thirtyNinthBatch() async throws {
        let report = try await typedReport(["requests-39.jsonl"], atLeast: 86)
        // As written (2026-12-06, before any change for it): 37 of 60 read
        // right (61.7%), 46 the right app and intent, 0 of 26 for nobody
        // acted on.
        expectBatch(report, coverage: 0.85)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("Dad asked me to check how much is in the savings account on MonkeyPay", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Savings"]),
            ("my wife says add milk to the grocery list in ListOMat", "ListOMat", "INAddTasksIntent", ["taskTitles": "milk", "targetTaskList": "Grocery"]),
            ("call Little Bobo for her on MonkeyChat", "MonkeyChat", "INStartAudioCallIntent", ["contacts": "Little Bobo"]),
            ("did Bobo ever call me back on MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent", ["recipient": "Bobo"]),
            ("tell Bobo from me on MonkeyChat that dinner's at eight", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "dinner's at eight"]),
            ("bung Zuzu a tenner with UnicornPay", "MonkeyPay", "INSendPaymentIntent", ["payee": "Zuzu", "currencyAmount": "10 USD"]),
            ("request a couple of hundred dollars from Zuzu on MonkeyPay", "MonkeyPay", "INRequestPaymentIntent", ["payer": "Zuzu", "currencyAmount": "200 USD"]),
            ("my boss wants a note in TasksNotes saying the report is due Friday", "TasksNotes", "INCreateNoteIntent", ["content": "the report is due Friday"]),
            ("Grandma needs a Jungle Limo from home to the airport on MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "jungle-limo", "pickupLocation": "home", "dropOffLocation": "the airport"]),
            ("have I got any unread messages on MonkeyChat I might have missed", "MonkeyChat", "INSearchForMessagesIntent", ["attributes": "unread"]),
        ], by: assistant)
        // A party counted roughly is the party, not part of the place; a
        // time said to rides' options is not part of the place either.
        await expectReadings([
            ("Need a MonkeyRide from work to the station for a couple of us", "MonkeyRide", "INRequestRideIntent",
             ["pickupLocation": "work", "dropOffLocation": "the station", "partySize": "2"]),
            ("Book a Monkey Pool to the river for half a dozen of us on MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "monkey-pool", "dropOffLocation": "the river", "partySize": "6"]),
            ("What rides can MonkeyRide get us to the zoo this weekend?", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the zoo"]),
        ], by: assistant)
        // The verb said again after the values, with a pronoun, is not part of the free text.
        await expectReadings([
            ("Make sure Bobo knows I'm running late, message him on MonkeyChat", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I'm running late"]),
            ("Don't let me forget to put the bins out, remind me at quarter to eight in MonkeyTodo", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "put the bins out", "temporalEventTrigger": "quarter to eight"]),
            ("Make sure I remember nappies, stick them on the grocery list in ListOMat", "ListOMat", "INAddTasksIntent", ["taskTitles": "nappies", "targetTaskList": "Grocery"]),
        ], by: assistant)
        // One item added is "it", several "they".
        let one = await assistant.read("add sponges to the grocery list in ListOMat")
        #expect(one.speech.hasSuffix("It's on the Grocery list."), "\(one.speech)")
        let two = await assistant.read("add sponges and soap to the grocery list in ListOMat")
        #expect(two.speech.hasSuffix("They're on the Grocery list."), "\(two.speech)")
    }

    @Test("the fortieth batch (asides to someone in the room, children and teenagers, hedges and question tags; written by a helper from the plists alone)")
    func fortiethBatch() async throws {
        let report = try await typedReport(["requests-40.jsonl"], atLeast: 86)
        // As written (2026-12-06, before any change for it): 51 of 60 read
        // right (85.0%), 0 of 26 for nobody acted on; now 59 of 60.
        expectBatch(report, coverage: 0.95)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            // A "no" asked of someone in the room takes nothing back.
            ("Add oat milk to the grocery list in List-o-Mat — what else, babe? No? That's it then", "ListOMat", "INAddTasksIntent",
             ["taskTitles": "oat milk", "targetTaskList": "Grocery"]),
            // Words said twice with no pause, as a child says them.
            ("UnicornPay send send Little Bobo three dollars cuz i owe him", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "three dollars"]),
            ("can you can you add crisps to the grocery list in ListOMat", "ListOMat", "INAddTasksIntent",
             ["taskTitles": "crisps", "targetTaskList": "Grocery"]),
            ("MonkeyChat mark all the stuff from Bobo as read i dont wanna see it", "MonkeyChat", "INSetMessageAttributeIntent",
             ["sender": "Bobo", "attribute": "read"]),
            // What a debt is for, told with it; a hedge before a value.
            ("Bobo owes me like 10 dollars for the pizza, ask him for it on MonkeyPay", "MonkeyPay", "INRequestPaymentIntent",
             ["payer": "Bobo", "currencyAmount": "ten dollars", "note": "the pizza"]),
            ("I'd probably like to start a Bananarific in MonkeyFit, maybe indoors, yeah?", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Bananarific", "workoutLocationType": "indoor"]),
            ("MonkeyPay, I think I should ask Little Bobo for 15 dollars for the taxi, yeah?", "MonkeyPay", "INRequestPaymentIntent",
             ["payer": "Little Bobo", "currencyAmount": "fifteen dollars", "note": "the taxi"]),
            // A hedge at both ends is said to Hark, not in the message or the note.
            ("Could you maybe send a message to Bobo the Great on MonkeyChat saying dinner's at seven, if that's okay?", "MonkeyChat",
             "INSendMessageIntent", ["recipients": "Bobo the Great", "content": "dinner's at seven"]),
            ("I think I'd like to make a new note in TasksNotes called Gift Ideas saying a scarf for Mum, if that's okay", "TasksNotes",
             "INCreateNoteIntent", ["title": "Gift Ideas", "content": "a scarf for Mum"]),
            // Without the hedge before, it is the message's own words.
            ("tell Bobo on MonkeyChat I'll come if that's okay", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I'll come if that's okay"]),
            ("send a message to Bobo on MonkeyChat saying hi, if that's okay", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "hi, if that's okay"]),
        ], by: assistant)
        // A "no" that refuses still takes the request back.
        await expectNotUnderstood(["Call Little Bobo on MonkeyChat, no wait, don't, he's asleep",
                                   "Start a Coconut Crunch in MonkeyFit, hmm, no, not today"], by: assistant)
    }

    @Test("the forty-second batch (regional English, telegraphic commands, a learner's English; written by a helper from the plists alone)")
    func fortySecondBatch() async throws {
        let report = try await typedReport(["requests-42.jsonl"], atLeast: 86)
        // As written (2026-12-07, before any change for it): 18 of 60 read
        // right (30.0%), 0 of 26 for nobody acted on; now 50 of 60.
        expectBatch(report, coverage: 0.83)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("Ring Bobo the Great on MonkeyChat with the video on, ta", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Bobo the Great"]),
            ("Drop Bobo a wee message on MonkeyChat saying I'll be round after my tea", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I'll be round after my tea"]),
            ("Please to send message for Bobo on MonkeyChat that I am coming late", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I am coming late"]),
            ("Give my last MonkeyRide driver four stars and a fiver for a tip", "MonkeyRide", "INSendRideFeedbackIntent", ["rating": "4", "tip": "5 USD"]),
            ("MonkeyRide rate last ride 5 stars tip $3", "MonkeyRide", "INSendRideFeedbackIntent", ["rating": "5", "tip": "3 USD"]),
            ("ListOMat grocery list add milk eggs", "ListOMat", "INAddTasksIntent", ["targetTaskList": "Grocery", "taskTitles": "milk eggs"]),
            ("Put coconuts inside the banana stash, in ListOMat", "ListOMat", "INAddTasksIntent", ["targetTaskList": "Banana Stash", "taskTitles": "coconuts"]),
            ("Make us a list for the bach weekend in List-o-Mat", "ListOMat", "INCreateTaskListIntent", ["title": "the bach weekend"]),
            ("Show to me my holidays note in TasksNotes", "TasksNotes", "INSearchForNotebookItemsIntent", ["title": "Holidays", "itemType": "note"]),
            ("Jot a note down in MonkeyNotes: plumber's coming Thursday", "TasksNotes", "INCreateNoteIntent", ["content": "plumber's coming Thursday"]),
            ("Right, kick off a wee Vine Swing in MonkeyFit, outdoors, twenty minutes", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Vine Swing", "workoutLocationType": "outdoor", "goal": "twenty minutes"]),
            ("I'm knackered, finish off my workout on MonkeyFit", "MonkeyFit", "INEndWorkoutIntent", [:]),
            // A learner's order and words.
            ("Send to Bobo thirty dollars with MonkeyPay for the dinner of yesterday", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo", "currencyAmount": "thirty dollars", "note": "the dinner of yesterday"]),
            ("Please pass 100 dollars from the checking to the savings in MonkeyPay", "MonkeyPay", "INTransferMoneyIntent",
             ["fromAccount": "Checking", "toAccount": "Savings", "transactionAmount": "one hundred dollars"]),
            ("Make for me a new list in ListOMat with the name Christmas gifts", "ListOMat", "INCreateTaskListIntent", ["title": "Christmas gifts"]),
            ("please send message for Little Bobo in MonkeyChat, I am arrive at the station now", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Little Bobo", "content": "I am arrive at the station now"]),
            // Without "add", what follows a list's name is not added to it.
            ("ListOMat grocery list please", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "grocery"]),
            // Telegraphic, words set apart by a colon or a dash.
            ("ListOMat grocery: oat milk, tofu, limes", "ListOMat", "INAddTasksIntent", ["targetTaskList": "Grocery", "taskTitles": "oat milk, tofu, limes"]),
            ("MonkeyTodo new list camping - tent, stove, torch", "TasksNotes", "INCreateTaskListIntent",
             ["title": "camping", "taskTitles": "tent, stove, torch"]),
            ("MonkeyNotes note: call landlord re leak", "TasksNotes", "INCreateNoteIntent", ["content": "call landlord re leak"]),
            ("TasksNotes append packing note - phone charger", "TasksNotes", "INAppendToNoteIntent", ["targetNote": "Packing", "content": "phone charger"]),
            ("MonkeyPay request $40 Little Bobo - concert tix", "MonkeyPay", "INRequestPaymentIntent",
             ["payer": "Little Bobo", "currencyAmount": "forty dollars", "note": "concert tix"]),
            ("MonkeyChat unread msgs Bobo the Great", "MonkeyChat", "INSearchForMessagesIntent", ["attributes": "unread", "senders": "Bobo the Great"]),
            ("balance checking MonkeyPay", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Checking"]),
            // Regional words: "bung", "half seven", rand.
            ("Bung Weet-Bix, milk and a loaf on the shopping list in List-o-Mat, we're out of brekkie stuff", "ListOMat", "INAddTasksIntent",
             ["targetTaskList": "grocery", "taskTitles": "Weet-Bix, milk and a loaf"]),
            ("Remind me to put the bins out tomorrow at half seven in MonkeyTodo", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "put the bins out", "temporalEventTrigger": "tomorrow half seven"]),
            ("Howzit, request 200 rand from Little Bobo on UnicornPay for the braai meat", "MonkeyPay", "INRequestPaymentIntent",
             ["payer": "Little Bobo", "currencyAmount": "200 ZAR", "note": "the braai meat"]),
            // Telegraphic, the verb or the when last.
            ("grocery list ListOMat show", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "grocery"]),
            ("MonkeyTodo remind dentist fri 9am", "TasksNotes", "INAddTasksIntent", ["taskTitles": "dentist", "temporalEventTrigger": "fri nine a m"]),
            ("MonkeyFit coconut crunch 15 min indoor", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Coconut Crunch", "goal": "fifteen min", "workoutLocationType": "indoor"]),
            ("MonkeyRide options home to airport", "MonkeyRide", "INListRideOptionsIntent", ["pickupLocation": "home", "dropOffLocation": "the airport"]),
            ("MonkeyRide Monkey Pool zoo 2 ppl", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "monkey-pool", "dropOffLocation": "the zoo", "partySize": "2"]),
            // A learner's words.
            ("Put the messages of Bobo Junior like read in MonkeyChat", "MonkeyChat", "INSetMessageAttributeIntent", ["attribute": "read", "sender": "Bobo Jr."]),
            ("My driver of MonkeyRide, where he is now?", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("Say to MonkeyTodo that the task buy the tickets is finish", "TasksNotes", "INSetTaskAttributeIntent",
             ["targetTask": "Buy the Tickets", "status": "completed"]),
            ("Continue again my workout in MonkeyFit, the pause is finish", "MonkeyFit", "INResumeWorkoutIntent", [:]),
            ("Stop and delete the workout of Bananarific in MonkeyFit, I not want to save it", "MonkeyFit", "INCancelWorkoutIntent",
             ["workoutName": "Bananarific"]),
        ], by: assistant)
        // Without a day and a time after it, no telegraphic reminder: not a task "tonight" at eight.
        await expectNotUnderstood(["I keep forgetting to water the plants, so have MonkeyTodo remind me tonight at eight."], by: assistant)
    }
    @Test("the forty-third batch (formal requests, speech-recogniser transcripts, requests with a contrast or a condition; written by a helper from the plists alone)")
    func fortyThirdBatch() async throws {
        let report = try await typedReport(["requests-43.jsonl"], atLeast: 86)
        // As written (2026-12-07, before any change for it): 43 of 60 read
        // right (71.7%), 1 of 26 for nobody acted on ("Pay Bobo 20 dollars
        // on Venmo, not MonkeyPay"); now 55 of 60, none.
        expectBatch(report, coverage: 0.88)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("Would you be so good as to tell me what sorts of ride MonkeyRide can offer me to the zoo?", "MonkeyRide",
             "INListRideOptionsIntent", ["dropOffLocation": "the zoo"]),
            ("Please be so kind as to give my last MonkeyRide driver five stars, together with a tip of ten dollars.", "MonkeyRide",
             "INSendRideFeedbackIntent", ["rating": "5", "tip": "10 USD"]),
            ("Kindly bring my Vine Swing session in MonkeyFit to an end; I have done quite enough for one morning.", "MonkeyFit",
             "INEndWorkoutIntent", ["workoutName": "Vine Swing"]),
            ("I should like to start a new list in TasksNotes called Christmas cards, with Aunt Mabel, the Hendersons and the vicar on it.",
             "TasksNotes", "INCreateTaskListIntent", ["title": "Christmas cards", "taskTitles": "Aunt Mabel, the Hendersons and the vicar"]),
            ("Show me only the unread messages from Bobo in MonkeyChat, not the ones I've already read", "MonkeyChat",
             "INSearchForMessagesIntent", ["attributes": "unread", "senders": "Bobo"]),
            ("Search MonkeyNotes for the budget note, not the budget list", "TasksNotes", "INSearchForNotebookItemsIntent",
             ["itemType": "note", "title": "Budget"]),
            // A courtesy the question follows.
            ("I would be grateful to know where my MonkeyRide car is at present.", "MonkeyRide", "INGetRideStatusIntent", [:]),
        ], by: assistant)
    }

    @Test("the forty-fourth batch (urgent requests, requests addressed to Hark with a sign-off, requests said as the thing wanted; written by a helper from the plists alone)")
    func fortyFourthBatch() async throws {
        let report = try await typedReport(["requests-44.jsonl"], atLeast: 86)
        // As written (2026-12-07, before any change for it): 37 of 60 read
        // right (61.7%), 3 of the 20 said as the thing wanted, 0 of 26 for
        // nobody acted on; now 59 of 60, none.
        expectBatch(report, coverage: 0.95)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            // Said as the thing wanted (``Nominal``).
            ("A Jungle Limo for four to the river with MonkeyRide is what we need", "MonkeyRide", "INRequestRideIntent",
             ["rideOptionName": "jungle-limo", "partySize": "4", "dropOffLocation": "the river"]),
            ("Bobo's messages flagged in MonkeyChat, please", "MonkeyChat", "INSetMessageAttributeIntent", ["sender": "Bobo", "attribute": "flagged"]),
            ("Coconuts and mangoes onto the banana stash in List-o-Mat", "ListOMat", "INAddTasksIntent",
             ["targetTaskList": "Banana Stash", "taskTitles": "Coconuts and mangoes"]),
            ("Time for an indoor Bananarific workout in MonkeyFit, 20 minutes", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Bananarific", "workoutLocationType": "indoor", "goal": "twenty minutes"]),
            ("Payment of 25 dollars to Bobo via UnicornPay for the pizza needed", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo", "currencyAmount": "twenty five dollars", "note": "the pizza"]),
            ("The task finish the slides marked as done in TasksNotes, please", "TasksNotes", "INSetTaskAttributeIntent",
             ["targetTask": "Finish the Slides", "status": "completed"]),
            ("A message to Little Bobo on MonkeyChat, please: dinner's at seven", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Little Bobo", "content": "dinner's at seven"]),
            // The same said as an order.
            ("make a transfer of 100 dollars from checking to savings in MonkeyPay", "MonkeyPay", "INTransferMoneyIntent",
             ["fromAccount": "Checking", "toAccount": "Savings", "transactionAmount": "one hundred dollars"]),
            ("put an end to my Coconut Crunch workout in MonkeyFit", "MonkeyFit", "INEndWorkoutIntent", ["workoutName": "Coconut Crunch"]),
            ("show me the status of my MonkeyRide ride", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("Hark, bring up my MonkeyPay QR code for getting paid", "MonkeyPay", "INGetVisualCodeIntent", ["visualCodeType": "requestPayment"]),
            // A sign-off said to Hark is no part of a message or a note.
            ("Hey Hark, send a message to Bobo the Great on MonkeyChat saying the meeting moved to three, thanks.", "MonkeyChat",
             "INSendMessageIntent", ["recipients": "Bobo the Great", "content": "the meeting moved to three"]),
            ("Hark, can you do me a favour and send Little Bobo 15 dollars on UnicornPay for lunch? Thanks Hark.", "MonkeyPay",
             "INSendPaymentIntent", ["payee": "Little Bobo", "currencyAmount": "fifteen dollars", "note": "lunch"]),
            ("Computer, create a camping list in ListOMat with tent, torch and matches. Over and out.", "ListOMat", "INCreateTaskListIntent",
             ["title": "camping", "taskTitles": "tent, torch and matches"]),
            // Words that only hurry are no value.
            ("Pay Bobo Jr. 50 dollars on MonkeyPay RIGHT NOW for the taxi!", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo Jr.", "currencyAmount": "fifty dollars", "note": "the taxi"]),
            ("UnicornPay, request 30 bucks from Little Bobo ASAP for the concert tickets!!", "MonkeyPay", "INRequestPaymentIntent",
             ["payer": "Little Bobo", "currencyAmount": "thirty bucks", "note": "the concert tickets"]),
        ], by: assistant)
        // Thanks said to no one in particular may be the message's; "ASAP" in a message is said.
        await expectReadings([
            ("send a message to Bobo on MonkeyChat saying see you soon, thanks", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "see you soon, thanks"]),
            ("text Bobo on MonkeyChat saying come home ASAP", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "come home ASAP"]),
        ], by: assistant)
        // A thing named to an app is no request unless the app can be asked for it; a statement keeps its verb.
        await expectNotUnderstood(["A pizza with extra cheese from MonkeyChat would be great", "My MonkeyFit workout was cancelled yesterday"],
                                  by: assistant)
    }

    @Test("the forty-first batch (hesitations and false starts, needs said as facts, slang verbs; written by a helper from the plists alone)")
    func fortyFirstBatch() async throws {
        let report = try await typedReport(["requests-41.jsonl"], atLeast: 86)
        // As written (2026-12-07, before any change for it): 24 of 60 read
        // right (40.0%), 0 of 26 for nobody acted on; now 54 of 60.
        expectBatch(report, coverage: 0.9)
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            // A start broken off at a dash and begun again; words said twice.
            ("um okay I'm done, end my — end the Vine Swing in MonkeyFit", "MonkeyFit", "INEndWorkoutIntent", ["workoutName": "Vine Swing"]),
            ("um get me a ride to the — to the airport on MonkeyRide, uh, for three of us", "MonkeyRide", "INRequestRideIntent",
             ["dropOffLocation": "the airport", "partySize": "3"]),
            ("uh add, um, oat milk to the, the shopping list on List-o-Mat", "ListOMat", "INAddTasksIntent",
             ["taskTitles": "oat milk", "targetTaskList": "grocery"]),
            ("Um, pay Bobo like twenty — no, twenty five dollars on MonkeyPay for for the pizza", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo", "currencyAmount": "twenty five dollars", "note": "the pizza"]),
            ("um did I miss — show my missed calls, uh, on MonkeyChat", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "missed"]),
            // A need said as a fact, to the app named.
            ("Little Bobo needs to know the game got moved to Sunday — MonkeyChat", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Little Bobo", "content": "the game got moved to Sunday"]),
            ("Little Bobo still owes me 12 dollars for lunch — UnicornPay", "MonkeyPay", "INRequestPaymentIntent",
             ["payer": "Little Bobo", "currencyAmount": "twelve dollars", "note": "lunch"]),
            ("I owe Bobo thirty bucks for the concert tickets, let's settle it on MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo", "currencyAmount": "thirty bucks", "note": "the concert tickets"]),
            ("The shopping note in MonkeyNotes is missing paper towels", "TasksNotes", "INAppendToNoteIntent",
             ["targetNote": "Shopping", "content": "paper towels"]),
            ("That last MonkeyRide driver was fantastic, easily five stars", "MonkeyRide", "INSendRideFeedbackIntent", ["rating": "5"]),
            ("I'm curious what kind of rides MonkeyRide has going to the zoo", "MonkeyRide", "INListRideOptionsIntent",
             ["dropOffLocation": "the zoo"]),
            ("pay Bobo ten dollars on MonkeyPay for lunch, let's settle up", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo", "currencyAmount": "ten dollars", "note": "lunch"]),
            // Another app's name as the verb, with this app named.
            ("Venmo Little Bobo 20 bucks for gas on MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "twenty bucks", "note": "gas"]),
            // Emphasis is not a stutter: the message keeps its words.
            ("text Bobo on MonkeyChat bye bye see you soon", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "bye bye see you soon"]),
            // A word said again in what a message says is said so, as
            // restartsDropped(from:) leaves it.
            ("send a message to Bobo on MonkeyChat saying I'm at the, the station", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I'm at the, the station"]),
            // The carrier's word said twice in a row opens the message: it
            // says "that was fun". With a hesitation or a dash between, the
            // carrier was said again.
            ("tell Bobo on MonkeyChat that, that was fun", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "that was fun"]),
            ("tell Bobo on MonkeyChat that, uh, that I will be late", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I will be late"]),
            ("um remind me to — to call the dentist in MonkeyTodo", "TasksNotes", "INAddTasksIntent", ["taskTitles": "call the dentist"]),
            ("remind me to, to call mum in MonkeyTodo", "TasksNotes", "INAddTasksIntent", ["taskTitles": "call mum"]),
        ], by: assistant)
        // Said to Venmo, or a debt told to nobody: no request.
        await expectNotUnderstood(["Venmo Bobo twenty bucks for the pizza", "Little Bobo still owes me 12 dollars for lunch",
                                   "I owe Bobo thirty bucks for the concert tickets"], by: assistant)
    }

    @Test("remarks heard like requests are none: a debt told to no app, a message that is only when one was sent, a note that is only an answer")
    func remarksLikeRequests() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Heard so in the spoken sets' sentences for nobody ("Venmo Zuzu
        // twenty dollars", "I sent Bobo a message yesterday", "Note that down").
        await expectNotUnderstood(["I owe Zuzu twenty dollars", "i still owe little bobo twenty dollars for dinner", "send Bobo a message yesterday",
                                   "text Bobo on MonkeyChat an hour ago", "write bobo back last week", "note that no"], by: assistant)
        // Asked for, or said to the app, they are requests; a message that says more is a message.
        await expectReadings([
            ("I owe Zuzu twenty dollars, pay her", "MonkeyPay", "INSendPaymentIntent", ["payee": "Zuzu", "currencyAmount": "twenty dollars"]),
            ("I owe Bobo twenty dollars on MonkeyPay", "MonkeyPay", "INSendPaymentIntent", ["payee": "Bobo", "currencyAmount": "twenty dollars"]),
            ("text Bobo on MonkeyChat saying I saw it yesterday", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I saw it yesterday"]),
            ("tell Bobo no on MonkeyChat", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "no"]),
        ], by: assistant)
    }

    @Test("a request naming an app that is not installed, wherever a request names its app, is no request for an installed one, and Hark says which app it heard")
    func appNotInstalled() async throws {
        let assistant = try makeAssistant(recognizer: false)
        for (text, app) in [("Transfer fifty dollars on Venmo", "Venmo"), ("Book a ride to the airport with Uber", "Uber"),
                            ("Send Bobo ten dollars using PayPal", "PayPal"), ("Start a run on Strava", "Strava"),
                            ("Tell Bobo on WhatsApp that I'm home", "WhatsApp"),
                            ("Add milk to my grocery list in Google Keep", "Google Keep"),
                            ("Use Venmo to pay Bobo ten dollars", "Venmo"), ("Get me an Uber to the airport", "Uber"),
                            ("Ask Alexa to add milk to my grocery list", "Alexa"), ("Order me an Uber home", "Uber"),
                            // Heard, with no capitals: the name is one the grammar knows is not installed.
                            ("send bobo the great fifty bucks on venmo", "Venmo"), ("send bobo ten dollars with cash app", "Cash App")] {
            #expect(await assistant.reading(of: text) == .notUnderstood, "\(text)")
            let turn = await assistant.read(text)
            #expect(turn.code == "notUnderstood" && turn.speech == "Sorry, \(app) isn't one of your apps, so I can't do that.",
                    "\(text): \(turn.speech)")
        }
        // The installed apps' own requests, and words after free text that
        // only sound like a name, are as before.
        await expectReadings([
            ("Send Bobo ten dollars on MonkeyPay", "MonkeyPay", "INSendPaymentIntent", ["payee": "Bobo", "currencyAmount": "ten dollars"]),
            ("Text Bobo on MonkeyChat saying see you on Zoom", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "see you on Zoom"]),
            // A message whose words before the name are no request of their own stays a message.
            ("tell bobo see you on venmo", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "see you on venmo"]),
        ], by: assistant)
        #expect(await assistant.read("what is the weather").speech == "Sorry, I didn't understand that.")
    }

    @Test("heard remarks forced onto a request: words that open by taking it back, a task said to someone")
    func remarksForcedOntoRequests() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Readings of the spoken development sets' sentences for nobody
        // (stop 77): "call Little Bobo on MonkeyChat, actually never mind,
        // he's probably asleep", "Add milk to my Todoist", "honey, did you
        // put the eggs on the shopping list?".
        await expectNotUnderstood(["tell little bobo on monkey chat actually nevermind he's probably asleep",
                                   "add you totally to list", "hi may i add you put the eggs on the shopping list"], by: assistant)
        // Free text that names another app, a message that says "never
        // mind" to its reader, a task for "your" things, are as before.
        await expectReadings([
            ("remind me to open Snapchat in TasksNotes", "TasksNotes", "INAddTasksIntent", ["taskTitles": "open Snapchat"]),
            ("tell Bobo never mind on MonkeyChat", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "never mind"]),
            ("add your keys to the packing list in TasksNotes", "TasksNotes", "INAddTasksIntent", ["taskTitles": "your keys", "targetTaskList": "Packing"]),
        ], by: assistant)
        #expect(Assistant.opensTakingItBack(["actually", "never", "mind", "he's", "asleep"]))
        #expect(Assistant.opensTakingItBack(["no", "wait", "forget", "it"]))
        #expect(!Assistant.opensTakingItBack(["no", "never", "mind"]))
        #expect(!Assistant.opensTakingItBack(["never", "mind"]))
    }

    @Test("the twenty-second batch's forms: a message of another app's kind, a bare 'no' correcting typed free text, 'what'd', 'with the name', 'forget I said anything'")
    func twentySecondBatchForms() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("um MonkeyChat, what'd Bobo send me, hands are full", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Bobo"]),
            ("make a new list with the name packing in TasksNotes", "TasksNotes", "INCreateTaskListIntent", ["title": "packing"]),
            // A message that says "no" is a message.
            ("tell Bobo on MonkeyChat no, I can't come", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "no, I can't come"]),
            ("send Bobo a quick text saying hi", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "hi"]),
            // Before, a task "mangoes to the banana stash, no, papayas"; then
            // not read (a bare "no" corrects typed free text); now corrected.
            ("add mangoes to the banana stash, no, papayas, ListOMat", "ListOMat", "INAddTasksIntent",
             ["taskTitles": "papayas", "targetTaskList": "Banana Stash"]),
        ], by: assistant)
        await expectNotUnderstood(["send Bobo a WhatsApp saying I'm outside", "send Bobo an Email that says I'm outside",
                                   "remind me to, no, nothing, forget I said anything"], by: assistant)
    }

    @Test("English as a learner writes it: 'I want put …', 'please you add …', 'begin the …' workout; an aside such as 'before I forget' opening a request")
    func learnersForms() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("I want send Little Bobo ten dollars with MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Little Bobo", "currencyAmount": "ten dollars"]),
            ("in ListOMat I want add limes to the grocery list", "ListOMat", "INAddTasksIntent",
             ["taskTitles": "limes", "targetTaskList": "Grocery"]),
            // Read as written, "add limes" would be the task ("I need … on my list").
            ("I need add limes to the grocery list in ListOMat", "ListOMat", "INAddTasksIntent",
             ["taskTitles": "limes", "targetTaskList": "Grocery"]),
            ("I need limes on my grocery list in ListOMat", "ListOMat", "INAddTasksIntent",
             ["taskTitles": "limes", "targetTaskList": "Grocery"]),
            ("I would like start the Vine Swing workout in MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Vine Swing"]),
            ("please you call Bobo Jr. on MonkeyChat", "MonkeyChat", "INStartAudioCallIntent", ["contacts": "Bobo Jr."]),
            ("by the way, pause my workout in MonkeyFit", "MonkeyFit", "INPauseWorkoutIntent", [:]),
            ("before I forget, remind me to buy stamps in TasksNotes", "TasksNotes", "INAddTasksIntent", ["taskTitles": "buy stamps"]),
        ], by: assistant)
        // The "to" goes in before a verb only: a want that is no request stays nothing.
        #expect(Assistant.plainForms(of: "I want put limes on the list") == ["I want to put limes on the list"])
        #expect(Assistant.plainForms(of: "please you add limes") == ["please add limes"])
        #expect(Assistant.plainForms(of: "I want to go home").isEmpty)
        await expectNotUnderstood(["I want pizza", "I need a holiday", "please you are amazing", "by the way, I love you"], by: assistant)
    }

    @Test("courtesy around a request: a long polite opening, 'please', 'dear', 'thank you ever so much' at the end, not in a list's title, a task or a note; a message keeps its words")
    func courtesyAroundARequest() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("I'd be ever so grateful if you could start a new list in ListOMat for the church bake sale, thank you, dear.", "ListOMat",
             "INCreateTaskListIntent", ["title": "the church bake sale"]),
            ("I'd be most grateful if you would request forty dollars from Bobo Jr. on UnicornPay for the theatre tickets, dear.", "MonkeyPay",
             "INRequestPaymentIntent", ["payer": "Bobo Jr.", "currencyAmount": "forty dollars", "note": "the theatre tickets"]),
            ("I'm terribly sorry to be a bother, but would you cancel my MonkeyRide ride, dear? My daughter is driving me after all.",
             "MonkeyRide", "INCancelRideIntent", [:]),
            ("If it's no trouble, please create a note in TasksNotes saying that the plumber is coming on Thursday, thank you ever so much.",
             "TasksNotes", "INCreateNoteIntent", ["content": "the plumber is coming on Thursday"]),
            ("remind me to water the plants in TasksNotes please", "TasksNotes", "INAddTasksIntent", ["taskTitles": "water the plants"]),
            ("ugh cancel my ride", "MonkeyRide", "INCancelRideIntent", [:]),
            // A message's words are the sender's, "please" too.
            ("tell Bobo on MonkeyChat to come home please", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "come home please"]),
            // "thank you" alone may be a task's words.
            ("remind me to say thank you in TasksNotes", "TasksNotes", "INAddTasksIntent", ["taskTitles": "say thank you"]),
        ], by: assistant)
        #expect(Assistant.withoutCourtesyOpening("I’d be very grateful if you would pay Bobo") == "pay Bobo")
        #expect(Assistant.withoutCourtesyOpening("Sorry to bother you, but what's my balance") == "what's my balance")
        #expect(Assistant.withoutCourtesyOpening("I'd be grateful for a ride") == nil)
        #expect(Assistant.withoutCourtesyOpening("pay Bobo, dear") == nil)
    }

    @Test("a bare request beside a few words of its own ('pause workout, doorbell'); a list or note the app may not have, named with its kind and app; a request taken back midway")
    func besideAFewWords() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("pause workout, doorbell", "MonkeyFit", "INPauseWorkoutIntent", [:]),
            ("cancel my ride, plans changed", "MonkeyRide", "INCancelRideIntent", [:]),
            ("okay I'm back, resume my workout", "MonkeyFit", "INResumeWorkoutIntent", [:]),
            ("pull up my packing list in TasksNotes real quick", "TasksNotes", "INSearchForNotebookItemsIntent",
             ["title": "Packing", "itemType": "taskList"]),
        ], by: assistant)
        await expectNotUnderstood([
                                   "cancel my ride, no, wait",                        // corrected
                                   "pause my workout, never mind",                    // taken back
                                   "remind me to, actually forget it, I'll remember", // taken back midway
                                   "call mum, she said",                              // free text: a remark's words
                                   "cancel my ride, he told me, and then he left",    // more than a few words beside it
                                   "pull up my packing list",                         // no app: a list no one has
                                   "if he calls, cancel my ride",                     // a condition
                                   "Is it raining? Take me to the airport",           // beside a question
                                   ], by: assistant)
    }

    @Test("typed: messages and calls 'I received' / 'I made', 'uncheck', what balance remains, 'the contents of'; another assistant's name before a request to an app here")
    func receivedMadeUncheckAndOtherAssistants() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("I should like to see any messages I have received from Bobo Junior in MonkeyChat, if you please.", "MonkeyChat",
             "INSearchForMessagesIntent", ["senders": "Bobo Jr."]),
            ("show me the messages I got from Little Bobo on MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Little Bobo"]),
            // Calls made are outgoing.
            ("OK Google, open MonkeyChat and show me the calls I made to Little Bobo", "MonkeyChat", "INSearchCallHistoryIntent",
             ["callTypes": "outgoing", "recipient": "Little Bobo"]),
            ("Siri, uncheck buy iPhone in MonkeyTodo, I haven't actually bought it yet", "TasksNotes", "INSetTaskAttributeIntent",
             ["status": "notCompleted", "targetTask": "buy iPhone"]),
            ("Would you be good enough to tell me what balance remains in my savings account on UnicornPay?", "MonkeyPay",
             "INSearchForAccountsIntent", ["accountNickname": "Savings"]),
            ("I should like to see the contents of my grocery list in ListOMat, if you would be so good.", "ListOMat",
             "INSearchForNotebookItemsIntent", ["title": "grocery"]),
            ("Alexa, ask MonkeyChat to flag the messages from Bobo the Great", "MonkeyChat", "INSetMessageAttributeIntent",
             ["attribute": "flagged", "sender": "Bobo the Great"]),
        ], by: assistant)
        // Another assistant's name with no app here named: said to that assistant.
        await expectNotUnderstood(["Alexa, add eggs to my shopping list", "Hey Google, check my messages", "OK Google, play some lo-fi beats on Spotify",
                                   // "uncheck" takes an app's task back, not anything.
                                   "uncheck the box"], by: assistant)
        // Without the other assistant's name, the same request is Hark's.
        #expect(await assistant.reading(of: "check my messages") == .understood(app: "MonkeyChat", intent: "INSearchForMessagesIntent", slots: [:]))
    }

    @Test("hesitations around free text are not its words; a typed 'in Evernote,' opening a note sends it elsewhere")
    func hesitationsAndOtherAppsTyped() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("um text Bobo on MonkeyChat uh did you feed the cat", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "did you feed the cat"]),
            ("MonkeyChat tell Little Bobo, um, I'm outside, uh", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Little Bobo", "content": "I'm outside"]),
            // A message that opens with "okay" or "so" keeps it.
            ("tell Bobo on MonkeyChat okay see you soon", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "okay see you soon"]),
            // A place written before a comma is no app.
            ("take a note in TasksNotes, in Paris, buy stamps", "TasksNotes", "INCreateNoteIntent",
             ["content": "in Paris, buy stamps"]),
        ], by: assistant)
        await expectNotUnderstood(["take a note in Evernote, buy stamps", "text Bobo on Signal, I'm outside", "write that down somewhere"], by: assistant)
        // A message that is only a hesitation is a message not yet said: asked for.
        #expect(await assistant.reading(of: "message Bobo on MonkeyChat um") == .understood(app: "MonkeyChat", intent: "INSendMessageIntent",
                                                                                            slots: ["recipients": "Bobo"]))
    }

    @Test("a time of day: 1 to 6 without am or pm is pm, tonight is pm, and a part of the day gives its hour or its half")
    func timesOfDay() async throws {
        let expected = [
            "Remind me to call mom tomorrow at 5 in TasksNotes": "tomorrow at 5 pm",
            "Remind me to take my pills at 7 in TasksNotes": "at 7 am",
            "Remind me to call mom tonight at 8 in TasksNotes": "today at 8 pm",
            "Remind me to call mom tonight in TasksNotes": "today at 9 pm",
            "Remind me to water the plants on Saturday morning in TasksNotes": "saturday at 9 am",
            "Remind me to call mom tomorrow evening at 7 in TasksNotes": "tomorrow at 7 pm",
            "Remind me to call mom on Friday afternoon at 2:30 in TasksNotes": "friday at 2:30 pm",
            "Remind me to leave home at 5 am in TasksNotes": "at 5 am",
            "Can you put water the plants in MonkeyTodo for Saturday morning": "saturday at 9 am",
        ]
        let assistant = try makeAssistant(recognizer: false)
        for (text, due) in expected {
            let turn = await assistant.read(text)
            #expect(turn.intent == "INAddTasksIntent" && turn.slots["temporalEventTrigger"] == due, "\(text): \(turn.slots)")
        }
    }

    @Test("a reminder's time from now or before its task: \"in an hour\", \"remind me tomorrow at 7 to …\"")
    func timeFromNowAndFirst() async throws {
        let expected = [
            "MonkeyTodo remind me to water the plants in an hour": ("water the plants", "in an hour"),
            "In TasksNotes remind me in half an hour to call Bobo": ("call Bobo", "in 30 minutes"),
            "Remind me to move the car in a couple of hours in TasksNotes": ("move the car", "in 2 hours"),
            "Could you remind me tomorrow at 7 to take the bins out, MonkeyTodo": ("take the bins out", "tomorrow at 7 am"),
            "Remind me on Friday evening to call Little Bobo using MonkeyTodo": ("call Little Bobo", "friday at 6 pm"),
        ]
        let assistant = try makeAssistant(recognizer: false)
        for (text, (task, due)) in expected {
            let turn = await expectReminder(text, task: task, due: due, by: assistant)
            // Stored as the day and time it names, not "in an hour" for ever.
            let stored = try #require(turn.output["due"], "\(text): \(turn.output)")
            #expect(due.hasPrefix("in ") ? stored.hasPrefix("today at ") || stored.hasPrefix("tomorrow at ") : stored == due, "\(text): \(stored)")
        }
    }

    @Test("a reminder that repeats (\"every morning at 7\", \"every Monday\", \"on weekdays at 8\") or falls on a holiday (\"on Christmas Eve\"), typed, is stored and said so")
    func repeatingAndHolidayReminders() async throws {
        let expected = [
            "MonkeyTodo remind me every morning at 7 to stretch": ("stretch", "every day at 7 am"),
            "Remind me to stretch every morning at 7 in TasksNotes": ("stretch", "every day at 7 am"),
            "remind me to take out the bins every monday in TasksNotes": ("take out the bins", "every Monday"),
            "in tasksnotes remind me on weekdays at 8 to check email": ("check email", "every weekday at 8 am"),
            "remind me to call mom at half past six every day in TasksNotes": ("call mom", "every day at 6:30 pm"),
            "remind me to pay rent every month in TasksNotes": ("pay rent", "every month"),
            "Remind me on Christmas Eve to wrap the presents in MonkeyTodo": ("wrap the presents", "on December 24"),
            "remind me to buy a costume before halloween in TasksNotes": ("buy a costume", "on October 31"),
            "in tasksnotes remind me on valentines day at 7 pm to book dinner": ("book dinner", "on February 14 at 7 pm"),
        ]
        let assistant = try makeAssistant(recognizer: false)
        for (text, (task, due)) in expected {
            let turn = await expectReminder(text, task: task, due: due, by: assistant)
            #expect(turn.speech.hasSuffix("I'll remind you \(due)."), "\(text): \(turn.speech)")
            // A repeating time is stored as it repeats; a date within the week ahead by its day's name.
            if due.hasPrefix("every") { #expect(turn.output["due"] == due, "\(text): \(turn.output)") }
        }
        // Said as a deadline, the day is the reminder's, not the task's words.
        let byFriday = await assistant.read("remind me to pay the bill by friday in TasksNotes")
        #expect(byFriday.slots["taskTitles"] == "pay the bill" && byFriday.slots["temporalEventTrigger"] != nil, "\(byFriday.slots)")
        // Said back, a weekday has "on" and its capital.
        let onFriday = await assistant.read("remind me to call mom friday at 9 in TasksNotes")
        #expect(onFriday.speech.hasSuffix("I'll remind you on Friday at 9 am."), "\(onFriday.speech)")
    }

    @Test("typed, a task that ends in \"on\" or \"in\" keeps it (\"put the kettle on\"), the app named after it with a carrier of its own; \"on Friday\" is still the reminder's day")
    func taskEndingInOn() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("remind me to put the kettle on in TasksNotes", "TasksNotes", "INAddTasksIntent", ["taskTitles": "put the kettle on"]),
            ("In TasksNotes remind me to switch the porch light on", "TasksNotes", "INAddTasksIntent", ["taskTitles": "switch the porch light on"]),
            ("remind me to let the cat in using MonkeyTodo", "TasksNotes", "INAddTasksIntent", ["taskTitles": "let the cat in"]),
            ("note that the oven is on in TasksNotes", "TasksNotes", "INCreateNoteIntent", ["content": "the oven is on"]),
        ], by: assistant)
        _ = await expectReminder("remind me to call mum on friday in TasksNotes", task: "call mum", due: "friday", by: assistant)
        _ = await expectReminder("remind me to turn the heating on at 6 pm in TasksNotes", task: "turn the heating on", due: "at 6 pm", by: assistant)
        // The channel word with the app's name right after it is still the carrier, not the message's.
        let carrier = await assistant.reading(of: "tell Bobo on MonkeyChat")
        #expect(carrier != .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo", "content": "on"]), "\(carrier)")
    }

    @Test("a verb that is the attribute sets it: \"flag Bobo's last message\" is flagged, not \"How do you want to mark it?\"")
    func flagIsTheAttribute() async throws {
        let assistant = try makeAssistant(recognizer: false)
        let expected = ["Flag Bobo's last message on MonkeyChat": "flagged", "Flag the message from Little Bobo in MonkeyChat": "flagged",
                        "MonkeyChat, unflag the last message from Bobo": "unflagged"]
        for (text, attribute) in expected {
            let reading = await assistant.reading(of: text)
            guard case .understood("MonkeyChat", "INSetMessageAttributeIntent", let slots) = reading else {
                Issue.record("\(text): \(reading)")
                continue
            }
            #expect(slots["attribute"] == attribute, "\(text): \(slots)")
        }
    }

    @Test("what was said first is what 'it' and 'them' point at: the thing that ran out, the task finished")
    func pointingBack() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // None of these is in a batch; each was "not understood" before ("add it" says nothing by itself).
        await expectReadings([
            ("We're out of eggs and butter, put them on the grocery list in ListOMat", "ListOMat", "INAddTasksIntent",
             ["targetTaskList": "Grocery", "taskTitles": "eggs and butter"]),
            ("I'm running low on coffee so add it to my shopping list in TasksNotes", "TasksNotes", "INAddTasksIntent",
             ["targetTaskList": "Shopping", "taskTitles": "coffee"]),
        ], by: assistant)
        #expect(await assistant.read("remind me to water the plants in TasksNotes").code == "success")
        let ticked = await assistant.read("MonkeyTodo, I finished water the plants, tick it off")
        #expect(ticked.code == "success" && ticked.slots == ["targetTask": "water the plants", "status": "completed"], "\(ticked.slots): \(ticked.speech)")
        // Without the app named it is someone telling what they did.
        #expect(await assistant.reading(of: "I finished water the plants, tick it off") == .notUnderstood)
        // Running out of something with no list to put it on is no request.
        await expectNotUnderstood(["We're out of time", "I'm out of breath, add it up later", "We're out of milk"], by: assistant)
    }

    @Test("free text keeps to its carrier: chit-chat, other assistants' commands and unrelated sentences are not actions")
    func freeTextInItsPlace() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectNotUnderstood(["Put the kettle on", "Make a sandwich", "Set a timer for ten minutes", "Start a run on Strava",
                                   "Add milk to my Todoist", "Stop", "Add a little salt",
                                   // Free text that only points at something said elsewhere (before: a note saying "down").
                                   "Note that down", "Text Bobo that", "Add it to my list in TasksNotes", "note this down in TasksNotes",
                                   // Heard: words that name no one thing to write, a carrier with nothing after it, words
                                   // stopping on an article (before: a note "like the", a task "you", a payment's note "a").
                                   "new note like the", "make a note called in TasksNotes", "i owe bobo ten dollars with a note a"], by: assistant)
        #expect(Assistant.saysNothing(["you"]) && Assistant.saysNothing(["called"]) && Assistant.saysNothing(["like", "the"]))
        #expect(!Assistant.saysNothing(["call", "you"]) && !Assistant.saysNothing(["the", "bananas"]) && !Assistant.saysNothing(["a", "call"]))
        // The carriers still work, and the free text stops where the next part starts.
        #expect(await assistant.reading(of: "Send Bobo a MonkeyChat saying where are you")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo", "content": "where are you"]))
        #expect(await assistant.reading(of: "Create a to-do list called chores in TasksNotes")
            == .understood(app: "TasksNotes", intent: "INCreateTaskListIntent", slots: ["title": "chores"]))
    }

    @Test("a message asked for without its words is asked for, and the app's name is never the message")
    func messageWithoutContent() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Before, the carrier's last word or the app's name was the message:
        // "send Bobo a message" said "message", "message Bobo on MonkeyChat" said "on monkey chat".
        for text in ["Send Bobo a message", "Send Bobo a message on MonkeyChat", "Text Bobo", "Message Bobo on MonkeyChat",
                     "Write Bobo a quick note on MonkeyChat", "Send Bobo a MonkeyChat", "Drop Bobo a line", "Send Bobo a text"] {
            #expect(await assistant.reading(of: text)
                == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo"]), "\"\(text)\"")
        }
        let asked = await assistant.read("Send Bobo a message on MonkeyChat")
        #expect(asked.prompt)
        #expect(asked.speech.hasSuffix("What do you want to say to Bobo?"), "\(asked.speech)")
        #expect(await assistant.read("please send more bananas").slots["content"] == "please send more bananas")

        // Free text never holds the name of the app it goes to...
        #expect(await assistant.reading(of: "Tell Bobo on MonkeyChat") == .notUnderstood)
        #expect(await assistant.reading(of: "Remind me to open MonkeyChat") == .notUnderstood)
        #expect(await assistant.reading(of: "Tell Bobo hello on MonkeyChat")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo", "content": "hello"]))
        // ...but another app, named inside a request to a named app, is just words.
        guard case .understood(app: "TasksNotes", intent: "INAddTasksIntent", let slots) = await assistant.reading(of: "Remind me to open MonkeyChat in TasksNotes") else {
            Issue.record("a reminder to open MonkeyChat was not made in TasksNotes")
            return
        }
        #expect(slots["taskTitles"] == "open monkey chat")
    }

    @Test("an app's name typed as one word, in any case, is the app's name")
    func appNameTypedAsOneWord() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Before, "monkeychat" was one unknown word: free text, or nothing.
        #expect(await assistant.reading(of: "message bobo on monkeychat")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo"]))
        #expect(await assistant.reading(of: "monkeychat, bobo please send more bananas")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo", "content": "please send more bananas"]))
        #expect(await assistant.reading(of: "in listomat add apples to the grocery list")
            == .understood(app: "ListOMat", intent: "INAddTasksIntent", slots: ["taskTitles": "apples", "targetTaskList": "Grocery"]))
        _ = await assistant.read("create a list called chores")
        let chosen = await assistant.read("TASKSNOTES")
        #expect(chosen.app == "TasksNotes", "\(chosen.speech)")
        #expect(chosen.heard == "TASKSNOTES")
    }

    @Test("a verb that says the task is done sets its status: no \"Done or not done?\"")
    func verbIsTheStatus() async throws {
        let assistant = try makeAssistant(recognizer: false)
        for (task, done) in [("buy milk", "tick off buy milk in TasksNotes"), ("call mom", "cross call mom off my reminders list in TasksNotes"),
                             ("water the plants", "in TasksNotes I finished water the plants")] {
            #expect(await assistant.read("remind me to \(task) in TasksNotes").code == "success")
            let marked = await assistant.read(done)
            #expect(marked.code == "success", "\(done): \(marked.speech)")
            #expect(marked.slots["status"] == "completed", "\(done): \(marked.slots)")
        }
        // Without the app named, "I did ..." is someone telling what they did.
        #expect(await assistant.reading(of: "I finished my run this morning, ten kilometers") == .notUnderstood)
        #expect(await assistant.read("add the dishes to my reminders in TasksNotes").code == "success")
        #expect(await assistant.reading(of: "I did the dishes") == .notUnderstood)
        #expect(await assistant.reading(of: "TasksNotes, I did the dishes")
            == .understood(app: "TasksNotes", intent: "INSetTaskAttributeIntent", slots: ["targetTask": "the dishes", "status": "completed"]))
        // "Done" or "not done" said as such still reads as before.
        #expect(await assistant.read("mark buy milk as not done in TasksNotes").slots["status"] == "notCompleted")
    }

    @Test("a task to tick off is one TasksNotes has: its tasks are its vocabulary, from the moment they are added")
    func tasksAreVocabulary() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // No such task: nothing to mark, and no free text to take the words as one.
        await expectNotUnderstood(["tick off walk the dog", "set that a done", "mark walk the dog as done"], by: assistant)
        // Typed with the app named, "mark" names the task meant: the app says it has none (heard, only its tasks are words).
        let missing = await assistant.read("mark walk the dog as done in TasksNotes")
        #expect(missing.app == "TasksNotes" && missing.code == "prompt" && missing.speech.contains("couldn't find a task called Walk the Dog"), "\(missing.speech)")
        #expect(await assistant.read("remind me to walk the dog in TasksNotes").code == "success")
        let marked = await assistant.read("tick off walk the dog")
        #expect(marked.app == "TasksNotes" && marked.code == "success", "\(marked.speech)")
        #expect(marked.slots == ["targetTask": "walk the dog", "status": "completed"])
        // Named as the app has it, not as typed.
        #expect(await assistant.reading(of: "mark BUY iPhone as done in TasksNotes")
            == .understood(app: "TasksNotes", intent: "INSetTaskAttributeIntent", slots: ["targetTask": "buy iPhone", "status": "completed"]))
    }

    @Test("asides, the app asked like a person, possessives and numbers run into their units")
    func everydayPhrasings() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Each was "not understood" before (models/dev/requests-2.jsonl, written before the grammars were widened).
        let cases: [(String, String, String, [String: String])] = [
            ("Actually cancel that MonkeyRide", "MonkeyRide", "INCancelRideIntent", [:]),
            ("MonkeyRide, I changed my mind, cancel the car", "MonkeyRide", "INCancelRideIntent", [:]),
            ("Hang on, pause my swim on MonkeyFit", "MonkeyFit", "INPauseWorkoutIntent", ["workoutName": "Swim"]),
            ("Can MonkeyRide get me a Monkey Pool from home to downtown", "MonkeyRide", "INRequestRideIntent",
             ["pickupLocation": "home", "dropOffLocation": "downtown", "rideOptionName": "monkey-pool"]),
            ("Book a Banana Car for two people to the zoo with MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["dropOffLocation": "the zoo", "partySize": "2", "rideOptionName": "banana-car"]),
            ("Please mark all of Bobo's MonkeyChat messages as read", "MonkeyChat", "INSetMessageAttributeIntent", ["sender": "Bobo", "attribute": "read"]),
            ("Track a 5k run for me with MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Run", "goal": "five k"]),
            ("Did Bobo write back yet on MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", ["senders": "Bobo"]),
            ("Hey, what's my MonkeyPay balance", "MonkeyPay", "INSearchForAccountsIntent", [:]),
        ]
        await expectReadings(cases, by: assistant)
        // A possessive inside free text stays as typed.
        #expect(await assistant.reading(of: "remind me to call Bobo's mom in TasksNotes")
            == .understood(app: "TasksNotes", intent: "INAddTasksIntent", slots: ["taskTitles": "call Bobo's mom"]))
    }

    @Test("everyday verbs and questions: stick on a list, pay me back, is there enough money, what have I got on, note to self, start me on, cancel it, lemme see")
    func everydayVerbs() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Written beside the third batch's misses of the same kind (none of these is in a batch); each was "not understood" before.
        let cases: [(String, String, String, [String: String])] = [
            ("Stick milk on the grocery list in ListOMat", "ListOMat", "INAddTasksIntent", ["targetTaskList": "Grocery", "taskTitles": "milk"]),
            ("Stick eggs onto my shopping list in TasksNotes", "TasksNotes", "INAddTasksIntent", ["targetTaskList": "Shopping", "taskTitles": "eggs"]),
            // Typed only (`(typed: throw | pop | chuck)`): heard, "throw" was "show".
            ("Chuck bread on the grocery list in ListOMat", "ListOMat", "INAddTasksIntent", ["targetTaskList": "Grocery", "taskTitles": "bread"]),
            ("Pop eggs onto my shopping list in TasksNotes", "TasksNotes", "INAddTasksIntent", ["targetTaskList": "Shopping", "taskTitles": "eggs"]),
            ("Ask Bobo to pay me back five dollars on MonkeyPay", "MonkeyPay", "INRequestPaymentIntent", ["payer": "Bobo", "currencyAmount": "five dollars"]),
            ("Is there enough money in my MonkeyPay checking account", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Checking"]),
            ("What have I got on my shopping list in TasksNotes", "TasksNotes", "INSearchForNotebookItemsIntent", ["title": "Shopping", "itemType": "taskList"]),
            ("what do I need to buy from the grocery list in ListOMat", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "grocery"]),
            ("Check my grocery list on ListOMat", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "grocery"]),
            ("Note to self buy stamps in TasksNotes", "TasksNotes", "INCreateNoteIntent", ["content": "buy stamps"]),
            ("Could MonkeyFit start me on a ten k run", "MonkeyFit", "INStartWorkoutIntent", ["goal": "ten k", "workoutName": "Run"]),
            ("MonkeyPay lemme see my code", "MonkeyPay", "INGetVisualCodeIntent", [:]),
            ("Cancel it on MonkeyFit", "MonkeyFit", "INCancelWorkoutIntent", [:]),
            ("I'd like a new list in ListOMat called camping", "ListOMat", "INCreateTaskListIntent", ["title": "camping"]),
            ("What are my options for getting to the zoo on MonkeyRide", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the zoo"]),
            ("Is there any way MonkeyRide could take me downtown", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "downtown"]),
            ("Arrange a MonkeyRide to the zoo", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "the zoo"]),
            // "for me" and "please" after a place are not the place.
            ("Book a ride to Union Station for me please with MonkeyRide", "MonkeyRide", "INRequestRideIntent", ["dropOffLocation": "Union Station"]),
        ]
        await expectReadings(cases, by: assistant)
        // Still nobody's request: no list, no app.
        await expectNotUnderstood(["Throw the ball in the garden", "Stick it on the fridge", "Is there enough money for a holiday", "Cancel it",
                                   "What are my options", "I'd like a new phone"], by: assistant)
    }

    @Test("a place on no list, after 'to', 'from' or 'at', is taken as the person says it, since the app takes any place; a listed place is still the list's")
    func placesBeyondTheList() async throws {
        let assistant = try makeAssistant(recognizer: false)
        let cases: [(String, [String: String])] = [
            ("Get me a ride to Union Station with MonkeyRide", ["dropOffLocation": "Union Station"]),
            ("Book a MonkeyRide from Maple Street to Pier 39", ["pickupLocation": "Maple Street", "dropOffLocation": "Pier 39"]),
            ("MonkeyRide, take me to the train station", ["dropOffLocation": "the station"]),
            ("Get me a cab to Union Square for two people with MonkeyRide", ["dropOffLocation": "Union Square", "partySize": "2"]),
            // Typed in lower case, as a place is heard: written as a name.
            ("get me a ride to union station with monkeyride", ["dropOffLocation": "Union Station"]),
            ("Get me a ride from the grand hotel to bank of america with MonkeyRide",
             ["pickupLocation": "the Grand Hotel", "dropOffLocation": "Bank of America"]),
            ("Get me from work to home in a Monkey Pool on MonkeyRide",
             ["pickupLocation": "work", "dropOffLocation": "home", "rideOptionName": "monkey-pool"]),
        ]
        for (text, slots) in cases {
            #expect(await assistant.reading(of: text) == .understood(app: "MonkeyRide", intent: "INRequestRideIntent", slots: slots),
                    "\"\(text)\"")
        }
        // Named no app, a place on no list is no request: a song is not a ride.
        #expect(await assistant.reading(of: "Take me to church") == .notUnderstood)
        #expect(await assistant.reading(of: "Take me to the airport") == .understood(
            app: "MonkeyRide", intent: "INRequestRideIntent", slots: ["dropOffLocation": "the airport"]))
        // The app's name is never the place.
        if case .understood(_, _, let slots) = await assistant.reading(of: "Get me a ride to MonkeyRide") {
            #expect(slots["dropOffLocation"]?.lowercased() != "monkey ride")
        }
        let booked = await assistant.read("Get me a ride to Union Station with MonkeyRide")
        #expect(booked.speech.contains("Union Station"), "\(booked.speech)")
    }

    @Test("a typed request beside a remark or another sentence is read when it names its app")
    func requestBesideARemark() async throws {
        let assistant = try makeAssistant(recognizer: false)
        #expect(await assistant.reading(of: "So I'm late, get me a ride to work on MonkeyRide")
            == .understood(app: "MonkeyRide", intent: "INRequestRideIntent", slots: ["dropOffLocation": "work"]))
        #expect(await assistant.reading(of: "Bring up my MonkeyPay code, I'm at the counter")
            == .understood(app: "MonkeyPay", intent: "INGetVisualCodeIntent", slots: [:]))
        // A sentence beside it, as a transcript or a person types: before,
        // "not understood" (models/dev/requests-3.jsonl).
        #expect(await assistant.reading(of: "Can you mark run five k as done in MonkeyTodo? I did it this morning")
            == .understood(app: "TasksNotes", intent: "INSetTaskAttributeIntent", slots: ["targetTask": "run five k", "status": "completed"]))
        #expect(await assistant.reading(of: "Hi there. Get me a ride to the airport with MonkeyRide. Thanks!")
            == .understood(app: "MonkeyRide", intent: "INRequestRideIntent", slots: ["dropOffLocation": "the airport"]))
        // A full stop after an abbreviation is no sentence's end.
        #expect(Assistant.clauseBreaks(in: "tell Bobo Jr. sent it; ok? Yes. No.").count == 3)
        // Without the app's name the remark may be the point: nothing is done.
        await expectNotUnderstood(["When you get home, remind me to call mom", "If Bobo calls, tell him I'm out", "Honestly, add salt",
                                   "Is it raining? Take me to the airport"], by: assistant)
    }

    @Test("a typed request wrapped in words of its own, politely or not, is read when the text names its app; talk about a request is not one")
    func requestInsideOtherWords() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Each was "not understood" before (models/dev/requests-3.jsonl, as written: 30.2% read right).
        #expect(await assistant.reading(of: "Would you be so kind as to send a message to Bobo the Great on MonkeyChat saying thank you for the lovely flowers")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo the Great", "content": "thank you for the lovely flowers"]))
        #expect(await assistant.reading(of: "Yo MonkeyChat, tell Bobo Jr. I'm gonna be at the skate park")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo Jr.", "content": "I'm gonna be at the skate park"]))
        #expect(await assistant.reading(of: "I was wondering if you could pay Bobo ten dollars on MonkeyPay")
            == .understood(app: "MonkeyPay", intent: "INSendPaymentIntent", slots: ["payee": "Bobo", "currencyAmount": "ten dollars"]))
        #expect(await assistant.reading(of: "MonkeyFit, that's enough for today, end the run")
            == .understood(app: "MonkeyFit", intent: "INEndWorkoutIntent", slots: ["workoutName": "Run"]))
        // Telling of a request, mentioning an app, or a request in fewer than half the words: nothing is done.
        await expectNotUnderstood(["Did MonkeyFit record my walk yesterday", "I told MonkeyRide to take me home last night", "My MonkeyChat keeps crashing",
                                   "Honestly I think MonkeyRide should take me to the airport for free", "If I had money I'd pay Bobo back"], by: assistant)
    }

    @Test("a message to someone on an app that is not installed is not a MonkeyChat message")
    func messageOnAnotherApp() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Before: a MonkeyChat message saying "on monkey mail saying hello".
        await expectNotUnderstood(["Send a message to Bobo on MonkeyMail saying hello", "Message Bobo on Signal saying I'm outside",
                                   "Text Bobo with WhatsApp saying I'm here",
                                   // Before: a MonkeyChat message saying "on telegram".
                                   "Text Bobo on Telegram", "message Bobo via WhatsApp", "Text Bobo using the Slack app",
                                   "tell Bobo with the Signal app", "Text Bobo on iMessage that I'm home",
                                   // Before: MonkeyChat messages saying "over viber" and "voice note on telegram" (models/dev/requests-5.jsonl).
                                   "Send a text to Bobo over Viber", "Send Bobo a voice note on Telegram", "Send Bobo a photo via WhatsApp",
                                   "send Bobo a message over Signal"], by: assistant)
        // A message that happens to start with "on ..." is still the message...
        #expect(await assistant.reading(of: "text Bobo saying on my way")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo", "content": "on my way"]))
        for (text, content) in [("Text Bobo on my way", "on my way"), ("text Bobo on time", "on time"), ("tell Bobo with love", "with love"),
                                ("Text Bobo on Monday", "on Monday"), ("tell Bobo in the morning that I'll call", "in the morning that I'll call"),
                                ("Text Bobo via the back door", "via the back door"), ("Text Bobo on the train", "on the train"),
                                ("Text Bobo on it", "on it"), ("Text Bobo over lunch", "over lunch"),
                                ("tell Bobo message me on my way", "message me on my way"), ("tell Bobo text me on Monday", "text me on Monday")] {
            #expect(await assistant.reading(of: text)
                == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo", "content": content]),
                "\"\(text)\"")
        }
        // ...and when MonkeyChat is named, its words are whatever follows the carrier.
        #expect(await assistant.reading(of: "text Bobo on MonkeyChat saying in the car saying hi")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo", "content": "in the car saying hi"]))
    }

    @Test("the app's name before what it names ('a TasksNotes note'), the app named with only a verb ('MonkeyFit pause'), and everyday questions")
    func appNamedAsPeopleDo() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Each was not understood before.
        let cases: [(String, String, String, [String: String])] = [
            ("Make a TasksNotes note called Packing", "TasksNotes", "INCreateNoteIntent", ["title": "Packing"]),
            ("Create a ListOMat list called camping", "ListOMat", "INCreateTaskListIntent", ["title": "camping"]),
            ("Check my MonkeyPay account", "MonkeyPay", "INSearchForAccountsIntent", [:]),
            ("How much money have I got left in MonkeyPay", "MonkeyPay", "INSearchForAccountsIntent", [:]),
            ("Tip my MonkeyRide driver two dollars", "MonkeyRide", "INSendRideFeedbackIntent", ["tip": "two dollars"]),
            ("Give him four stars on MonkeyRide", "MonkeyRide", "INSendRideFeedbackIntent", ["rating": "4"]),
            ("Rate that ride three stars on MonkeyRide", "MonkeyRide", "INSendRideFeedbackIntent", ["rating": "3"]),
            ("How long until my driver gets here on MonkeyRide", "MonkeyRide", "INGetRideStatusIntent", [:]),
            ("How much is MonkeyRide to the zoo", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the zoo"]),
            ("MonkeyRide, cancel please", "MonkeyRide", "INCancelRideIntent", [:]),
            ("Any missed calls on MonkeyChat?", "MonkeyChat", "INSearchCallHistoryIntent", ["callTypes": "missed"]),
            ("Did anybody text me on MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", [:]),
            ("What's new in MonkeyChat", "MonkeyChat", "INSearchForMessagesIntent", [:]),
            ("MonkeyChat mark everything read", "MonkeyChat", "INSetMessageAttributeIntent", ["attribute": "read"]),
            ("Where's my QR code in MonkeyPay", "MonkeyPay", "INGetVisualCodeIntent", [:]),
            ("MonkeyFit pause", "MonkeyFit", "INPauseWorkoutIntent", [:]),
            ("MonkeyFit, resume please", "MonkeyFit", "INResumeWorkoutIntent", [:]),
            ("MonkeyFit stop my workout", "MonkeyFit", "INEndWorkoutIntent", [:]),
            ("MonkeyFit cancel", "MonkeyFit", "INCancelWorkoutIntent", [:]),
            ("MonkeyFit, I'm heading out for a walk", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Walk"]),
            ("Time for yoga, MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Yoga"]),
            // The sixth batch's misses, as written.
            ("Mark all my MonkeyChat messages as read", "MonkeyChat", "INSetMessageAttributeIntent", ["attribute": "read"]),
            ("How much is in my Banana Fund on MonkeyPay", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Banana Fund"]),
            ("What ride options does MonkeyRide have to the beach?", "MonkeyRide", "INListRideOptionsIntent", ["dropOffLocation": "the beach"]),
            ("Give my last MonkeyRide driver five stars", "MonkeyRide", "INSendRideFeedbackIntent", ["rating": "5"]),
            ("Hey, can you text Bobo on MonkeyChat and tell him I'm on my way", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I'm on my way"]),
        ]
        await expectReadings(cases, by: assistant)
        #expect(await assistant.reading(of: "Pay Bobo 5 dollars on MonkeyPay with a note saying lunch")
            == .understood(app: "MonkeyPay", intent: "INSendPaymentIntent", slots: ["payee": "Bobo", "currencyAmount": "five dollars", "note": "lunch"]))
        // Without the app's name these say too little to be anyone's request.
        await expectNotUnderstood(["give her five stars", "time for a run", "pause", "cancel", "what's new", "any missed calls?",
                                   "where is my code", "how long until it gets here"], by: assistant)
    }

    @Test("typed, a list named before 'list' that the app does not have is the list, not part of the task; the app says it has none")
    func listOnNoList() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Before: a task "sunscreen to the Beach list" on ListOMat's default list.
        for (text, app, list, task) in [("On ListOMat add sunscreen to the Beach list", "ListOMat", "Beach", "sunscreen"),
                                        ("add sunscreen to the beach list in ListOMat", "ListOMat", "Beach", "sunscreen"),
                                        ("TasksNotes, add pick up dry cleaning to my Errands list", "TasksNotes", "Errands", "pick up dry cleaning"),
                                        // a list the app has is its own name
                                        ("add milk to the grocery list in ListOMat", "ListOMat", "Grocery", "milk")] {
            #expect(await assistant.reading(of: text)
                == .understood(app: app, intent: "INAddTasksIntent", slots: ["targetTaskList": list, "taskTitles": task]), "\"\(text)\"")
        }
        // "to do list" is no list's name.
        #expect(await assistant.reading(of: "add eggs to my to do list in TasksNotes")
            == .understood(app: "TasksNotes", intent: "INAddTasksIntent", slots: ["taskTitles": "eggs"]))
        // No app named: a list on no list is no request.
        #expect(await assistant.reading(of: "add sunscreen to the beach list") == .notUnderstood)
        let turn = await assistant.read("add sunscreen to the beach list in ListOMat")
        #expect(turn.app == "ListOMat" && turn.speech.hasPrefix("There's no list called Beach."), "\(turn.speech)")
    }

    @Test("a typed name no contact list has reaches the app named, which says whom it knows; unnamed, it is no request")
    func nameNoListHas() async throws {
        let assistant = try makeAssistant(recognizer: false)
        // Before: not understood, as if nothing had been asked.
        #expect(await assistant.reading(of: "MonkeyChat Mary I'm running ten minutes late")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Mary", "content": "I'm running ten minutes late"]))
        #expect(await assistant.reading(of: "Call Mary Ann Smith on MonkeyChat please")
            == .understood(app: "MonkeyChat", intent: "INStartAudioCallIntent", slots: ["contacts": "Mary Ann Smith"]))
        // A contact the app has is its name, not a new one.
        #expect(await assistant.reading(of: "MonkeyChat Bobo Jr. I'm late")
            == .understood(app: "MonkeyChat", intent: "INSendMessageIntent", slots: ["recipients": "Bobo Jr.", "content": "I'm late"]))
        // No app named: a name on no list is no request ("Tell Alexa ..." is for another assistant).
        await expectNotUnderstood(["Text Mary I'm late", "Tell Alexa to turn off the lights", "Ask Google what the weather is",
                                   // typed in lower case, no name is known to be one
                                   "MonkeyChat mary I'm late"], by: assistant)
        // An app's name is never the person: this is a ride.
        #expect(await assistant.reading(of: "Tell MonkeyRide to get me a car")
            == .understood(app: "MonkeyRide", intent: "INRequestRideIntent", slots: [:]))

        let chat = await assistant.read("MonkeyChat Mary I'm running late")
        #expect(chat.app == "MonkeyChat" && chat.prompt, "\(chat.speech)")
        #expect(chat.speech == "I couldn't find Mary in your MonkeyChat contacts. Who do you want to message?")
        #expect(await assistant.read("cancel").code != "prompt")
        let pay = await assistant.read("Pay Mary 20 dollars on MonkeyPay")
        #expect(pay.speech.hasPrefix("Mary isn't one of your MonkeyPay contacts."), "\(pay.speech)")
    }

    @Test("TypedBench scores a reading: values compared case-blind, out-of-domain answers and 'Which app?' are false actions")
    func scoring() {
        let request = TypedRequest(text: "x", app: "A", intent: "I", slots: ["n": "Bobo"])
        #expect(TypedBench.score(request, .understood(app: "A", intent: "I", slots: ["n": "bobo"])).correct)
        #expect(!TypedBench.score(request, .understood(app: "A", intent: "I", slots: ["n": "Kiki"])).correct)
        #expect(TypedBench.score(request, .understood(app: "A", intent: "I", slots: ["n": "Kiki"])).intentCorrect)
        #expect(!TypedBench.score(request, .understood(app: "B", intent: "I", slots: ["n": "Bobo"])).intentCorrect)
        let nobody = TypedRequest(text: "y", intent: nil)
        #expect(TypedBench.score(nobody, .whichApp(intent: "I", apps: ["A", "B"])).falseAction)
        #expect(!TypedBench.score(nobody, .notUnderstood).falseAction)
    }
}

/// Each typed request of `cases` (text, app, intent, slots) is read by `assistant` as that app's intent with exactly those slots.
func expectReadings(_ cases: [(String, String, String, [String: String])], by assistant: Assistant,
                    sourceLocation: SourceLocation = #_sourceLocation) async {
    for (text, app, intent, slots) in cases {
        let reading = await assistant.reading(of: text)
        #expect(reading == .understood(app: app, intent: intent, slots: slots), "\"\(text)\": \(reading)", sourceLocation: sourceLocation)
    }
}

/// `text` read as a reminder: a task `task` due `due` (as said back). The turn, for what else is checked.
func expectReminder(_ text: String, task: String, due: String, by assistant: Assistant,
                    sourceLocation: SourceLocation = #_sourceLocation) async -> Turn {
    let turn = await assistant.read(text)
    #expect(turn.intent == "INAddTasksIntent" && turn.slots["taskTitles"] == task && turn.slots["temporalEventTrigger"] == due,
            "\(text): \(turn.slots)", sourceLocation: sourceLocation)
    return turn
}

/// Each of `texts` is read as no request at all.
func expectNotUnderstood(_ texts: [String], by assistant: Assistant, sourceLocation: SourceLocation = #_sourceLocation) async {
    for text in texts {
        let reading = await assistant.reading(of: text)
        #expect(reading == .notUnderstood, "\"\(text)\": \(reading)", sourceLocation: sourceLocation)
    }
}
