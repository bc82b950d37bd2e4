import Foundation

/// A typed parameter value that converts to and from the engine's generic
/// ``ParameterValue``.
public protocol ParameterConvertible: Sendable {
    /// Reads a generic value; nil when it does not convert.
    init?(parameter: ParameterValue)
    /// The generic value: the words to speak and the value to keep.
    var parameter: ParameterValue { get }
}

extension String: ParameterConvertible {
    public init?(parameter: ParameterValue) {
        guard !parameter.value.isEmpty else { return nil }
        self = parameter.value
    }
    public var parameter: ParameterValue { ParameterValue(self) }
}

extension Int: ParameterConvertible {
    public init?(parameter: ParameterValue) {
        guard let number = Int(parameter.value) ?? NumberWords.parse(parameter.value) else { return nil }
        self = number
    }
    public var parameter: ParameterValue { ParameterValue(spoken: String(self), value: String(self)) }
}

/// A person (`INPerson`): how they are called and, when known, the app's
/// identifier for them.
public struct INPerson: ParameterConvertible, Hashable, Codable {
    public var displayName: String
    public var identifier: String?

    public init(displayName: String, identifier: String? = nil) {
        self.displayName = displayName
        self.identifier = identifier
    }

    public init?(parameter: ParameterValue) {
        guard !parameter.value.isEmpty else { return nil }
        // A contact from vocabulary canonicalises to its name; raw words
        // ("bobo") keep what was said.
        displayName = parameter.value
        identifier = parameter.parts["identifier"]
    }

    public var parameter: ParameterValue {
        ParameterValue(spoken: displayName, value: displayName, parts: identifier.map { ["identifier": $0] } ?? [:])
    }
}

/// An amount of money (`INCurrencyAmount`).
public struct INCurrencyAmount: ParameterConvertible, Hashable, Codable, CustomStringConvertible {
    public var amount: Decimal
    /// ISO 4217 code, e.g. `USD`.
    public var currencyCode: String

    public init(amount: Decimal, currencyCode: String = "USD") {
        self.amount = amount
        self.currencyCode = currencyCode
    }

    public init?(parameter: ParameterValue) {
        let text = parameter.parts["amount"] ?? parameter.value.split(separator: " ").first.map(String.init) ?? ""
        guard let amount = Decimal(string: text) ?? NumberWords.parse(text).map({ Decimal($0) }) else { return nil }
        self.amount = amount
        // Given in parts, an amount said without a currency ("move five
        // hundred from savings") is in dollars; only a value given whole
        // ("500 USD") names its currency after the number.
        let code = parameter.parts["currencyCode"]
            ?? (parameter.parts["amount"] == nil ? parameter.value.split(separator: " ").dropFirst().first.map(String.init) : nil)
        currencyCode = code ?? "USD"
    }

    public var parameter: ParameterValue {
        ParameterValue(spoken: description, value: "\(amount) \(currencyCode)",
                       parts: ["amount": "\(amount)", "currencyCode": currencyCode])
    }

    static let names = ["USD": ("dollar", "dollars"), "EUR": ("euro", "euros"), "GBP": ("pound", "pounds"),
                        "BAN": ("banana", "bananas")]

    /// "20 dollars", "1 euro", "2.50 pounds".
    public var description: String {
        let number = NSDecimalNumber(decimal: amount)
        let (one, many) = Self.names[currencyCode] ?? (currencyCode, currencyCode)
        // Cents as two digits: "3.50 dollars", not "3.5".
        var digits = number.stringValue
        if let point = digits.firstIndex(of: "."), digits[digits.index(after: point)...].count == 1 { digits += "0" }
        return "\(digits) \(number == 1 ? one : many)"
    }
}

/// A day and time of day, as spoken ("tomorrow at eight am"); SiriKit's
/// `DateComponents` for this purpose.
public struct INDateTime: ParameterConvertible, Hashable, Codable, CustomStringConvertible {
    /// `today`, `tomorrow`, a weekday (`monday`), or nil.
    public var day: String?
    /// 0...23.
    public var hour: Int?
    public var minute: Int?
    /// Minutes from when it was said ("in an hour": 60), instead of a day
    /// and an hour: the app that stores it turns it into a date.
    public var minutesFromNow: Int?
    /// How it repeats ("every morning at 7", "every Monday"): SiriKit's
    /// `INRecurrenceRule` for a reminder's date components range. With it,
    /// `day` is nil: the days are the recurrence's.
    public var recurrence: Recurrence?

