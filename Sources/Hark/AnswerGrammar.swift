import HarkCatalog
import HarkEngine
import HarkGrammar
import HarkIntents

/// The narrow grammar a follow-up answer is heard and read against: only
/// what the pending question allows (a contact's name, yes or no, one of the
/// options, free text), plus "cancel". Narrowing is what makes a one-word
/// answer like "Bobo" reliable.
enum AnswerGrammar {
    static let app = "answer"
    static let yes = "yes", no = "no", cancel = "cancel", value = "value", ordinal = "ordinal"

    static let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
    static let cardinals = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// The answer grammar for `question`, with `vocabulary` giving the values
    /// of vocabulary-typed parameters (contacts for `.person`).
    static func graph(for question: Question, vocabulary: [String: [String]]) throws -> IntentGraph {
        var file = GrammarFile(path: "<answer grammar>")
        file.intents.append(intent(cancel, "cancel | stop | never mind | forget it"))
        switch question {
        case .confirmValue, .confirmIntent:
            file.intents.append(intent(yes, "yes [please] | yeah | yep | sure | ok | okay | correct | right | go ahead | do it | that's right"))
            file.intents.append(intent(no, "no | nope | no thanks | not really | don't | wrong"))
        case .choice(_, let options):
            file.lists["answer"] = Catalog.valueList(options.map(\.spoken))
            file.lists["ordinal"] = .alternatives(
                ordinals.prefix(options.count).enumerated().map { .value(spoken: .word($0.element), canonical: String($0.offset)) }
                + cardinals.prefix(options.count).enumerated().map { .value(spoken: .word($0.element), canonical: String($0.offset)) })
            file.intents.append(intent(value, "[the one called | i mean] [the] {answer} [please]"))
            file.intents.append(intent(ordinal, "[the] {ordinal} [one] [please] | number {ordinal}"))
        case .value(let parameter):
            switch parameter.kind {
            case .text:
                file.slots["answer"] = .text
                file.intents.append(intent(value, "{answer}"))
            case .person:
                file.lists["answer"] = Catalog.valueList(vocabulary["contactName"] ?? [])
                file.intents.append(intent(value, "[to] {answer} [please]"))
            case .vocabulary(let type):
                file.lists["answer"] = Catalog.valueList(vocabulary[type] ?? [])
                file.intents.append(intent(value, "{answer} [please]"))
            }
        }
        return try GrammarCompiler.compile([GrammarInstance(app: app, grammar: file)])
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
        case ordinal: return parse.slotValues["ordinal"].flatMap(Int.init).map(Answer.choice)
        case value:
            guard let slot = parse.slots.first(where: { $0.name == "answer" }) else { return nil }
            return .value(ParameterValue(spoken: slot.value == slot.raw ? slot.raw : slot.value, value: slot.value))
        default: return nil
        }
    }
}
