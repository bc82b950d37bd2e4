import Foundation
@testable import Hark
@testable import HarkGrammar
import HarkRecognition
import Testing

/// A request the person corrected once is read with the correction in place
/// of what it corrects; a correction that takes the request back, or two
/// corrections, are not read.
@Suite struct SelfCorrectionTests {
    @Test("the corrected value is taken: a contact, an amount, a list, an app, a place, a message's last words, a task's")
    func correctedValues() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("video call Bobo, no wait, Bobo Jr., on MonkeyChat", "MonkeyChat", "INStartVideoCallIntent", ["contacts": "Bobo Jr."]),
            ("call Bobo on MonkeyChat, no wait, Little Bobo", "MonkeyChat", "INStartAudioCallIntent", ["contacts": "Little Bobo"]),
            // "twenty" and "dollars" are two slots of one amount.
            ("send twenty dollars to Bobo on MonkeyPay, no wait, thirty dollars", "MonkeyPay", "INSendPaymentIntent",
             ["currencyAmount": "thirty dollars", "payee": "Bobo"]),
            ("send Bobo twenty dollars, no, thirty dollars, on MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["currencyAmount": "thirty dollars", "payee": "Bobo"]),
            // The correction starts again with the word before the value.
            ("send twenty dollars to Bobo on MonkeyPay, no wait, to Little Bobo", "MonkeyPay", "INSendPaymentIntent",
             ["currencyAmount": "twenty dollars", "payee": "Little Bobo"]),
            ("get me a ride to the airport with MonkeyRide, no wait, to the stadium", "MonkeyRide", "INRequestRideIntent",
             ["dropOffLocation": "the stadium"]),
            // The correction's own clause, then the rest of the request.
            ("add mangoes to the banana stash, no, papayas, ListOMat", "ListOMat", "INAddTasksIntent",
             ["taskTitles": "papayas", "targetTaskList": "Banana Stash"]),
            ("In ListOMat add apples, no wait, pears to the grocery list", "ListOMat", "INAddTasksIntent",
             ["taskTitles": "pears", "targetTaskList": "Grocery"]),
            // The last words of free text.
            ("send a message to Bobo on MonkeyChat saying meet at five no wait six", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "meet at six"]),
            ("remind me to buy apples in TasksNotes no wait pears", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "buy pears"]),
            // The words that end the request, said again.
            ("add call the plumber to my shopping note, no wait, to my house note in MonkeyNotes", "TasksNotes", "INAppendToNoteIntent",
             ["content": "call the plumber", "targetNote": "House"]),
            ("I want to FaceTime, I mean video chat, Little Bobo with MonkeyChat", "MonkeyChat", "INStartVideoCallIntent",
             ["contacts": "Little Bobo"]),
        ], by: assistant)
        // A list's name corrected by words that open like a place: the app,
        // not a list called "in tasks notes" (TasksNotes has no grocery list:
        // a new one, as when asked so directly).
        let app = await assistant.reading(of: "add eggs to my grocery list in ListOMat, no wait, in TasksNotes")
        #expect(app == (await assistant.reading(of: "add eggs to my grocery list in TasksNotes")), "\(app)")
        if case .understood(let name, _, let slots) = app { #expect(name == "TasksNotes" && slots["targetTaskList"] != "in tasks notes") }
    }

    @Test("typed corrections marked by a bare 'sorry' or 'wait' between commas, and a word said again after a hesitation")
    func sorryWaitAndRestarts() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("Request thirty, sorry, forty dollars from Little Bobo on MonkeyPay", "MonkeyPay", "INRequestPaymentIntent",
             ["currencyAmount": "forty dollars", "payer": "Little Bobo"]),
            ("Make a list, sorry, a new list called beach day in List-o-Mat", "ListOMat", "INCreateTaskListIntent", ["title": "beach day"]),
            // A bare "wait" ending a task's words is no part of the task.
            ("Mark buy iPhone as, wait, as not done in MonkeyTodo", "TasksNotes", "INSetTaskAttributeIntent",
             ["targetTask": "buy iPhone", "status": "notCompleted"]),
            // The correction starts again at the word it replaces.
            ("Show me the, um, the training list, I mean the packing list in TasksNotes", "TasksNotes", "INSearchForNotebookItemsIntent",
             ["title": "Packing", "itemType": "taskList"]),
            // A word said again after a hesitation, once.
            ("Um, List-o-Mat, show me the, uh, the banana stash", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "Banana Stash"]),
            ("MonkeyChat, um, mark the messages from Bobo Jr. as, uh, as read", "MonkeyChat", "INSetMessageAttributeIntent",
             ["attribute": "read", "sender": "Bobo Jr."]),
            // Typed in digits, the amount and the time as read: "$60" is "sixty dollars".
            ("send $20 to Bobo on MonkeyPay, no wait, $30", "MonkeyPay", "INSendPaymentIntent",
             ["currencyAmount": "thirty dollars", "payee": "Bobo"]),
            ("On MonkeyPay ask Little Bobo for $60 for the electric bill, actually no, make it $45", "MonkeyPay", "INRequestPaymentIntent",
             ["currencyAmount": "forty five dollars", "payer": "Little Bobo", "note": "the electric bill"]),
            // As many words as the correction, never 9:10 am.
            ("remind me at 9am, no wait, 10am, to call Bobo in TasksNotes", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "call bobo", "temporalEventTrigger": "ten a m"]),
            // Both: the restart, then the correction.
            ("Get me a ride to the, uh, the airport, no, the train station with MonkeyRide", "MonkeyRide", "INRequestRideIntent",
             ["dropOffLocation": "the station"]),
        ], by: assistant)
        // What a message says keeps the word said again: not "no" once.
        #expect(await assistant.reading(of: "Send a message to Bobo on MonkeyChat saying no, no, no") == .notUnderstood)
        // A message may mean it.
        #expect(!Assistant.correctsItself(typed: "I'm sorry, I mean it", saying: true))
        #expect(Assistant.correctsItself(typed: "the training list, I mean the packing"))
        #expect(Assistant.restartsDropped(from: "show me the, uh, the banana stash") == ("show me the banana stash", ["the"]))
    }

    @Test("heard as the recognizer gives it: lower case, no commas")
    func heard() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("call bobo on monkey chat no wait little bobo", "MonkeyChat", "INStartAudioCallIntent", ["contacts": "Little Bobo"]),
            ("send twenty dollars to bobo on monkey pay no wait thirty dollars", "MonkeyPay", "INSendPaymentIntent",
             ["currencyAmount": "thirty dollars", "payee": "Bobo"]),
        ], by: assistant)
    }

    @Test("a retraction heard at a request's end takes the request back when a word of it is heard surely; heard unsurely, it is dropped and the request taken")
    func retractionHeardAtTheEnd() async throws {
        let assistant = try makeAssistant(recognizer: false)
        /// The words of `text`, its last ones heard with `tail`'s confidences, the others at 0.9.
        func heard(_ text: String, tail: [Double]) -> [RecognizedWord] {
            let words = text.split(separator: " ").map(String.init)
            return words.enumerated().map { index, word in
                let back = words.count - index
                let confidence = back <= tail.count ? tail[tail.count - back] : 0.9
                return RecognizedWord(word: word, start: Double(index) * 0.3, end: Double(index + 1) * 0.3, confidence: confidence)
            }
        }
        #expect(Assistant.retractionTail("book a jungle limo with monkey ride no scratch that".split(separator: " ").map(String.init)) == 3)
        #expect(Assistant.retractionTail("pay little bobo ten dollars on monkey pay no wait forget it".split(separator: " ").map(String.init)) == 4)
        #expect(Assistant.retractionTail("tell bobo hi".split(separator: " ").map(String.init)) == nil)
        #expect(Assistant.retractionTail(["never", "mind"]) == nil)
        // Said (heard at 0.5 or more on average): the request is taken back.
        let said = "book a jungle limo to the river with monkey ride no scratch that"
        #expect(await assistant.withoutUnsureRetraction(heard(said, tail: [0.52, 0.79, 0.85])) == nil)
        #expect(await assistant.reading(of: said) == .notUnderstood)
        let sent = "send bobo fifty dollars on monkey pay no wait never mind"
        #expect(await assistant.withoutUnsureRetraction(heard(sent, tail: [0.51, 0.80, 0.33, 0.93])) == nil)
        #expect(await assistant.reading(of: sent) == .notUnderstood)
        // Heard in trailing speech the grammar does not cover ("… while I was in the shower", "… real quick").
        let calls = "did i miss any calls on monkey chat no wait cancel that"
        #expect(await assistant.withoutUnsureRetraction(heard(calls, tail: [0.03, 0.38, 0.0, 0.02])) == "did i miss any calls on monkey chat")
        #expect(await assistant.withoutUnsureRetraction(heard("can you call bobo the great on monkey chat forget it", tail: [0.04, 0.80]))
            == "can you call bobo the great on monkey chat")
        // What comes before is no request: nothing is kept.
        #expect(await assistant.withoutUnsureRetraction(heard("remind me to no wait never mind", tail: [0.1, 0.1, 0.1, 0.1])) == nil)
    }

    /// The heard endings live in code (``Assistant/heardEndings``), out of
    /// the grammar files, so that the search holds them once; these pin them
    /// to what they stand for. Each retraction the recognizer may hear is one
    /// the text stage reads as taking the request back, and the words they
    /// follow are exactly the heard words of `<via_text>`.
    @Test("the heard endings are retractions the text stage reads, after <via_text>'s heard words")
    func heardEndingsAgreeWithReader() throws {
        let request = "book a jungle limo with monkey ride".split(separator: " ").map(String.init)
        for ending in Assistant.heardEndings where ending != ["for", "me"] {
            #expect(Assistant.retractionTail(request + ending) == ending.count, "\(ending.joined(separator: " ")) is not read as taken back")
        }
        let path = Repo.models + "/domains/_common.hark"
        let common = try GrammarParser.parse(String(contentsOfFile: path, encoding: .utf8), path: path)
        /// The words an expression may be heard as, one word long, leaving out typed-only parts.
        func heardWords(_ expression: GrammarExpression) -> Set<String> {
            switch expression {
            case .word(let word): [word]
            case .alternatives(let items): items.reduce(into: Set<String>()) { $0.formUnion(heardWords($1)) }
            default: []
            }
        }
        var follow = Set<String>()
        guard case .alternatives(let choices)? = common.rules["via_text"] else {
            Issue.record("<via_text> in \(path) is no longer a choice of alternatives; read it again")
            return
        }
        for choice in choices {
            guard case .sequence(let parts) = choice, parts.count == 2, case .rule("app", _) = parts[1] else { continue }
            follow.formUnion(heardWords(parts[0]))
        }
        #expect(follow == Set(Assistant.heardEndingsFollow))
    }

    @Test("a correction that takes the request back, refuses, or is not a correction is not read as one", arguments: [
        "send Bobo twenty dollars on MonkeyPay, no wait, forget it, I'll give him cash",
        "Call Little Bobo on MonkeyChat, no wait, don't, he's asleep",
        "call Bobo on MonkeyChat, no wait, do not call him",
        "Start a Coconut Crunch in MonkeyFit, hmm, no, not today",
        "Book a MonkeyRide to the zoo, oh no, scratch that, we're walking",
        "Book a ride to the airport with MonkeyRide... hang on, scrap that, I'll drive myself",
        "Hey Siri, book a MonkeyRide to the station, wait, no, scratch that, I'll walk.",
        "remind me to, no wait, never mind",
        // A message whose words end by taking it back (typed, and heard without commas).
        "Text Little Bobo that I'm running late, actually never mind",
        "text little bobo on monkey chat that i'm running late actually never mind",
        "yeah, no, I totally agree with you",
        // Two corrections: which is meant is not clear.
        "call Bobo on MonkeyChat, no wait, Little Bobo, no wait, Bobo Jr.",
    ])
    func notCorrections(_ text: String) async throws {
        let assistant = try makeAssistant(recognizer: false)
        #expect(await assistant.reading(of: text) == .notUnderstood, "\(text)")
    }

    @Test("a 'no' that is the message's own word is no correction")
    func messageSaysNo() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("tell Bobo on MonkeyChat no, I can't come", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "no, I can't come"]),
        ], by: assistant)
        #expect(SelfCorrection("tell Bobo on MonkeyChat no, I can't come") == nil)
    }

    @Test("the words before and after the marker, the correction's own clause, and where a list's value may be replaced")
    func splitting() throws {
        let correction = try #require(SelfCorrection("add mangoes to the banana stash, no, papayas, ListOMat"))
        #expect(correction.before == ["add", "mangoes", "to", "the", "banana", "stash"])
        #expect(correction.after == ["papayas", "list", "o", "mat"])
        #expect(correction.correction == ["papayas"] && correction.rest == ["list", "o", "mat"])
        #expect(try #require(SelfCorrection("call Bobo, um, I mean Little Bobo")).after == ["little", "bobo"])
        #expect(SelfCorrection("no wait, call Bobo") == nil, "nothing before the marker")
        #expect(SelfCorrection("call Bobo no wait") == nil, "nothing after it")

        // "little bobo" is a list's value: replaced whole, never in part.
        let basis = Parse(app: "MonkeyChat", intent: "INStartAudioCallIntent",
                          slots: [SlotValue(name: "contacts", raw: "little bobo", value: "Little Bobo")], cost: 0, skipped: [])
        let call = try #require(SelfCorrection("call little bobo, no wait, bobo jr"))
        let texts = call.candidates(basis: basis).map(\.text)
        #expect(texts.first == "call bobo junior")
        #expect(!texts.contains("call little bobo junior"))
    }
}
