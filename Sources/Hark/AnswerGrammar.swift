import HarkCatalog
import HarkEngine
import HarkGrammar
import HarkIntents

/// The narrow grammar a follow-up answer is heard and read against: only
/// what the pending question allows (a contact's name, yes or no, one of the
/// options, an amount, a time, free text), plus "cancel". Narrowing is what
/// makes a one-word answer like "Bobo" reliable.
enum AnswerGrammar {
    static let app = "answer"
    static let yes = "yes", no = "no", cancel = "cancel", value = "value", ordinal = "ordinal", change = "change"

    /// Ways of saying yes and no ("yes please", "yeah sure", "nah").
    static let yesWords = "(yes | yeah | yep | yup | sure | ok | okay | correct | right | absolutely | definitely | of course | please do | go ahead | do it | that's right | that's it | sounds good | perfect)"
    static let noWords = "(no | nope | nah | no way | not really | don't | do not | wrong | negative | not that)"
    /// "send it", "go ahead and send it", "book it".
    static let goAhead = "[go ahead and] (send | book | do | order | make | pay | start) [it | that | them] | send"

    /// Ways of calling it off ("cancel that", "no, just stop", "scratch that").
    static let cancelWords = "[no] [just] (cancel | stop) [it | that | this | the (message | request | order | ride | payment | note)] | never mind | forget it | forget about it | scratch that"

    static let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
    static let cardinals = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// The answer grammar for `question`.
    ///
    /// - Parameters:
    ///   - vocabulary: The app's user vocabulary by type (contacts for `.person`).
    ///   - common: The lists the app's answers may take: the domains' shared
    ///     lists (numbers, currencies, task statuses, ...), and for an app's
    ///     own intents its grammars' lists and app vocabulary
    ///     (``Catalog/answerLists(app:)``).
    ///   - anyWords: A value asked for may also be any words, as the app's
    ///     grammar takes it with `{slot or text}` (a place on no list).
    static func graph(for question: Question, vocabulary: [String: [String]],
                      common: [String: GrammarExpression] = [:], anyWords: Bool = false) throws -> IntentGraph {
        var file = GrammarFile(path: "<answer grammar>")
        file.lists = common
        file.intents.append(intent(cancel, cancelWords))
        func list(_ type: String) -> GrammarExpression {
            if let strings = vocabulary[type] { return Catalog.valueList(strings) }
            return common[type] ?? .alternatives([])
        }
        switch question {
        case .confirmValue(let parameter, _):
            file.intents.append(intent(yes, "\(yesWords) [\(yesWords)] [please | it is | that's (it | right | the one) | that one]"))
            file.intents.append(intent(no, "\(noWords) [thanks | thank you | that's wrong | not that one]"))
            // "No, Bobo Jr." — a different value instead.
            if parameter.kind == .person {
                file.lists["answer"] = list("contactName")
                file.intents.append(intent(value, "(no | nope) [i mean | i meant] {answer}"))
            }
        case .confirmIntent:
            file.intents.append(intent(yes, "\(yesWords) [\(yesWords)] [please] [\(goAhead)] [please] | \(goAhead) [please]"))
            file.intents.append(intent(no, "[wait | oh | hmm] \(noWords) [thanks | thank you | don't (do | send | book) it | wait | not yet] | don't (do | send | book) it | wait | hold on | not now | not yet"))
            // At a read-back: say the message again.
            file.intents.append(intent(change, "[no] [\(noWords)] [let me | i want to | i'd like to | can i] (change | edit | fix | rewrite | redo | reword) (it | that | the message | the text | the note | what it says) | [no] (something else | say something else | different message)"))
        case .choice(_, let options):
            file.lists["answer"] = Catalog.valueList(options.map(\.spoken))
            file.lists["ordinal"] = .alternatives(
                ordinals.prefix(options.count).enumerated().map { .value(spoken: .word($0.element), canonical: String($0.offset)) }
                + cardinals.prefix(options.count).enumerated().map { .value(spoken: .word($0.element), canonical: String($0.offset)) }
                + [.value(spoken: .word("last"), canonical: String(options.count - 1))])
            file.intents.append(intent(value, "[the one called | i mean | i meant] [the] {answer} [please]"))
            file.intents.append(intent(ordinal, "[the] {ordinal} [one] [please] | number {ordinal} [please] | [the] {ordinal} option"))
        case .value(let parameter):
            switch parameter.kind {
            case .text:
                file.slots["answer"] = .text
                file.intents.append(intent(value, "{answer}"))
            case .person:
                file.lists["answer"] = list("contactName")
                file.intents.append(intent(value, "[to] [my] [best | good | old] [friend | buddy | pal] {answer} [please]"))
            case .vocabulary(let type):
                file.lists["answer"] = list(type)
                file.intents.append(intent(value, "[the | my | to] {answer} [one | list | please]"))
                if anyWords {
                    // "Union Station", "to the Grand Hotel": a value on no
                    // list, as the request itself could have given it.
                    file.intents.append(intent(value, "[to | at | from] {answer or text}"))
                }
            case .number:
                file.lists["answer"] = list("number")
                file.intents.append(intent(value, "{answer} [please | stars | people]"))
            case .currencyAmount:
                file.lists["amount"] = list("number")
                file.slots["answer.amount"] = .list("amount")
                file.slots["answer.currencyCode"] = .list("currencyCode")
                // Typed, any amount with its cents ("$12.50"): the built-in type, never heard.
                file.slots["answer"] = .list("currency")
                file.intents.append(intent(value, "({answer.amount} [{answer.currencyCode}] | (typed: {answer})) [please]"))
            case .dateTime:
                file.slots["answer.day"] = .list("day")
                file.slots["answer.hour"] = .list("hour")
                file.slots["answer.minute"] = .list("minute")
                file.slots["answer.meridiem"] = .list("meridiem")
                file.intents.append(intent(value, "[{answer.day}] [at] {answer.hour} [{answer.minute}] [o'clock] [{answer.meridiem}] | {answer.day}"))
            case .workoutGoal:
                file.slots["answer.goalValue"] = .list("number")
                file.slots["answer.workoutGoalUnitType"] = .list("goalUnit")
                file.intents.append(intent(value, "[for] {answer.goalValue} {answer.workoutGoalUnitType}"))
            case .builtIn(let type):
                // number, ordinal, currency, time, date, duration: the grammar's own sub-grammar.
                file.slots["answer"] = .list(type)
                file.intents.append(intent(value, "[the] {answer} [please]"))
            }
        }
        return try GrammarCompiler.compile([GrammarInstance(app: app, grammar: file)])
    }

