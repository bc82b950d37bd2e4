import Foundation
import HarkEngine
import HarkIntents
import HarkTestSupport
import Testing

/// A handler that takes `delay` to handle (or hangs), for the time rules.
struct SlowHandler: IntentHandler {
    var delay: Duration
    func handle(_ intent: Intent) async throws -> IntentResponse {
        try await Task.sleep(for: delay)
        return IntentResponse(code: .success)
    }
}

/// A handler that answers only once the test opens its gate.
struct GatedHandler: IntentHandler {
    var gate: Gate
    func handle(_ intent: Intent) async throws -> IntentResponse {
        await gate.wait()
        return IntentResponse(code: .success)
    }
}

/// A typed MonkeyChat handler using only the defaults for resolve and confirm.
struct DefaultsOnlyHandler: INSendMessageIntentHandling {
    func handle(intent: INSendMessageIntent) async throws -> IntentResponse {
        IntentResponse(code: .success, output: ["to": intent.recipients?.displayName ?? "?"])
    }
}

/// A typed handler that confirms wrongly.
struct ConfirmsSuccessHandler: INSearchForAccountsIntentHandling {
    func confirm(intent: INSearchForAccountsIntent) async throws -> IntentResponse { IntentResponse(code: .success) }
    func handle(intent: INSearchForAccountsIntent) async throws -> IntentResponse { IntentResponse(code: .success) }
}

@Suite("Engine rules: time, typed handlers, confirm")
struct EngineRulesTests {
    @Test("a handler slower than the budget is reported in progress, then its result arrives")
    func slowHandler() async {
        let gate = Gate()
        let conversation = Conversation(intent: message(["recipients": "Bobo", "content": "hi"]), description: Domains.sendMessage,
                                        handler: GatedHandler(gate: gate),
                                        configuration: EngineConfiguration(progressBudget: .milliseconds(50), timeout: .seconds(120)))
        let readBack = await conversation.start()
        #expect(readBack.question == .confirmIntent)
        let first = await conversation.answer(.yes)
        #expect(first.code == .inProgress)
        #expect(first.speech == "MonkeyChat is still working on it. I'll tell you when it's done.")
        gate.open()
        let pending = try? #require(first.pending)
        let late = await pending?.result()
        #expect(late?.code == .success)
        #expect(late?.speech == "Your message to Bobo was sent.")
    }

    @Test("a handler that never answers fails at the hard timeout")
    func hungHandler() async {
        let conversation = Conversation(intent: message(["recipients": "Bobo", "content": "hi"]), description: Domains.sendMessage,
                                        handler: SlowHandler(delay: .seconds(3600)),
                                        configuration: EngineConfiguration(progressBudget: .milliseconds(20), timeout: .milliseconds(200)))
        let first = await conversation.startConfirmingReadBack()
        #expect(first.code == .inProgress)
        let late = await first.pending?.result()
        #expect(late?.code == .failure)
        #expect(late?.speech == "Sorry, MonkeyChat didn't answer in time.")
        #expect(late?.developerError?.contains("did not return within") == true)
    }

    @Test("a fast handler answers directly, with no pending result")
    func fastHandler() async {
        let reply = await Conversation(intent: message(["recipients": "Bobo", "content": "hi"]), description: Domains.sendMessage,
                                       handler: SlowHandler(delay: .zero)).startConfirmingReadBack()
        #expect(reply.code == .success)
        #expect(reply.pending == nil)
    }

    @Test("typed handlers: default resolution asks for required values and accepts given ones")
    func typedDefaults() async {
        let handler = INSendMessageIntent.handler(DefaultsOnlyHandler())
        let conversation = Conversation(intent: message(), description: Domains.sendMessage, handler: handler)
        #expect(await conversation.start().speech == "Who do you want to message?")
        #expect(await conversation.answer(.value(ParameterValue("Bobo"))).speech == "What do you want to say to Bobo?")
        let done = await conversation.answerConfirmingReadBack(.value(ParameterValue("hello")))
        #expect(done.code == .success)
        #expect(done.response?.output["to"] == "Bobo")
    }