    /// How a time repeats: the frequency of SiriKit's `INRecurrenceRule`,
    /// with the days of a week it falls on where said.
    public enum Recurrence: String, Sendable, Hashable, Codable, CaseIterable {
        case daily, weekdays, weekends, weekly, monthly, yearly
        case monday, tuesday, wednesday, thursday, friday, saturday, sunday

        /// "every day", "every weekday", "every Monday".
        public var description: String {
            switch self {
            case .daily: "every day"
            case .weekdays: "every weekday"
            case .weekends: "every weekend"
            case .weekly: "every week"
            case .monthly: "every month"
            case .yearly: "every year"
            default: "every " + rawValue.prefix(1).uppercased() + rawValue.dropFirst()
            }
        }
    }

    public init(day: String? = nil, hour: Int? = nil, minute: Int? = nil, minutesFromNow: Int? = nil, recurrence: Recurrence? = nil) {
        self.day = day
        self.hour = hour
        self.minute = minute
        self.minutesFromNow = minutesFromNow
        self.recurrence = recurrence
    }

    /// From a request's parts: `day` ("tomorrow", "friday"; "tonight" is
    /// today, its hours pm), `hour`, `minute`, `meridiem` ("am", "pm") and
    /// `daypart` ("morning": a time said is am, none said is 9 am;
    /// "afternoon" pm, 3 pm; "evening" pm, 6 pm; "night" pm, 9 pm). An hour
    /// of 1 to 6 said without am or pm is pm: "remind me tomorrow at five"
    /// is not 5 am. `offset` is minutes from now ("in half an hour": 30).
    /// `recurrence` is how it repeats: a ``Recurrence`` or a part of the
    /// day ("every morning": daily, in the morning).
    public init?(parameter: ParameterValue) {
        let parts = parameter.parts
        minutesFromNow = parts["offset"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        var repeatingDaypart: String?
        if let repeats = parts["recurrence"] {
            if Self.dayparts[repeats] != nil {
                recurrence = .daily
                repeatingDaypart = repeats
            } else {
                guard let known = Recurrence(rawValue: repeats) else { return nil }
                recurrence = known
            }
            minutesFromNow = nil
        }
        // A date read whole ("the day after tomorrow": "2026-12-04") is
        // named as a day once fixed (`fixed(at:)`).
        day = parts["day"] ?? parts["date"]
        hour = parts["hour"].flatMap { Int($0) ?? NumberWords.parse($0) }
        minute = parts["minute"].flatMap { Int($0) ?? NumberWords.parse($0) }
        var meridiem = parts["meridiem"]
        // A clock time read whole ("half past six", "quarter to eight",
        // "noon"): the built-in type's 24-hour "HH:MM", its hour as said
        // unless "am" or "pm" was.
        if let time = parts["time"] {
            let clock = time.split(separator: ":").compactMap { Int($0) }
            guard clock.count == 2 else { return nil }
            hour = clock[0]
            minute = clock[1] == 0 ? nil : clock[1]
            let said = Set(parameter.spoken.lowercased().split { !$0.isLetter })
            if clock[0] < 12, said.contains("am") || said.contains("morning") || said.contains("a") && said.contains("m") {
                meridiem = "am"
            }
        }
        var daypart = parts["daypart"] ?? repeatingDaypart
        // A part of the day alone is today's: "this afternoon", "this arvo".
        if day == nil, daypart != nil, minutesFromNow == nil { day = "today" }
        // Repeating, the days are the recurrence's ("every Monday", not
        // "Monday every Monday"; "every morning", not "today every day").
        if recurrence != nil { day = nil }
        if day == "tonight" {
            day = "today"
            daypart = daypart ?? "night"
        }
        if let daypart, let (defaultHour, half) = Self.dayparts[daypart] {
            if hour == nil { hour = defaultHour } else { meridiem = meridiem ?? half }
        }
        if let h = hour {
            if meridiem == nil, (1...6).contains(h) { meridiem = "pm" }
            if meridiem == "pm", h < 12 { hour = h + 12 }
            if meridiem == "am", h == 12 { hour = 0 }
        }
        guard day != nil || hour != nil || minutesFromNow != nil || recurrence != nil else { return nil }
    }

    /// The same moment as a day and a time of day, for a request said at
    /// `now`: "in 2 hours" said at 9:40 pm is today at 11:40 pm, "in 3
    /// hours" tomorrow at 12:40 am. What names a day or an hour already is
    /// returned as it is.
    public func fixed(at now: Date, in calendar: Calendar = .current) -> INDateTime {
        if let date = day.flatMap({ Self.calendarDate($0, in: calendar) }), minutesFromNow == nil {
            // Within the week ahead, the day's name; further, the date.
            let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: date).day ?? -1
            guard (0...6).contains(days) else { return self }
            return INDateTime(day: Self.dayName(of: date, daysAhead: days, in: calendar), hour: hour, minute: minute)
        }
        guard let minutesFromNow else { return self }
        let when = now.addingTimeInterval(Double(minutesFromNow) * 60)
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: when)).day ?? 0
        let time = calendar.dateComponents([.hour, .minute], from: when)
        return INDateTime(day: Self.dayName(of: when, daysAhead: days, in: calendar), hour: time.hour, minute: time.minute)
    }

    /// `date`, `daysAhead` days from today, as a `day`: "today", "tomorrow", else its weekday.
    private static func dayName(of date: Date, daysAhead: Int, in calendar: Calendar) -> String {
        daysAhead == 0 ? "today" : daysAhead == 1 ? "tomorrow" : weekdays[(calendar.component(.weekday, from: date) + 6) % 7]
    }

    /// The days of the week as a `day` names them, in `Calendar`'s order (Sunday first).
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// An ISO date as said: "2026-12-04" → "December 4"; nil for a named day.
    static func spokenDate(_ text: String) -> String? {
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December"]
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard calendarDate(text) != nil, (1...12).contains(parts[1]) else { return nil }
        return "\(months[parts[1] - 1]) \(parts[2])"
    }

    /// A `day` that is an ISO date ("2026-12-04") as the start of that day
    /// in the current calendar; nil for a named day.
    static func calendarDate(_ text: String, in calendar: Calendar = .current) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, text.count == 10 else { return nil }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    /// A part of the day: the hour it means alone, and the half of the day its hours are in.
    static let dayparts: [String: (hour: Int, half: String)] = [
        "morning": (9, "am"), "afternoon": (15, "pm"), "evening": (18, "pm"), "night": (21, "pm"),
    ]

    public var parameter: ParameterValue {
        var parts: [String: String] = [:]
        parts["day"] = day
        parts["hour"] = hour.map(String.init)
        parts["minute"] = minute.map(String.init)
        parts["offset"] = minutesFromNow.map(String.init)
        parts["recurrence"] = recurrence?.rawValue
        return ParameterValue(spoken: description, value: description, parts: parts)
    }

    /// "tomorrow at 8 am", "at 6:30 pm", "monday", "in an hour", "in 2
    /// hours", "in 45 minutes", "every day at 7 am", "every Monday".
    public var description: String {
        if let minutesFromNow {
            if minutesFromNow == 60 { return "in an hour" }
            if minutesFromNow % 60 == 0 { return "in \(minutesFromNow / 60) hours" }
            return "in \(minutesFromNow) minute\(minutesFromNow == 1 ? "" : "s")"
        }
        var words: [String] = []
        if let recurrence { words.append(recurrence.description) }
        if let day { words.append(Self.spokenDate(day).map { "on \($0)" } ?? day) }
        if let hour {
            let h12 = hour % 12 == 0 ? 12 : hour % 12
            let time = minute.map { String(format: "%d:%02d", h12, $0) } ?? String(h12)
            words.append("at \(time) \(hour < 12 ? "am" : "pm")")
        }
        return words.joined(separator: " ")
    }

    /// ``description`` as said to a person: a weekday with "on" and its
    /// capital ("I'll remind you on Friday at 9 am", not "friday at 9 am").
    public var spokenDescription: String {
        guard minutesFromNow == nil, let day, Self.weekdays.contains(day) else { return description }
        var time = self
        time.day = nil
        let named = "on " + day.prefix(1).uppercased() + day.dropFirst()
        return ([named] + [time.description].filter { !$0.isEmpty }).joined(separator: " ")
    }
}