    static let appName = "appName"

    /// The answer to "Which app?": an app by any of its names ("TasksNotes",
    /// "in TasksNotes", "use List-o-Mat please"), by ordinal in the order
    /// asked ("the second one"), or "cancel".
    static func appChoice(_ apps: [InstalledApp]) throws -> IntentGraph {
        var file = GrammarFile(path: "<app choice>")
        file.intents.append(intent(cancel, "\(cancelWords) | neither | none of them"))
        file.lists["answer"] = .alternatives(apps.flatMap { app in
            app.spokenNames.map { GrammarExpression.value(spoken: .sequence($0.map(GrammarExpression.word)), canonical: app.name) }
        })
        file.lists["ordinal"] = .alternatives(
            ordinals.prefix(apps.count).enumerated().map { .value(spoken: .word($0.element), canonical: String($0.offset)) }
            + cardinals.prefix(apps.count).enumerated().map { .value(spoken: .word($0.element), canonical: String($0.offset)) }
            + [.value(spoken: .word("last"), canonical: String(apps.count - 1))])
        file.intents.append(intent(appName, "[(in | with | on | use | using | through) [the]] {answer} [app] [please] | [the] {answer} one"))
        file.intents.append(intent(ordinal, "[the] {ordinal} [one | app] [please] | number {ordinal}"))
        return try GrammarCompiler.compile([GrammarInstance(app: Self.app, grammar: file)])
    }

    /// The app chosen by an answer to "Which app?" (`apps` in the order asked).
    static func chosenApp(from parse: Parse, among apps: [String]) -> String? {
        switch parse.intent {
        case appName: return parse.slotValues["answer"]
        case ordinal: return parse.slotValues["ordinal"].flatMap(Int.init).flatMap { apps.indices.contains($0) ? apps[$0] : nil }
        default: return nil
        }
    }

    private static func intent(_ name: String, _ template: String) -> IntentDefinition {
        // The templates above are fixed and well-formed.
        let expression = try! GrammarParser.parseExpression(template, path: "<answer grammar>")
        return IntentDefinition(name: name, sentences: [expression],
                                location: SourceLocation(file: "<answer grammar>", line: 1, column: 1))
    }

    /// Reads the best parse of an answer as an engine ``Answer``.
    static func answer(from parse: Parse) -> Answer? {
        switch parse.intent {
        case yes: return .yes
        case no: return .no
        case cancel: return .cancel
        case change: return .change
        case ordinal: return parse.slotValues["ordinal"].flatMap(Int.init).map(Answer.choice)
        case value:
            return Assistant.parameters(from: parse.slots)["answer"].map(Answer.value)
        default: return nil
        }
    }
}
