import Foundation
import HarkGrammar
import Testing

let valuesGrammar = """
slot amount: currency
slot n: number
slot position: ordinal
slot when: time
slot day: date
slot length: duration

intent Pay:
    pay {amount}
intent Count:
    count to {n}
intent Pick:
    pick the {position} [one]
intent Alarm:
    wake me [up] at {when}
    wake me [up] at {when} {day}
intent Remind:
    remind me {day}
intent Timer:
    set a timer for {length}
"""

/// Sunday 22 November 2026.
let sunday = SpokenValueContext(today: CalendarDay(year: 2026, month: 11, day: 22))

func valuesParser() throws -> TextParser {
    let file = try GrammarParser.parse(valuesGrammar, path: "values.hark")
    return TextParser(graph: try GrammarCompiler.compile([GrammarInstance(app: "Clock", grammar: file)]),
                      valueContext: sunday)
}

/// The one parse of `text`: its intent and the value of `slot`.
func value(_ text: String, slot: String) throws -> (intent: String, value: String?) {
    let parses = try valuesParser().parse(text)
    let best = try #require(parses.first, "not understood: \(text)")
    return (best.intent, best.slotValues[slot])
}

@Suite("Built-in slot types")
struct SpokenValueTests {
    @Test("amounts of money", arguments: [
        ("pay twenty five dollars", "25 USD"),
        ("pay three dollars fifty", "3.50 USD"),
        ("pay three fifty", "3.50 USD"),
        ("pay three dollars and fifty cents", "3.50 USD"),
        ("pay fifty cents", "0.50 USD"),
        ("pay a dollar", "1 USD"),
        ("pay twelve euros", "12 EUR"),
        // Typed, currencies a recognizer's dictionary may lack.
        ("pay 200 rand", "200 ZAR"),
        ("pay five hundred rupees", "500 INR"),
        ("pay 20 francs", "20 CHF"),
        ("pay one hundred and twelve pounds", "112 GBP"),
        ("pay twenty five", "25 USD"),
        ("pay one twenty five", "1.25 USD"),
        ("pay twelve oh five", "12.05 USD"),
        ("pay two thousand dollars", "2000 USD"),
        ("Pay $25.", "25 USD"),
        ("pay $3.50", "3.50 USD"),
        ("pay $0.75", "0.75 USD"),
        ("pay 25 dollars", "25 USD"),
        ("pay £4", "4 GBP"),
        // Said the way people say round sums.
        ("pay a grand", "1000 USD"),
        ("pay two grand", "2000 USD"),
        ("pay a fiver", "5 USD"),
        ("pay a tenner", "10 USD"),
        ("pay a couple of bucks", "2 USD"),
        ("pay a couple of euros", "2 EUR"),
        // Typed, a round sum said loosely.
        ("pay fifty odd dollars", "50 USD"),
    ])
    func currency(text: String, expected: String) throws {
        let result = try value(text, slot: "amount")
        #expect(result.intent == "Pay")
        #expect(result.value == expected)
    }

    @Test("numbers", arguments: [
        ("count to one hundred and twelve", "112"),
        ("count to one hundred twelve", "112"),
        ("count to two point five", "2.5"),
        ("count to point five", "0.5"),
        ("count to zero", "0"),
        ("count to forty two", "42"),
        ("count to a thousand and one", "1001"),
        ("count to a hundred thousand", "100000"),
        ("count to nine hundred ninety nine thousand nine hundred ninety nine", "999999"),
        ("count to minus five", "-5"),
        ("count to 2.5", "2.5"),
        ("count to 1,200", "1200"),
        ("count to 42", "42"),
    ])
    func numbers(text: String, expected: String) throws {
        let result = try value(text, slot: "n")
        #expect(result.intent == "Count")
        #expect(result.value == expected)
    }

    @Test("every number in range reads back as itself")
    func numberRoundTrip() throws {
        let parser = try valuesParser()
        var samples = Array(stride(from: 0, through: 999_999, by: 7_919)) + [1, 10, 19, 20, 99, 100, 101, 110, 999, 1000, 1001, 10_000, 999_999]
        samples.sort()
        for n in samples {
            let words = try #require(SpokenValueType.words(for: n))
            let best = try #require(parser.parse(tokens: ["count", "to"] + words).first, "not understood: \(words)")
            #expect(best.slotValues["n"] == String(n))
        }
        #expect(SpokenValueType.words(for: 1_000_000) == nil)
        #expect(parser.parse("count to one million").isEmpty)
    }

