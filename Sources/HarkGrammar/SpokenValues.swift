#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hark's built-in slot types: spoken numbers, amounts of money, times,
/// dates and durations, each with a converter to a canonical value.
///
/// A built-in type is an ordinary sub-grammar built in code (words and
/// `.value` tags, the same arc labels every grammar compiles to), so the
/// recognizer and the parser see one graph. Every word of the sub-grammar
/// carries a small instruction as its value tag ("+20", "*100", "M:USD"…);
/// the parser runs the instructions of the path it took, so the structure
/// the words were heard in, not a second guess at them, gives the value.
///
/// Ranges are bounded to keep the graph small (see `docs/grammar.md`):
/// numbers 0–999,999 with up to three decimals, ordinals 1st–99th, times
/// on a 12-hour clock with optional a.m./p.m., dates as day offsets,
/// weekdays, month + day or day of month, durations up to 99 of a unit.
public enum SpokenValueType: String, Sendable, CaseIterable {
    /// "one hundred and twelve" → "112", "two point five" → "2.5".
    case number
    /// "twenty first" → "21".
    case ordinal
    /// "twenty five dollars" → "25 USD", "three fifty" → "3.50 USD".
    case currency
    /// "eight thirty a m" → "08:30", "noon" → "12:00", "half past seven" → "07:30".
    case time
    /// "tomorrow", "next friday", "december third" → an ISO date "2026-12-03".
    case date
    /// "twenty minutes" → "PT20M", "an hour and a half" → "PT1H30M" (ISO 8601).
    case duration

    /// The value tag that opens a slot of this type in the graph. It starts
    /// with U+0001 so that no list value can be mistaken for it.
    public var tag: String { Self.tagPrefix + rawValue }

    static let tagPrefix = "\u{1}hark.type:"

    /// The type a slot's first value tag names, if it is a built-in one.
    public init?(tag: String) {
        guard tag.hasPrefix(Self.tagPrefix) else { return nil }
        self.init(rawValue: String(tag.dropFirst(Self.tagPrefix.count)))
    }

    /// The sub-grammar of this type (it refers to the `hark.*` rules).
    public var expression: GrammarExpression {
        .rule("hark.\(rawValue)", SourceLocation(file: "<built-in>", line: 0, column: 0))
    }

    /// Built-in rules by name, shared by every grammar: `hark.number`,
    /// `hark.cardinal`, `hark.below100`, ... A grammar may use them as
    /// `<hark.cardinal>` too.
    public static let rules: [String: GrammarExpression] = BuiltinGrammar.rules()

    /// The canonical value of a path's instructions.
    ///
    /// - Parameters:
    ///   - operations: The value tags met inside the slot, after its type tag.
    ///   - context: Today's date and the currency meant when none is said.
    /// - Returns: The canonical value, or nil when the words name no valid
    ///   value (such as "february thirtieth").
    public func canonicalValue(operations: [String], context: SpokenValueContext) -> String? {
        var machine = ValueMachine()
        for op in operations { machine.run(op) }
        switch self {
        case .number: return machine.numberText()
        case .ordinal: return machine.numberText()
        case .currency: return machine.currencyText(default: context.defaultCurrency)
        case .time: return machine.timeText()
        case .date: return machine.dateText(today: context.today ?? .today)
        case .duration: return machine.durationText()
        }
    }

    // MARK: Typed numbers

    /// Whether `token` is a number or part of one, spoken ("twelve",
    /// "hundred") or typed ("50", "$3.50"): text cut beside it could split
    /// an amount ("send Bobo twelve dollars | fifty").
    public static func isNumberWord(_ token: String) -> Bool {
        if let first = token.first, first.isNumber || "$€£".contains(first) { return true }
        return numberWords.contains(token)
    }

    private static let numberWords: Set<String> = Set(BuiltinGrammar.units + BuiltinGrammar.teens + BuiltinGrammar.tens + ["zero", "hundred", "thousand"])

