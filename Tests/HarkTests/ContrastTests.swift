import Foundation
@testable import Hark
import Testing

/// An alternative the person sets aside in the request itself ("not Bobo",
/// "rather than outdoors") is read as set aside; a "not …" that is part of
/// what a message or a list's item says stays in it.
@Suite struct ContrastTests {
    @Test("the alternative set aside is not read: a contact, a list, a place, a time not until")
    func setAside() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("Pay Bobo Jr., not Bobo, $30 on MonkeyPay for lunch", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo Jr.", "currencyAmount": "thirty dollars", "note": "lunch"]),
            ("Send Bobo the Great 40 dollars, not 50, for the concert tickets on MonkeyPay", "MonkeyPay", "INSendPaymentIntent",
             ["payee": "Bobo the Great", "currencyAmount": "forty dollars", "note": "the concert tickets"]),
            ("Not Bobo, text Little Bobo on MonkeyChat that the key is under the mat", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Little Bobo", "content": "the key is under the mat"]),
            ("On MonkeyChat, text Little Bobo (not Bobo, Little Bobo) that the car is ready whenever he is", "MonkeyChat",
             "INSendMessageIntent", ["recipients": "Little Bobo", "content": "the car is ready whenever he is"]),
            ("Start a Bananarific in MonkeyFit, indoors rather than outdoors", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Bananarific", "workoutLocationType": "indoor"]),
            ("Remind me in MonkeyTodo to water the plants, but not until Friday evening", "TasksNotes", "INAddTasksIntent",
             ["taskTitles": "water the plants", "temporalEventTrigger": "friday evening"]),
            // Set aside after the question; the value said after the request.
            ("What's my MonkeyPay balance? Not checking, the savings account", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Savings"]),
            ("Get a MonkeyRide from the office to the zoo for two of us, but not a Jungle Limo, a Monkey Pool will do", "MonkeyRide",
             "INRequestRideIntent", ["pickupLocation": "work", "dropOffLocation": "the zoo", "partySize": "2", "rideOptionName": "monkey-pool"]),
            ("Start a Bananarific in MonkeyFit, indoors rather than outdoors, it's pouring", "MonkeyFit", "INStartWorkoutIntent",
             ["workoutName": "Bananarific", "workoutLocationType": "indoor"]),
            // The list named before the request that refers back to it.
            ("Not the grocery list, the banana stash: add peanut butter to it in List-o-Mat", "ListOMat", "INAddTasksIntent",
             ["targetTaskList": "Banana Stash", "taskTitles": "peanut butter"]),
            // Not done one way, done another with the same verb.
            ("In MonkeyChat, don't mark Bobo's messages as read, mark them as unread", "MonkeyChat", "INSetMessageAttributeIntent",
             ["sender": "Bobo", "attribute": "unread"]),
        ], by: assistant)
    }

    @Test("a value said after the request in a clause of its own joins it; a message's words do not")
    func valueSaidAfter() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("Book a MonkeyRide to the zoo, make it a Monkey Pool", "MonkeyRide", "INRequestRideIntent",
             ["dropOffLocation": "the zoo", "rideOptionName": "monkey-pool"]),
            ("What's my MonkeyPay balance, the savings account", "MonkeyPay", "INSearchForAccountsIntent", ["accountNickname": "Savings"]),
            ("text Bobo on MonkeyChat I'm late, in the car", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo", "content": "I'm late, in the car"]),
        ], by: assistant)
    }

    @Test("a 'not …' that a message or a list's items say stays in them")
    func saidNotSetAside() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("tell Bobo on MonkeyChat that I'm fine, not sick", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "I'm fine, not sick"]),
            ("Add the good olive oil, not the cheap one, and eggs to the grocery list in ListOMat", "ListOMat", "INAddTasksIntent",
             ["targetTaskList": "Grocery", "taskTitles": "the good olive oil, not the cheap one, and eggs"]),
        ], by: assistant)
    }

    @Test("the one app named, set aside, is not the app meant")
    func appSetAside() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectNotUnderstood(["Pay Bobo 20 dollars on Venmo, not MonkeyPay"], by: assistant)
    }

    @Test("where the alternative is cut, and what is kept", arguments: [
        ("Not the grocery list, the banana stash: add peanut butter", "the banana stash: add peanut butter", ["the", "grocery", "list"]),
        ("Pay Bobo Jr., not Bobo, $30", "Pay Bobo Jr., $30", ["bobo"]),
        ("indoors rather than outdoors", "indoors", ["outdoors"]),
        ("water the plants, but not until Friday", "water the plants Friday", []),
    ])
    func cut(_ text: String, _ kept: String, _ setAside: [String]) throws {
        let contrast = try #require(Contrast(text))
        #expect(contrast.text.split(separator: " ") == kept.split(separator: " "))
        #expect(contrast.setAside == setAside)
    }

    @Test("not done one way, done another: the second, its pronoun read as the first's words", arguments: [
        ("In MonkeyChat, don't mark Bobo's messages as read, mark them as unread", "In MonkeyChat, mark bobo's messages as unread"),
        ("don't add it to the grocery list, add it to the banana stash", "add it to the banana stash"),
        ("Do not book a Jungle Limo; book a Monkey Pool to the zoo", "book a monkey pool to the zoo"),
    ])
    func doneOtherwise(_ text: String, _ kept: String) throws {
        let contrast = try #require(Contrast(text))
        #expect(contrast.text == kept)
        #expect(contrast.setAside.isEmpty)
    }

    @Test("a message that says not to do a thing and to do it another way says all of it")
    func doneOtherwiseDictated() async throws {
        let assistant = try makeAssistant(recognizer: false)
        await expectReadings([
            ("tell Bobo on MonkeyChat don't wait up, wait at the station", "MonkeyChat", "INSendMessageIntent",
             ["recipients": "Bobo", "content": "don't wait up, wait at the station"]),
        ], by: assistant)
        #expect(Contrast("don't worry, I'll be there") == nil)
    }

    @Test("'not' saying how, not which, is no contrast")
    func notAContrast() {
        #expect(Contrast("send it, not now") == nil)
        #expect(Contrast("Bobo is not coming") == nil)
        #expect(Contrast("I'm not sure, add eggs") == nil)
    }
}