    @Test("optional parameters are not asked for")
    func optionalNotAsked() async {
        struct Accounts: INSearchForAccountsIntentHandling {
            func handle(intent: INSearchForAccountsIntent) async throws -> IntentResponse { IntentResponse(code: .success) }
        }
        let intent = Intent(app: "MonkeyPay", name: "INSearchForAccountsIntent")
        let reply = await Conversation(intent: intent, description: INSearchForAccountsIntent.intentDescription,
                                       handler: INSearchForAccountsIntent.handler(Accounts())).start()
        #expect(reply.code == .success)
    }

    @Test("confirm answering success is the developer's mistake")
    func confirmSuccess() async {
        let intent = Intent(app: "MonkeyPay", name: "INSearchForAccountsIntent")
        let reply = await Conversation(intent: intent, description: INSearchForAccountsIntent.intentDescription,
                                       handler: INSearchForAccountsIntent.handler(ConfirmsSuccessHandler())).start()
        #expect(reply.code == .failure)
        #expect(reply.speech == "Sorry, MonkeyPay couldn't do that.")
        #expect(reply.developerError?.contains("confirm(intent:) answered 'success'") == true)
    }

    @Test("domains that confirm ask yes or no after confirm is ready, and no cancels")
    func confirmIntent() async {
        let handler = ScriptedHandler()
        let intent = Intent(app: "MonkeyPay", name: "INSendPaymentIntent", parameters: [
            "payee": ParameterValue("Bobo"),
            "currencyAmount": INCurrencyAmount(amount: 20).parameter, "note": ParameterValue("bananas"),
        ])
        let conversation = Conversation(intent: intent, description: INSendPaymentIntent.intentDescription, handler: handler)
        let asked = await conversation.start()
        #expect(asked.speech == "Send 20 dollars to Bobo?")
        #expect(asked.question == .confirmIntent)
        let no = await conversation.answer(.no)
        #expect(no.outcome == "cancelled")
        #expect(handler.handled.isEmpty)
    }

    @Test("failureRequiringAppLaunch carries the activity the app would open")
    func appLaunch() async {
        let handler = ScriptedHandler()
        handler.handleResponse = IntentResponse(code: .failureRequiringAppLaunch, message: "Verify it's you first.",
                                                userActivity: UserActivity(activityType: "com.example.monkeychat.verify"))
        let reply = await Conversation(intent: message(["recipients": "Bobo", "content": "hi"]), description: Domains.sendMessage,
                                       handler: handler).startConfirmingReadBack()
        #expect(reply.code == .failureRequiringAppLaunch)
        #expect(reply.speech == "Verify it's you first. You can continue in MonkeyChat.")
        #expect(reply.response?.userActivity?.activityType == "com.example.monkeychat.verify")
    }

    @Test("an app that keeps needing a value is stopped after a few asks")
    func loopGuard() async {
        let handler = ScriptedHandler()
        handler.resolutions["recipients"] = Array(repeating: .needsMoreDetails, count: 10)
        let conversation = Conversation(intent: message(["content": "hi"]), description: Domains.sendMessage, handler: handler)
        var reply = await conversation.start()
        var asks = 0
        while reply.question != nil, asks < 10 {
            asks += 1
            reply = await conversation.answer(.value(ParameterValue("Bobo")))
        }
        #expect(reply.code == .failure)
        #expect(asks < 10)
    }
}

@Suite("Typed values")
struct TypedValueTests {
    @Test("number words", arguments: [("twenty five", 25), ("a hundred", 100), ("two thousand and ten", 2010), ("eight", 8), ("42", 42)])
    func numbers(text: String, value: Int) {
        #expect(NumberWords.parse(text) == value)
    }