    /// The words a whole number is spoken as: 125 → "one hundred twenty five".
    /// Nil beyond the built-in range (0–999,999).
    public static func words(for number: Int) -> [String]? {
        guard (0...999_999).contains(number) else { return nil }
        if number == 0 { return ["zero"] }
        func below1000(_ n: Int) -> [String] {
            var words: [String] = []
            if n >= 100 { words += [BuiltinGrammar.units[n / 100 - 1], "hundred"] }
            let rest = n % 100
            if rest >= 20 {
                words.append(BuiltinGrammar.tens[rest / 10 - 2])
                if rest % 10 > 0 { words.append(BuiltinGrammar.units[rest % 10 - 1]) }
            } else if rest >= 10 {
                words.append(BuiltinGrammar.teens[rest - 10])
            } else if rest > 0 {
                words.append(BuiltinGrammar.units[rest - 1])
            }
            return words
        }
        var words: [String] = []
        if number >= 1000 { words += below1000(number / 1000) + ["thousand"] }
        if number % 1000 > 0 { words += below1000(number % 1000) }
        return words
    }

    /// The word of an ordinal 1–99: 21 → ["twenty", "first"].
    public static func ordinalWords(for number: Int) -> [String]? {
        guard (1...99).contains(number) else { return nil }
        if number < 10 { return [BuiltinGrammar.ordinalUnits[number - 1]] }
        if number < 20 { return [BuiltinGrammar.ordinalTeens[number - 10]] }
        if number % 10 == 0 { return [BuiltinGrammar.ordinalTens[number / 10 - 2]] }
        return [BuiltinGrammar.tens[number / 10 - 2], BuiltinGrammar.ordinalUnits[number % 10 - 1]]
    }
}

/// What converting a spoken value needs to know beyond the words.
public struct SpokenValueContext: Sendable, Equatable {
    /// Today, for "tomorrow" and "next friday"; nil for the local date at
    /// the moment of each parse (an assistant runs past midnight).
    public var today: CalendarDay?
    /// The ISO 4217 code meant when an amount names no currency ("three fifty").
    public var defaultCurrency: String

    public init(today: CalendarDay? = nil, defaultCurrency: String = "USD") {
        self.today = today
        self.defaultCurrency = defaultCurrency
    }

    /// The local date at each parse, dollars by default.
    public static var current: SpokenValueContext { SpokenValueContext() }
}