    @Test("ordinals", arguments: [
        ("pick the third one", "3"),
        ("pick the twenty first", "21"),
        ("pick the twelfth", "12"),
        ("pick the ninetieth one", "90"),
        ("pick the 3rd one", "3"),
        ("pick the 22nd", "22"),
    ])
    func ordinals(text: String, expected: String) throws {
        let result = try value(text, slot: "position")
        #expect(result.intent == "Pick")
        #expect(result.value == expected)
    }

    @Test("times", arguments: [
        ("wake me up at eight thirty a m", "08:30"),
        ("wake me at eight thirty", "08:30"),
        ("wake me at noon", "12:00"),
        ("wake me at midnight", "00:00"),
        ("wake me at half past seven", "07:30"),
        ("wake me at quarter to nine p m", "20:45"),
        ("wake me at a quarter past six in the evening", "18:15"),
        ("wake me at ten past six", "06:10"),
        ("wake me at twenty five to one", "12:35"),
        ("wake me at eight p m", "20:00"),
        ("wake me at seven o'clock", "07:00"),
        ("wake me at eight oh five", "08:05"),
        ("wake me at twelve a m", "00:00"),
        ("wake me at twelve thirty p m", "12:30"),
        ("wake me at 8:30pm", "20:30"),
        ("wake me at half past six am", "06:30"),
        ("wake me at seven pm", "19:00"),
        ("wake me at 8 a.m.", "08:00"),
        ("wake me at 8am", "08:00"),
        ("wake me at 14:05", "14:05"),
        // Typed: about a time, and times named by what happens then.
        ("wake me at eight-ish", "08:00"),
        ("wake me at 8ish", "08:00"),
        ("wake me at eightish pm", "20:00"),
        ("wake me up at lunchtime", "12:00"),
        ("wake me at the end of the day", "17:00"),
        ("wake me at first thing", "09:00"),
        // Typed, British "half seven": half past seven.
        ("wake me at half seven", "07:30"),
        ("wake me at half six pm", "18:30"),
    ])
    func times(text: String, expected: String) throws {
        let result = try value(text, slot: "when")
        #expect(result.intent == "Alarm")
        #expect(result.value == expected)
    }

    @Test("dates, from Sunday 22 November 2026", arguments: [
        ("remind me today", "2026-11-22"),
        ("remind me tomorrow", "2026-11-23"),
        ("remind me yesterday", "2026-11-21"),
        ("remind me the day after tomorrow", "2026-11-24"),
        ("remind me next friday", "2026-11-27"),
        ("remind me on friday", "2026-11-27"),
        ("remind me friday", "2026-11-27"),
        ("remind me this sunday", "2026-11-22"),
        ("remind me next sunday", "2026-11-29"),
        ("remind me last friday", "2026-11-20"),
        ("remind me december third", "2026-12-03"),
        ("remind me december the third", "2026-12-03"),
        ("remind me the third of december", "2026-12-03"),
        ("remind me the first", "2026-12-01"),
        ("remind me the twenty second", "2026-11-22"),
        ("remind me march first", "2027-03-01"),
        ("remind me february twenty ninth", "2028-02-29"),
        ("remind me in three days", "2026-11-25"),
        ("remind me in a week", "2026-11-29"),
        // Typed, British: a week or a fortnight after a day.
        ("remind me in a fortnight", "2026-12-06"),
        ("remind me a fortnight from monday", "2026-12-07"),
        ("remind me a week on friday", "2026-12-04"),
        ("remind me a week tomorrow", "2026-11-30"),
        ("remind me two weeks from next friday", "2026-12-11"),
    ])
    func dates(text: String, expected: String) throws {
        let result = try value(text, slot: "day")
        #expect(result.intent == "Remind")
        #expect(result.value == expected)
    }