/// A workout goal: SiriKit's `goalValue` with its `workoutGoalUnitType`.
public struct INWorkoutGoal: ParameterConvertible, Hashable, Codable, CustomStringConvertible {
    public enum Unit: String, Sendable, Codable, CaseIterable {
        case minute, hour, mile, kilometer, meter, foot, yard, kilocalorie, unknown
    }
    public var goalValue: Double
    public var unit: Unit

    public init(goalValue: Double, unit: Unit) {
        self.goalValue = goalValue
        self.unit = unit
    }

    public init?(parameter: ParameterValue) {
        // A duration read whole ("three quarters of an hour": "PT45M"):
        // whole hours in hours, anything else in minutes.
        if let duration = parameter.parts["duration"] {
            guard let seconds = Self.seconds(ofISODuration: duration), seconds >= 60 else { return nil }
            if seconds % 3600 == 0 {
                goalValue = Double(seconds / 3600)
                unit = .hour
            } else {
                goalValue = Double(seconds) / 60
                unit = .minute
            }
            return
        }
        // A part said after the whole number, or alone ("two and a half
        // miles", "half a mile"): `fraction`.
        let fraction = parameter.parts["fraction"].flatMap(Double.init)
        let text = parameter.parts["goalValue"] ?? ""
        guard let value = Double(text) ?? NumberWords.parse(text).map(Double.init) ?? (fraction != nil && text.isEmpty ? 0 : nil)
        else { return nil }
        goalValue = value + (fraction ?? 0)
        unit = parameter.parts["workoutGoalUnitType"].flatMap(Unit.init(rawValue:)) ?? .unknown
    }