    @Test("an amount of money from its grammar parts")
    func currencyAmount() throws {
        let value = ParameterValue(spoken: "twenty five dollars", value: "twenty five dollars", parts: ["amount": "25", "currencyCode": "USD"])
        let amount = try #require(INCurrencyAmount(parameter: value))
        #expect(amount.amount == 25)
        #expect(amount.currencyCode == "USD")
        #expect(amount.description == "25 dollars")
        #expect(INCurrencyAmount(parameter: amount.parameter) == amount)
        // Said without a currency ("move five hundred from savings"): dollars,
        // not a currency named "hundred" read from the words.
        let bare = try #require(INCurrencyAmount(parameter: ParameterValue(spoken: "five hundred", value: "five hundred", parts: ["amount": "500"])))
        #expect(bare.amount == 500 && bare.currencyCode == "USD")
        #expect(INCurrencyAmount(parameter: ParameterValue("20 EUR"))?.currencyCode == "EUR")
        // Cents are said as two digits: "3.50 dollars", never "3.5 dollars".
        #expect(INCurrencyAmount(parameter: ParameterValue("3.5 USD"))?.description == "3.50 dollars")
        #expect(INCurrencyAmount(parameter: ParameterValue("12.99 USD"))?.description == "12.99 dollars")
        #expect(INCurrencyAmount(parameter: ParameterValue("0.5 GBP"))?.description == "0.50 pounds")
    }

    @Test("a time from its parts, 12-hour clock read right")
    func dateTime() throws {
        let eightPM = try #require(INDateTime(parameter: ParameterValue(spoken: "", value: "", parts: ["hour": "8", "meridiem": "pm", "day": "tomorrow"])))
        #expect(eightPM.hour == 20)
        #expect(eightPM.description == "tomorrow at 8 pm")
        let midnight = try #require(INDateTime(parameter: ParameterValue(spoken: "", value: "", parts: ["hour": "12", "meridiem": "am"])))
        #expect(midnight.hour == 0)
    }

    @Test("a time from now: minutes said, kept through its parameter, fixed to a day and time when stored")
    func timeFromNow() throws {
        let inAnHour = try #require(INDateTime(parameter: ParameterValue(spoken: "", value: "", parts: ["offset": "60"])))
        #expect(inAnHour.minutesFromNow == 60 && inAnHour.day == nil && inAnHour.hour == nil)
        #expect(inAnHour.description == "in an hour")
        #expect(INDateTime(parameter: inAnHour.parameter) == inAnHour)
        #expect(INDateTime(minutesFromNow: 30).description == "in 30 minutes")
        #expect(INDateTime(minutesFromNow: 120).description == "in 2 hours")
        #expect(INDateTime(parameter: ParameterValue(spoken: "", value: "", parts: ["offset": "0"])) == nil)

        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        // Tuesday 2026-12-01 21:40 UTC.
        let now = try #require(utc.date(from: DateComponents(year: 2026, month: 12, day: 1, hour: 21, minute: 40)))
        #expect(INDateTime(minutesFromNow: 120).fixed(at: now, in: utc).description == "today at 11:40 pm")
        #expect(INDateTime(minutesFromNow: 180).fixed(at: now, in: utc).description == "tomorrow at 12:40 am")
        #expect(INDateTime(minutesFromNow: 3 * 24 * 60).fixed(at: now, in: utc).description == "friday at 9:40 pm")
        // A day and an hour said are already fixed.
        let tomorrow = INDateTime(day: "tomorrow", hour: 7)
        #expect(tomorrow.fixed(at: now, in: utc) == tomorrow)
    }

    @Test("a repeating time: \"every morning at 7\" is every day at 7 am, \"every Monday\" weekly on Monday, kept through its parameter and never fixed to one day")
    func repeatingTime() throws {
        let mornings = try #require(INDateTime(parameter: ParameterValue(spoken: "", value: "", parts: ["recurrence": "morning", "hour": "7"])))
        #expect(mornings.recurrence == .daily && mornings.hour == 7 && mornings.day == nil)
        #expect(mornings.description == "every day at 7 am")
        #expect(INDateTime(parameter: mornings.parameter) == mornings)
        // A part of the day alone repeats at its hour; a weekday is the recurrence's, not a day of its own.
        let evenings = try #require(INDateTime(parameter: ParameterValue(spoken: "", value: "", parts: ["recurrence": "evening"])))
        #expect(evenings.description == "every day at 6 pm")
        let mondays = try #require(INDateTime(parameter: ParameterValue(spoken: "", value: "", parts: ["recurrence": "monday", "day": "monday"])))
        #expect(mondays.recurrence == .monday && mondays.day == nil && mondays.description == "every Monday")
        #expect(INDateTime(hour: 20, minute: 30, recurrence: .weekdays).description == "every weekday at 8:30 pm")
        #expect(INDateTime(parameter: ParameterValue(spoken: "", value: "", parts: ["recurrence": "fortnightly"])) == nil)

        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        let now = try #require(utc.date(from: DateComponents(year: 2026, month: 12, day: 1, hour: 21, minute: 40)))
        #expect(mornings.fixed(at: now, in: utc) == mornings)
    }

