import Foundation
@testable import Hark
import Testing

/// Answers as people give them, and what Hark does when an answer does not fit.
@Suite("Natural answers and repair")
struct RepairTests {
    static let ride = "Get me a Banana Car to the airport with MonkeyRide"

    @Test("yes and no in their common forms", arguments: [
        ("yeah sure", "success"), ("yes please book it", "success"), ("go ahead", "success"), ("book it", "success"),
        ("absolutely", "success"), ("nah", "cancelled"), ("nope", "cancelled"), ("no thanks", "cancelled"),
        ("don't book it", "cancelled"), ("hold on", "cancelled"),
        // Before, these four were "Sorry, I didn't get that."
        ("cancel that", "cancelled"), ("wait no", "cancelled"), ("not yet", "cancelled"), ("scratch that", "cancelled"),
    ])
    func yesNo(_ answer: String, _ code: String) async throws {
        let assistant = try makeAssistant(recognizer: false)
        #expect(await assistant.read(Self.ride).prompt)
        let turn = await assistant.read(answer)
        #expect(turn.code == code, "\(answer): \(turn.speech)")
    }

    @Test("a new request while a question is pending is taken as the new request, and Hark says so")
    func newRequest() async throws {
        let assistant = try makeAssistant(recognizer: false)
        #expect(await assistant.read("send a message to Bobo on MonkeyChat").speech == "What do you want to say to Bobo?")
        let turn = await assistant.read("In ListOMat show the grocery list")
        #expect(turn.app == "ListOMat" && turn.code == "success")
        #expect(turn.speech.hasPrefix("Okay, I've dropped the request to send a message to a contact. "))
        // And a yes/no question gives way to a request too.
        #expect(await assistant.read(Self.ride).prompt)
        let next = await assistant.read("In ListOMat show the grocery list")
        #expect(next.speech.hasPrefix("Okay, I've dropped the request to book a ride. ") && next.code == "success")
        #expect(!(await assistant.isAsking))
    }

    @Test("a dropped request is named by what it asked for, read from its intent's summary, never 'the request ride request'",
          arguments: [("Sends a message to a contact.", "send a message to a contact"),
                      ("Finds messages, optionally from one sender or with an attribute.", "find messages"),
                      ("Asks a contact for money.", "ask a contact for money"),
                      ("Shows a QR code (to pay, be paid, or share a contact).", "show a QR code"),
                      ("Searches the catalogue.", "search the catalogue"), ("Carries a bag.", "carry a bag"),
                      ("Does the dishes.", "do the dishes"), ("Order a drink", "order a drink"),
                      ("Pauses the current workout.", "pause the current workout")])
    func droppedRequestWords(_ summary: String, _ words: String) {
        #expect(Help.ability(summary: summary, firstClause: true) == words)
        #expect(Help.ability(summary: " ", firstClause: true) == nil)
    }

    @Test("'Where do you want to go?' takes a place on no list, as the request could have given it; a list place stays the list's",
          arguments: [("Union Station", "Union Station"), ("to the Grand Hotel", "the Grand Hotel"), ("the airport", "the airport"),
                      // Typed in lower case (as heard): written as a name.
                      ("to union station", "Union Station")])
    func placeOnNoList(_ answer: String, _ place: String) async throws {
        let assistant = try makeAssistant(recognizer: false)
        let question = await assistant.read("Get me a Banana Car with MonkeyRide")
        #expect(question.prompt && question.speech == "Where do you want to go?", "\(question.speech)")
        let turn = await assistant.read(answer)
        #expect(turn.slots["dropOffLocation"] == place, "\(answer): \(turn.slots) \(turn.speech)")
        #expect(turn.prompt && turn.code != "notUnderstood", "\(turn.speech)")
    }

    @Test("a request naming an app, said where a place on no list could be, is the new request")
    func newRequestForPlace() async throws {
        let assistant = try makeAssistant(recognizer: false)
        #expect(await assistant.read("Get me a Banana Car with MonkeyRide").speech == "Where do you want to go?")
        let turn = await assistant.read("In ListOMat show the grocery list")
        #expect(turn.app == "ListOMat" && turn.code == "success", "\(turn.speech)")
        #expect(turn.speech.hasPrefix("Okay, I've dropped the request to book a ride. "))
        #expect(!(await assistant.isAsking))
    }

    @Test("after two answers that do not fit, Hark gives up politely")
    func givesUp() async throws {
        let assistant = try makeAssistant(recognizer: false)
        #expect(await assistant.read(Self.ride).prompt)
        let first = await assistant.read("purple elephants")
        #expect(first.prompt && first.speech.hasPrefix("Sorry, I didn't get that."))
        let second = await assistant.read("purple elephants again")
        #expect(!second.prompt)
        #expect(second.code == "notUnderstood")
        #expect(second.speech == "Sorry, I'm having trouble understanding. Let's leave it there; you can ask again any time.")
        #expect(!(await assistant.isAsking))
    }
}

@Suite("Which app?")
struct WhichAppTests {
    @Test("'Which app?' is answered by the app's name in any form, or by ordinal", arguments: [
        ("TasksNotes", "TasksNotes"), ("in TasksNotes", "TasksNotes"), ("use List-o-Mat please", "ListOMat"),
        ("the second one", "TasksNotes"), ("the first one", "ListOMat"),
    ])
    func answered(_ answer: String, _ app: String) async throws {
        let assistant = try makeAssistant(recognizer: false)
        let question = await assistant.read("Create a list called chores")
        #expect(question.code == "whichApp" && question.prompt)
        #expect(question.speech == "Which app? List-o-Mat or TasksNotes?")
        let turn = await assistant.read(answer)
        // The request went to that app (which may ask its own question).
        #expect(turn.app == app, "\(answer): \(turn.speech)")
        #expect(!["whichApp", "notUnderstood"].contains(turn.code))
    }

    @Test("'Which app?' can be cancelled")
    func cancelled() async throws {
        let assistant = try makeAssistant(recognizer: false)
        _ = await assistant.read("Create a list called chores")
        #expect(await assistant.read("never mind").code == "cancelled")
        #expect(!(await assistant.isAsking))
    }
}
