@testable import Hark
import Testing

/// A request said as the thing wanted, with words that only hurry, or
/// signed off to Hark, reads as the order it stands for; a statement, a
/// question or a message's own words do not.
@Suite struct NominalTests {
    @Test("the orders a thing wanted may stand for", arguments: [
        ("A Jungle Limo for four to the river with MonkeyRide is what we need", "get me a Jungle Limo for four to the river with MonkeyRide"),
        ("Payment of 25 dollars to Bobo via UnicornPay for the pizza needed", "make payment of 25 dollars to Bobo via UnicornPay for the pizza"),
        ("Time for an indoor Bananarific workout in MonkeyFit", "start an indoor Bananarific workout in MonkeyFit"),
        ("Coconuts and mangoes onto the banana stash in List-o-Mat", "add Coconuts and mangoes to the banana stash in List-o-Mat"),
    ])
    func orders(_ text: String, _ order: String) {
        #expect(Nominal.orders(for: text).map(\.text).contains(order), "\(Nominal.orders(for: text))")
    }

    @Test("a passive request is its verb's order")
    func passive() {
        #expect(Nominal.orders(for: "Bobo's messages flagged in MonkeyChat, please").map(\.text) == ["flag Bobo's messages in MonkeyChat, please"])
        #expect(Nominal.orders(for: "The task finish the slides marked as done in TasksNotes").map(\.text)
            == ["mark the task finish the slides as done in TasksNotes"])
        // Done, not wanted: an adverb before it, an object after it.
        #expect(Nominal.orders(for: "Bobo the Great just sent the funniest voice note on MonkeyChat").isEmpty)
        #expect(Nominal.orders(for: "Bobo sent the photos on MonkeyChat").isEmpty)
    }

    @Test("a statement, a question or an order is no thing wanted", arguments: [
        "My MonkeyFit workout was cancelled", "I need a ride", "Where is my MonkeyRide", "Can you flag Bobo's messages",
        "It's raining on MonkeyFit", "Please send Bobo a message", "Uninstall MonkeyChat", "water the plants done TasksNotes",
        "Little Bobo never reads his MonkeyChat messages, it drives me crazy",
    ])
    func notNominal(_ text: String) {
        #expect(Nominal.orders(for: text).isEmpty, "\(Nominal.orders(for: text))")
    }

    @Test("words that only hurry are left out", arguments: [
        ("Pay Bobo Jr. 50 dollars on MonkeyPay RIGHT NOW for the taxi!", "Pay Bobo Jr. 50 dollars on MonkeyPay for the taxi!"),
        ("request 30 bucks from Little Bobo ASAP for the tickets", "request 30 bucks from Little Bobo for the tickets"),
        ("Cancel my MonkeyRide immediately!!", "Cancel my MonkeyRide"),
    ])
    func urgency(_ text: String, _ calm: String) {
        #expect(Assistant.withoutUrgency(text) == calm)
    }

    @Test("no urgency, nothing left out")
    func noUrgency() {
        #expect(Assistant.withoutUrgency("Pay Bobo 5 dollars now") == nil)
        #expect(Assistant.withoutUrgency("ASAP") == nil)
    }

    @Test("a sign-off said to Hark is left out", arguments: [
        ("Hey Hark, text Bobo saying I'm late, thanks.", "Hey Hark, text Bobo saying I'm late"),
        ("send Little Bobo 15 dollars for lunch? Thanks Hark.", "send Little Bobo 15 dollars for lunch"),
        ("create a camping list with tent and torch. Over and out.", "create a camping list with tent and torch"),
        ("Hark, start a Vine Swing, that's all for now", "Hark, start a Vine Swing"),
    ])
    func signOff(_ text: String, _ plain: String) {
        #expect(Assistant.withoutSignOff(text) == plain)
    }

    @Test("thanks said to no one in particular may be the message's")
    func thanksKept() {
        #expect(Assistant.withoutSignOff("text Bobo saying see you soon, thanks") == nil)
        #expect(Assistant.withoutSignOff("Hark thanks") == nil)
    }
}