    @Test("a workout goal")
    func goal() throws {
        let goal = try #require(INWorkoutGoal(parameter: ParameterValue(spoken: "", value: "", parts: ["goalValue": "30", "workoutGoalUnitType": "minute"])))
        #expect(goal.description == "30 minutes")
    }

    @Test("a workout goal with a part of its unit: added to the whole number, or alone")
    func goalWithAFraction() throws {
        func goal(_ parts: [String: String]) -> INWorkoutGoal? {
            INWorkoutGoal(parameter: ParameterValue(spoken: "", value: "", parts: parts))
        }
        #expect(goal(["goalValue": "2", "fraction": "0.5", "workoutGoalUnitType": "mile"])?.description == "2.5 miles")
        #expect(goal(["fraction": "0.5", "workoutGoalUnitType": "mile"])?.goalValue == 0.5)
        #expect(goal(["goalValue": "two", "fraction": "0.25", "workoutGoalUnitType": "kilometer"])?.goalValue == 2.25)
        // Neither a number nor a part: no goal.
        #expect(goal(["workoutGoalUnitType": "mile"]) == nil)
    }

    @Test("a workout goal read as a whole duration: whole hours in hours, the rest in minutes")
    func goalFromDuration() throws {
        func goal(_ duration: String) -> INWorkoutGoal? {
            INWorkoutGoal(parameter: ParameterValue(spoken: "", value: "", parts: ["duration": duration]))
        }
        #expect(goal("PT45M")?.description == "45 minutes")
        #expect(goal("PT1H30M")?.description == "90 minutes")
        #expect(goal("PT2H")?.description == "2 hours")
        #expect(goal("P1D")?.description == "24 hours")
        // Under a minute, or not a duration: no goal.
        #expect(goal("PT30S") == nil)
        #expect(goal("PT") == nil)
        #expect(goal("half an hour") == nil)
    }

    @Test("a clock time and a date read whole: am or pm as said, the date named once fixed")
    func dateTimeReadWhole() throws {
        func when(_ spoken: String, _ parts: [String: String]) -> INDateTime? {
            INDateTime(parameter: ParameterValue(spoken: spoken, value: spoken, parts: parts))
        }
        // "half past six": an hour of 1 to 6 said alone is pm, as with the lists.
        #expect(when("half past six", ["time": "06:30"])?.description == "at 6:30 pm")
        #expect(when("half past six am", ["time": "06:30"])?.description == "at 6:30 am")
        #expect(when("quarter to eight", ["time": "07:45"])?.description == "at 7:45 am")
        #expect(when("noon", ["time": "12:00"])?.description == "at 12 pm")
        #expect(when("seven pm", ["time": "19:00"])?.hour == 19)
        #expect(when("at twenty past", ["time": "nonsense"]) == nil)

        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        // Tuesday 2026-12-01 21:40 UTC.
        let now = try #require(utc.date(from: DateComponents(year: 2026, month: 12, day: 1, hour: 21, minute: 40)))
        let dayAfterTomorrow = try #require(when("the day after tomorrow", ["date": "2026-12-03", "time": "17:00"]))
        #expect(dayAfterTomorrow.description == "on December 3 at 5 pm")
        #expect(dayAfterTomorrow.fixed(at: now, in: utc).description == "thursday at 5 pm")
        #expect(when("tomorrow", ["date": "2026-12-02"])?.fixed(at: now, in: utc).description == "tomorrow")
        // More than a week ahead, the date stays a date.
        let christmas = try #require(when("on december twenty fifth", ["date": "2026-12-25"]))
        #expect(christmas.fixed(at: now, in: utc) == christmas)
        #expect(christmas.description == "on December 25")
    }