    public var parameter: ParameterValue {
        ParameterValue(spoken: description, value: description,
                       parts: ["goalValue": String(goalValue), "workoutGoalUnitType": unit.rawValue])
    }

    /// The seconds of an ISO 8601 duration of days, hours, minutes and
    /// seconds ("P1D", "PT1H30M"); nil for anything else.
    static func seconds(ofISODuration text: String) -> Int? {
        guard text.hasPrefix("P") else { return nil }
        var total = 0, number = "", inTime = false
        for c in text.dropFirst() {
            if c.isNumber { number.append(c); continue }
            if c == "T", number.isEmpty { inTime = true; continue }
            guard let n = Int(number) else { return nil }
            switch (c, inTime) {
            case ("D", false): total += n * 86400
            case ("H", true): total += n * 3600
            case ("M", true): total += n * 60
            case ("S", true): total += n
            default: return nil
            }
            number = ""
        }
        return number.isEmpty && total > 0 ? total : nil
    }

    /// "30 minutes", "5 kilometers".
    public var description: String {
        let number = goalValue == goalValue.rounded() ? String(Int(goalValue)) : String(goalValue)
        let name = unit == .kilocalorie ? "calorie" : unit.rawValue
        return unit == .unknown ? number : "\(number) \(name)\(goalValue == 1 ? "" : "s")"
    }
}

/// A value from a fixed set, spoken as its raw value.
public protocol ParameterEnum: ParameterConvertible, RawRepresentable, CaseIterable, Hashable where RawValue == String {}

extension ParameterEnum {
    public init?(parameter: ParameterValue) { self.init(rawValue: parameter.value) }
    public var parameter: ParameterValue { ParameterValue(spoken: spokenName, value: rawValue) }
    /// The raw value with camel case read as words ("notCompleted" → "not completed").
    public var spokenName: String {
        rawValue.reduce(into: "") { text, c in
            if c.isUppercase { text += " " + c.lowercased() } else { text.append(c) }
        }
    }
}

public enum INMessageAttribute: String, ParameterEnum { case read, unread, flagged, unflagged }
public enum INCallRecordType: String, ParameterEnum { case missed, received, outgoing, latest }
public enum INWorkoutLocationType: String, ParameterEnum { case indoor, outdoor }
public enum INAccountType: String, ParameterEnum { case checking, savings, credit, investment }
public enum INTaskStatus: String, ParameterEnum { case completed, notCompleted }
public enum INNotebookItemType: String, ParameterEnum { case note, taskList, task }
public enum INVisualCodeType: String, ParameterEnum { case contact, requestPayment, sendPayment, transit, bus, subway }

/// English number words ↔ numbers, for spoken amounts and typed digits.
public enum NumberWords {
    static let units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// "twenty five" → 25, "a hundred" → 100, "two thousand and ten" → 2010.
    public static func parse(_ text: String) -> Int? {
        let words = text.lowercased().split { $0 == " " || $0 == "-" }.map(String.init).filter { $0 != "and" }
        guard !words.isEmpty else { return nil }
        var total = 0, current = 0
        for word in words {
            if let n = Int(word) { current += n }
            else if let n = units.firstIndex(of: word) { current += n }
            else if let n = tens.firstIndex(of: word), n >= 2 { current += n * 10 }
            else if word == "a" { current += 1 }
            else if word == "hundred" { current = max(current, 1) * 100 }
            else if word == "thousand" { total += max(current, 1) * 1000; current = 0 }
            else { return nil }
        }
        return total + current
    }
}