    @Test("a date that does not exist is not understood")
    func impossibleDate() throws {
        #expect(try valuesParser().parse("remind me february thirtieth").isEmpty)
        #expect(try valuesParser().parse("remind me the thirty first of november").isEmpty)
    }

    @Test("durations as ISO 8601", arguments: [
        ("set a timer for twenty minutes", "PT20M"),
        ("set a timer for an hour and a half", "PT1H30M"),
        ("set a timer for two and a half hours", "PT2H30M"),
        ("set a timer for half an hour", "PT30M"),
        ("set a timer for one hour and thirty minutes", "PT1H30M"),
        ("set a timer for ninety seconds", "PT1M30S"),
        ("set a timer for two days", "P2D"),
        ("set a timer for a week", "P7D"),
        ("set a timer for 20 minutes", "PT20M"),
        ("set a timer for a quarter of an hour", "PT15M"),
        ("set a timer for three quarters of an hour", "PT45M"),
    ])
    func durations(text: String, expected: String) throws {
        let result = try value(text, slot: "length")
        #expect(result.intent == "Timer")
        #expect(result.value == expected)
    }

    @Test("two built-in slots in one sentence keep their own values")
    func twoSlots() throws {
        let best = try #require(try valuesParser().parse("wake me up at seven fifteen tomorrow").first)
        #expect(best.slotValues["when"] == "07:15")
        #expect(best.slotValues["day"] == "2026-11-23")
        #expect(best.slots.first { $0.name == "when" }?.raw == "seven fifteen")
    }

    @Test("digits stay as typed in free text")
    func digitsInFreeText() throws {
        let parser = TextParser(graph: try compile(messagingGrammar))
        let best = try #require(parser.parse("send a message to bobo saying meet me at 5 for $3.50 coffee").first)
        #expect(best.slotValues["content"] == "meet me at 5 for $3.50 coffee")
    }

    @Test("calendar arithmetic")
    func calendar() {
        let day = CalendarDay(year: 2026, month: 11, day: 22)
        #expect(day.weekday == 7)
        #expect(CalendarDay(dayNumber: day.dayNumber) == day)
        #expect(day.adding(days: 40).description == "2027-01-01")
        #expect(CalendarDay(year: 1970, month: 1, day: 1).dayNumber == 0)
        #expect(!CalendarDay(year: 2027, month: 2, day: 29).isValid)
        #expect(CalendarDay(year: 2028, month: 2, day: 29).isValid)
    }
}

@Suite("Built-in type sizes")
struct BuiltinSizeTests {
    @Test("each built-in type compiles to a small graph", arguments: SpokenValueType.allCases)
    func size(type: SpokenValueType) throws {
        let file = try GrammarParser.parse("slot v: \(type.rawValue)\nintent X:\n    say {v}\n", path: "t.hark")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "A", grammar: file)])
        let arcs = graph.arcs.reduce(0) { $0 + $1.count }
        // Measured: currency, the largest, is about 1,500 states and 2,100 arcs.
        #expect(graph.stateCount < 2_000)
        #expect(arcs < 3_000)
    }
}

@Suite("Built-in words")
struct BuiltinWordsTests {
    @Test("every built-in word has a pronunciation in pocketsphinx's en-us dictionary")
    func pronounceable() throws {
        let dictionary = try String(contentsOfFile: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict", encoding: .utf8)
        let known = Set(dictionary.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        let text = SpokenValueType.allCases.map { "slot \($0.rawValue)Value: \($0.rawValue)" }.joined(separator: "\n")
            + "\nintent X:\n" + SpokenValueType.allCases.map { "    say {\($0.rawValue)Value}" }.joined(separator: "\n")
        let graph = try GrammarCompiler.compile([GrammarInstance(app: "A", grammar: try GrammarParser.parse(text, path: "t.hark"))])
        #expect(graph.vocabulary.count > 100)
        #expect(graph.vocabulary.subtracting(known).sorted() == [])
    }

    @Test("typed numbers reach list values spoken as numbers")
    func typedNumbersInLists() throws {
        let best = try #require(try parseOne(coffeeGrammar, "Give me a 12 ounce latte"))
        #expect(best.slotValues["size"] == "12oz")
    }
}
