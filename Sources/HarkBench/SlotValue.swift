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
        return SpokenForm.words(of: value) == expected || spoken.map { SpokenForm.words(of: $0) == expected } == true
    }
}