/// A day of the proleptic Gregorian calendar, without time or time zone.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the day exists (no February 30th).
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= Self.daysIn(month: month, year: year)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(dayNumber z0: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// ISO weekday: Monday 1 … Sunday 7.
    public var weekday: Int { ((dayNumber % 7 + 7 + 3) % 7) + 1 }

    public func adding(days: Int) -> CalendarDay { CalendarDay(dayNumber: dayNumber + days) }

    /// Today in the local time zone.
    public static var today: CalendarDay {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { a.dayNumber < b.dayNumber }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}

// MARK: - The instructions a path's value tags spell

/// Runs the value tags of a built-in slot. Numbers build up as spoken:
/// `+N` adds to the current group, `*100` multiplies it ("hundred"),
/// `k1000` closes a thousands group, `.` and `dN` read decimals; `at:HH:MM`
/// names a time outright ("lunchtime"), `plus:N` adds days to the day read
/// ("a fortnight from Monday"); the other instructions store the number
/// just read as a part of the value.
struct ValueMachine {
    var total = 0.0
    var current = 0.0
    var decimals: String?
    var negative = false
    var hasNumber = false
    // Currency
    var major: Double?
    var minor: Int?
    var currency: String?
    var minorCurrency: String?
    // Time
    var hour: Int?
    var minute: Int?
    var relation: String?
    var meridiem: String?
    var fixedTime: String?
    // Date
    var offset: Int?
    var weekday: Int?
    var weekdayMode = ""
    var month: Int?
    var dayOfMonth: Int?
    var inDays: Int?
    /// Days after the day said: "a fortnight from Monday".
    var extraDays = 0
    // Duration
    var seconds = 0.0
    var lastUnit = 0.0

    /// The number read so far, then reset for the next part.
    mutating func take() -> Double {
        var value = total + current
        if let decimals, !decimals.isEmpty { value += Double("0." + decimals) ?? 0 }
        total = 0
        current = 0
        decimals = nil
        hasNumber = false
        return negative ? -value : value
    }

    mutating func run(_ op: String) {
        guard let first = op.first else { return }
        let argument = String(op.dropFirst())
        let numericArgument = !argument.isEmpty && argument.allSatisfy { $0.isNumber || $0 == "." }
        switch first {
        case "+" where numericArgument:
            current += Double(argument) ?? 0
            hasNumber = true
        case "*" where numericArgument:
            current = max(current, 1) * (Double(argument) ?? 1)
            hasNumber = true
        case "k" where numericArgument:
            total += max(current, 1) * (Double(argument) ?? 1)
            current = 0
            hasNumber = true
        case "." where argument.isEmpty:
            decimals = ""
        case "d" where numericArgument:
            decimals = (decimals ?? "") + argument
            hasNumber = true
        default:
            runNamed(op)
        }
    }

    mutating func runNamed(_ op: String) {
        let parts = op.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts[0]
        let argument = parts.count > 1 ? parts[1] : ""
        switch name {
        case "neg": negative = true
        case "M": major = take(); if !argument.isEmpty { currency = argument }
        case "m": minor = Int(take().rounded()); if !argument.isEmpty { minorCurrency = argument }
        case "h": hour = Int(take())
        case "min": minute = Int(take())
        case "past", "to": relation = name
        case "am", "pm": meridiem = name
        case "noon": fixedTime = "12:00"
        case "at": fixedTime = argument
        case "midnight": fixedTime = "00:00"
        case "off": offset = Int(argument)
        case "plus": extraDays = Int(argument) ?? 0
        case "wd": weekday = Int(argument)
        case "this", "next", "last": weekdayMode = name
        case "mon": month = Int(argument)
        case "md":
            // A holiday on a fixed day of the year: "md:12-24".
            let monthAndDay = argument.split(separator: "-").compactMap { Int($0) }
            if monthAndDay.count == 2 { month = monthAndDay[0]; dayOfMonth = monthAndDay[1] }
        case "day": dayOfMonth = Int(take())
        case "in": inDays = Int(take()) * (Int(argument) ?? 1)
        case "u":
            let unit = Double(argument) ?? 0
            seconds += take() * unit
            lastUnit = unit
        case "half": seconds += lastUnit / 2
        default: break
        }
    }

    mutating func numberText() -> String? {
        let hadDecimals = decimals != nil
        let digits = decimals ?? ""
        let whole = Int(total + current)
        let sign = negative ? "-" : ""
        if hadDecimals { return "\(sign)\(whole).\(digits.isEmpty ? "0" : digits)" }
        return "\(sign)\(whole)"
    }

    mutating func currencyText(default defaultCurrency: String) -> String? {
        if hasNumber { major = take() } // a bare amount: "twenty five"
        let code = currency ?? minorCurrency ?? defaultCurrency
        let cents = minor ?? 0
        guard cents < 100 else { return nil }
        let whole = Int(major ?? 0)
        if minor == nil { return "\(whole) \(code)" }
        return "\(whole).\(cents < 10 ? "0" : "")\(cents) \(code)"
    }

    func timeText() -> String? {
        if let fixedTime { return fixedTime }
        guard var h = hour, (1...12).contains(h) else { return nil }
        var m = minute ?? 0
        guard (0...59).contains(m) else { return nil }
        if relation == "to" {
            guard m > 0 else { return nil }
            m = 60 - m
            h = h == 1 ? 12 : h - 1
        }
        if meridiem == "pm", h < 12 { h += 12 }
        if meridiem == "am", h == 12 { h = 0 }
        return "\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }

    func dateText(today: CalendarDay) -> String? {
        day(today: today)?.adding(days: extraDays).description
    }

    private func day(today: CalendarDay) -> CalendarDay? {
        if let offset { return today.adding(days: offset) }
        if let inDays { return today.adding(days: inDays) }
        if let weekday {
            let delta = (weekday - today.weekday + 7) % 7
            switch weekdayMode {
            case "this": return today.adding(days: delta)
            case "last": return today.adding(days: delta == 0 ? -7 : delta - 7)
            default: return today.adding(days: delta == 0 ? 7 : delta)
            }
        }
        guard let day = dayOfMonth else { return nil }
        if let month {
            // The next such day, today included; February 29th waits for a leap year.
            for year in today.year...(today.year + 8) {
                let candidate = CalendarDay(year: year, month: month, day: day)
                if candidate.isValid, candidate >= today { return candidate }
            }
            return nil
        }
        // "the third": the next third of a month, today included.
        var year = today.year
        var month = today.month
        for _ in 0..<13 {
            let candidate = CalendarDay(year: year, month: month, day: day)
            if candidate.isValid, candidate >= today { return candidate }
            month += 1
            if month > 12 { month = 1; year += 1 }
        }
        return nil
    }

    func durationText() -> String? {
        let total = Int(seconds.rounded())
        guard total > 0 else { return nil }
        let days = total / 86400
        let hours = total % 86400 / 3600
        let minutes = total % 3600 / 60
        let secs = total % 60
        var text = "P"
        if days > 0 { text += "\(days)D" }
        if hours + minutes + secs > 0 {
            text += "T"
            if hours > 0 { text += "\(hours)H" }
            if minutes > 0 { text += "\(minutes)M" }
            if secs > 0 { text += "\(secs)S" }
        }
        return text
    }
}

// MARK: - The sub-grammars

enum BuiltinGrammar {
    static let units = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    static let teens = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    static let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let ordinalUnits = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
    static let ordinalTeens = ["tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
                               "seventeenth", "eighteenth", "nineteenth"]
    static let ordinalTens = ["twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"]
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    /// Holidays on a fixed day of the year, as typed (the date is the next such day).
    static let holidays: [(name: String, month: Int, day: Int)] = [
        ("christmas eve", 12, 24), ("christmas day", 12, 25), ("christmas", 12, 25), ("xmas", 12, 25), ("xmas eve", 12, 24),
        ("boxing day", 12, 26), ("new year's eve", 12, 31), ("new years eve", 12, 31), ("new year's day", 1, 1),
        ("new years day", 1, 1), ("valentine's day", 2, 14), ("valentines day", 2, 14), ("halloween", 10, 31),
        ("the fourth of july", 7, 4), ("fourth of july", 7, 4), ("independence day", 7, 4),
        ("st patrick's day", 3, 17), ("saint patrick's day", 3, 17),
    ]
    static let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                         "october", "november", "december"]

    static let here = SourceLocation(file: "<built-in>", line: 0, column: 0)

    /// Words, space-separated.
    static func w(_ text: String) -> GrammarExpression {
        let words = text.split(separator: " ").map { GrammarExpression.word(String($0)) }
        return words.count == 1 ? words[0] : .sequence(words)
    }

    /// Words that run an instruction.
    static func op(_ text: String, _ instruction: String) -> GrammarExpression {
        .value(spoken: w(text), canonical: instruction)
    }

    /// An instruction heard as no word.
    static func tag(_ instruction: String) -> GrammarExpression {
        .value(spoken: .sequence([]), canonical: instruction)
    }

    static func r(_ name: String) -> GrammarExpression { .rule("hark.\(name)", here) }
    static func seq(_ items: GrammarExpression...) -> GrammarExpression { .sequence(items) }
    static func alt(_ items: [GrammarExpression]) -> GrammarExpression { .alternatives(items) }
    static func alt(_ items: GrammarExpression...) -> GrammarExpression { .alternatives(items) }
    static func opt(_ item: GrammarExpression) -> GrammarExpression { .optional(item) }

    static func rules() -> [String: GrammarExpression] {
        var rules: [String: GrammarExpression] = [:]
        func define(_ name: String, _ body: GrammarExpression) { rules["hark.\(name)"] = body }

        // Numbers, 0–999,999.
        define("units", alt(units.enumerated().map { op($0.element, "+\($0.offset + 1)") }))
        define("teens", alt(teens.enumerated().map { op($0.element, "+\($0.offset + 10)") }))
        define("tens", alt(tens.enumerated().map { op($0.element, "+\(($0.offset + 2) * 10)") }))
        define("below100", alt(r("units"), r("teens"), seq(r("tens"), opt(r("units")))))
        define("below1000", alt(
            r("below100"),
            seq(alt(op("a", "+1"), r("units")), op("hundred", "*100"), opt(seq(opt(w("and")), r("below100"))))))
        define("cardinal", alt(
            op("zero", "+0"),
            r("below1000"),
            seq(alt(op("a", "+1"), r("below1000")), op("thousand", "k1000"), opt(seq(opt(w("and")), r("below1000"))))))
        define("digit", alt([op("zero", "d0"), op("oh", "d0")] + units.enumerated().map { op($0.element, "d\($0.offset + 1)") }))
        define("decimals", seq(op("point", "."), r("digit"), opt(seq(r("digit"), opt(r("digit"))))))
        define("number", seq(opt(op("minus", "neg")), alt(seq(r("cardinal"), opt(r("decimals"))), r("decimals"))))

        // Ordinals, 1st–99th.
        define("ordinalUnits", alt(ordinalUnits.enumerated().map { op($0.element, "+\($0.offset + 1)") }))
        define("ordinal", alt(
            r("ordinalUnits"),
            alt(ordinalTeens.enumerated().map { op($0.element, "+\($0.offset + 10)") }),
            alt(ordinalTens.enumerated().map { op($0.element, "+\(($0.offset + 2) * 10)") }),
            seq(r("tens"), r("ordinalUnits"))))

        // Money: "twenty five dollars [and] [fifty [cents]]", "fifty cents",
        // "three fifty", "twenty five".
        define("currencyUnit", alt(
            op("dollars", "M:USD"), op("dollar", "M:USD"), op("bucks", "M:USD"), op("buck", "M:USD"),
            op("euros", "M:EUR"), op("euro", "M:EUR"),
            op("pounds", "M:GBP"), op("pound", "M:GBP"), op("quid", "M:GBP"),
            op("yen", "M:JPY"),
            // Typed, currencies a recognizer's dictionary may lack.
            .typedOnly(alt(op("rand", "M:ZAR"), op("rupees", "M:INR"), op("rupee", "M:INR"),
                           op("francs", "M:CHF"), op("franc", "M:CHF")), here)))
        define("currencyMinorUnit", alt(op("cents", "m:USD"), op("cent", "m:USD"), op("pence", "m:GBP"), op("penny", "m:GBP")))
        // The cents of "three fifty": two digits as spoken, 01–99.
        define("cents", alt(seq(w("oh"), r("units")), r("teens"), seq(r("tens"), opt(r("units")))))
        define("currency", alt(
            // "a grand", "two grand" (thousands of the default currency)
            // typed, "fifty odd dollars": about fifty
            seq(alt(r("cardinal"), op("a", "+1")), opt(.typedOnly(w("odd"), here)), alt(
                seq(r("currencyUnit"), opt(seq(opt(w("and")), r("below100"), alt(r("currencyMinorUnit"), tag("m"))))),
                seq(op("grand", "*1000"), tag("M")))),
            seq(r("below100"), r("currencyMinorUnit")),
            seq(r("below100"), tag("M"), r("cents"), tag("m")),
            // "a couple of bucks"; typed, "a fiver", "a tenner" (pocketsphinx's
            // dictionary has no "fiver": heard, it would need letter-to-sound)
            seq(op("a couple of", "+2"), r("currencyUnit")),
            .typedOnly(seq(alt(op("a fiver", "+5"), op("a tenner", "+10")), tag("M")), here),
            // Typed, "a couple of hundred dollars", "a couple hundred bucks".
            .typedOnly(seq(alt(op("a couple of", "+2"), op("a couple", "+2")), op("hundred", "*100"), r("currencyUnit")), here),
            r("cardinal")))

        // Times on a 12-hour clock.
        define("hour", alt(r("units"), op("ten", "+10"), op("eleven", "+11"), op("twelve", "+12")))
        define("minutes", alt(seq(w("oh"), r("units")), r("teens"),
                              seq(alt(Array(tens.prefix(4).enumerated().map { op($0.element, "+\(($0.offset + 2) * 10)") })),
                                  opt(r("units")))))
        define("meridiem", alt(
            op("a m", "am"), op("p m", "pm"), op("am", "am"), op("pm", "pm"), op("in the morning", "am"), op("in the afternoon", "pm"),
            op("in the evening", "pm"), op("at night", "pm")))
        define("minutesBefore30", alt(r("units"), r("teens"), seq(op("twenty", "+20"), opt(r("units")))))
        define("time", alt(
            // Typed, "eight-ish": about eight.
            seq(r("hour"), tag("h"), opt(alt(seq(r("minutes"), tag("min")), w("o'clock"))), opt(.typedOnly(w("ish"), here)),
                opt(r("meridiem"))),
            op("noon", "noon"), op("midday", "noon"), op("midnight", "midnight"),
            // Typed, the times people name by what happens then.
            .typedOnly(alt(op("first thing", "at:09:00"), op("lunchtime", "at:12:00"), op("lunch time", "at:12:00"),
                           seq(opt(w("the")), op("end of the day", "at:17:00")), op("end of day", "at:17:00"),
                           op("close of business", "at:17:00")), here),
            seq(alt(op("half", "+30"), op("quarter", "+15"), op("a quarter", "+15"),
                    seq(r("minutesBefore30"), opt(alt(w("minutes"), w("minute"))))),
                tag("min"),
                alt(op("past", "past"), op("after", "past"), op("to", "to"), op("till", "to"), op("before", "to")),
                r("hour"), tag("h"), opt(r("meridiem"))),
            // Typed, British "half seven": half past seven.
            .typedOnly(seq(op("half", "+30"), tag("min"), r("hour"), tag("h"), opt(r("meridiem"))), here)))

        // Dates.
        define("weekday", alt(weekdays.enumerated().map { op($0.element, "wd:\($0.offset + 1)") }))
        define("month", alt(months.enumerated().map { op($0.element, "mon:\($0.offset + 1)") }))
        define("dayOrdinal", seq(alt(
            r("ordinalUnits"),
            alt(ordinalTeens.enumerated().map { op($0.element, "+\($0.offset + 10)") }),
            op("twentieth", "+20"), seq(op("twenty", "+20"), r("ordinalUnits")),
            op("thirtieth", "+30"), seq(op("thirty", "+30"), op("first", "+1"))), tag("day")))
        define("date", alt(
            op("today", "off:0"), op("tomorrow", "off:1"), op("yesterday", "off:-1"),
            seq(opt(w("the")), op("day after tomorrow", "off:2")),
            seq(opt(w("the")), op("day before yesterday", "off:-2")),
            seq(opt(alt(op("this", "this"), op("next", "next"), op("last", "last"), w("on"))), r("weekday")),
            seq(r("month"), opt(w("the")), r("dayOrdinal")),
            seq(w("the"), r("dayOrdinal"), opt(seq(w("of"), r("month")))),
            seq(w("in"), alt(r("below100"), op("a", "+1")),
                alt(op("days", "in:1"), op("day", "in:1"), op("weeks", "in:7"), op("week", "in:7"))),
            // Typed: "in a fortnight", "a fortnight from Monday", "a week on Friday", "a week tomorrow";
            // holidays on a fixed day of the year: "on Christmas Eve", "for New Year's Day".
            .typedOnly(alt(
                seq(w("in"), op("a fortnight", "off:14")),
                alt(holidays.map { op($0.name, "md:\($0.month)-\($0.day)") }),
                seq(alt(op("a week", "plus:7"), op("a fortnight", "plus:14"), op("two weeks", "plus:14")),
                    opt(alt(w("from"), w("on"))),
                    alt(op("today", "off:0"), op("tomorrow", "off:1"),
                        seq(opt(alt(op("this", "this"), op("next", "next"))), r("weekday"))))), here)))

        // Durations: "twenty minutes", "an hour and a half", "two and a half hours", "half an hour".
        define("durationUnit", alt(
            op("seconds", "u:1"), op("second", "u:1"), op("minutes", "u:60"), op("minute", "u:60"),
            op("hours", "u:3600"), op("hour", "u:3600"), op("days", "u:86400"), op("day", "u:86400"),
            op("weeks", "u:604800"), op("week", "u:604800")))
        define("durationPart", alt(
            seq(alt(r("below100"), op("a", "+1"), op("an", "+1")), r("durationUnit"), opt(op("and a half", "half"))),
            seq(r("below100"), op("and a half", "+0.5"), r("durationUnit")),
            seq(op("half", "+0.5"), alt(w("a"), w("an")), r("durationUnit")),
            seq(w("a"), op("half", "+0.5"), r("durationUnit")),
            // "a quarter of an hour", "three quarters of an hour"
            seq(alt(op("a quarter of", "+0.25"), op("quarter of", "+0.25"), op("three quarters of", "+0.75")),
                alt(w("a"), w("an")), r("durationUnit"))))
        define("duration", seq(r("durationPart"), opt(seq(opt(w("and")), r("durationPart")))))
        return rules
    }
}
