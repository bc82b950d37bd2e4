import Foundation
import HarkGrammar

/// How a labelled slot value is compared with the value Hark gave, in every
/// bench: as words, as they would be said. The case, punctuation and
/// spelling of a value ("I'm sorry", "Banana Car", "Bobo Jr.") do not
/// count against a label written another way ("i'm sorry", "banana-car",
/// "Bobo Junior"), and a label may give either the resolved value ("20
/// USD", as the audio fixtures do) or the words said for it ("twenty
/// dollars", as the development sets do, written as people say them).
public enum SlotValue {
    /// Whether `label` names `value` (the slot as resolved) or `spoken`
    /// (the words said for it).
    public static func matches(label: String, value: String, spoken: String? = nil) -> Bool {
        let expected = SpokenForm.words(of: label)
        if SpokenForm.words(of: value) == expected || spoken.map({ SpokenForm.words(of: $0) == expected }) == true { return true }
        // Numbers and shorthand typed in the label or the value: "$45" and
        // "forty five dollars", "2 miles" and "two miles".
        if SpokenForm.saidWords(of: label) == SpokenForm.saidWords(of: value) { return true }
        // A whole amount resolved ("12.50 USD", a typed "$12.50") or said in
        // parts ("a three dollar tip") against the words said for it
        // ("twelve dollars fifty", "3 dollars").
        if let resolved = amount(value) ?? spokenAmount(value), let said = spokenAmount(label) {
            return resolved == said
        }
        return false
    }

    /// Words said for an amount ("three dollar", "$12.50") as a number and a currency code.
    private static func spokenAmount(_ text: String) -> (Decimal, String)? {
        amountParser?.parse(text).first?.slotValues["amount"].flatMap(amount)
    }

    /// "12.50 USD" as a number and a currency code; nil for anything else.
    private static func amount(_ text: String) -> (Decimal, String)? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, parts[1].count == 3, parts[1].allSatisfy(\.isUppercase),
              let number = Decimal(string: String(parts[0])) else { return nil }
        return (number, String(parts[1]))
    }

    /// Reads words said as an amount with the built-in `currency` type.
    private static let amountParser: TextParser? = {
        guard let file = try? GrammarParser.parse("slot amount: currency\nintent Amount:\n    {amount}\n", path: "amount.hark"),
              let graph = try? GrammarCompiler.compile([GrammarInstance(app: "Bench", grammar: file)]) else { return nil }
        return TextParser(graph: graph)
    }()
}