    @Test("enumerations read their spoken names", arguments: [INTaskStatus.notCompleted, .completed])
    func enums(status: INTaskStatus) {
        #expect(INTaskStatus(parameter: status.parameter) == status)
        #expect(INTaskStatus.notCompleted.spokenName == "not completed")
    }

    @Test("speech templates drop placeholders without a value")
    func fill() {
        let intent = Intent(app: "MonkeyRide", name: "INRequestRideIntent", parameters: ["dropOffLocation": ParameterValue("the zoo")])
        #expect(IntentDescription.fill("Book a ride to {dropOffLocation} for {partySize}?", from: intent) == "Book a ride to the zoo for?")
        #expect(IntentDescription.fill("{app}: ride to {dropOffLocation}.", from: intent) == "MonkeyRide: ride to the zoo.")
        // A value with its own article after the template's: said once.
        let list = Intent(app: "ListOMat", name: "INCreateTaskListIntent", parameters: ["title": ParameterValue("The church bake sale")])
        #expect(IntentDescription.fill("I made the {title} list.", from: list) == "I made the church bake sale list.")
        #expect(IntentDescription.fill("{title} is ready. Open the {title}?", from: list)
                == "The church bake sale is ready. Open the church bake sale?")
        let theatre = Intent(app: "ListOMat", name: "INCreateTaskListIntent", parameters: ["title": ParameterValue("Theatre")])
        #expect(IntentDescription.fill("I made the {title} list.", from: theatre) == "I made the Theatre list.")
        // A message that ends its own sentence ends the template's.
        let message = Intent(app: "MonkeyChat", name: "INSendMessageIntent", parameters: ["content": ParameterValue("are you home?")])
        #expect(IntentDescription.fill("It says: {content}. Ready to send it?", from: message) == "It says: are you home? Ready to send it?")
        #expect(IntentDescription.fill("It says: {content}, right?", from: message) == "It says: are you home?, right?")
    }

    @Test("every domain of the issue has its intents, each with a description and examples")
    func domains() {
        // Messaging 3, VoIP 3, rides 5, workouts 5, photos 2, payments 4, lists and notes 6, visual codes 1.
        #expect(Domains.all.count == 29)
        for (_, intents) in Domains.domains {
            for name in intents {
                let description = Domains.all[name]
                #expect(description != nil)
                #expect(description?.examples.isEmpty == false, "\(name) has no examples")
            }
        }
    }
}

@Suite("SiriKit's default resolution")
struct DefaultResolutionTests {
    /// A generic handler that implements only handle.
    struct HandleOnly: IntentHandler {
        func handle(_ intent: Intent) async throws -> IntentResponse { IntentResponse(code: .success) }
    }

    static let description = IntentDescription(
        name: "orderDrink", domain: IntentDescription.customDomain,
        parameters: [ParameterDescription(name: "size", kind: .vocabulary("size"), prompt: "What size would you like?", required: true),
                     ParameterDescription(name: "roast", kind: .vocabulary("roast"), prompt: "Which roast?", required: false)],
        successSpeech: "Your {size}[ {roast}] coffee is on its way.", failureSpeech: "Sorry.", isCustom: true)

    @Test("a missing required parameter is asked for, a missing optional one is not, a given one stands")
    func defaults() async {
        let conversation = Conversation(intent: Intent(app: "Barista", name: "orderDrink"), description: Self.description,
                                        handler: HandleOnly())
        let asked = await conversation.start()
        #expect(asked.speech == "What size would you like?")
        let done = await conversation.answer(.value(ParameterValue("large")))
        #expect(done.code == .success)
        #expect(done.speech == "Your large coffee is on its way.")
        #expect(done.intent["roast"] == nil)
    }
}
