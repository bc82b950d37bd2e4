import HarkGrammar
import Testing

@Suite("Spoken punctuation")
struct SpokenPunctuationTests {
    @Test("punctuation said in dictated words is written as marks", arguments: [
        ("I'm running late comma save me a seat period", "I'm running late, save me a seat."),
        ("did you feed the cat question mark", "did you feed the cat?"),
        ("happy birthday exclamation point new line love comma Dad", "happy birthday!\nlove, Dad"),
        ("bananas comma 6 limes comma and a bag of ice", "bananas, 6 limes, and a bag of ice"),
        ("see you then full stop", "see you then."),
        ("Bobo colon banana slippers new paragraph Zuzu colon a kite", "Bobo: banana slippers\n\nZuzu: a kite"),
        ("electricity bill dash March", "electricity bill - March"),
        // A colon said first, after the carrier ("make a note colon …"), is no mark.
        ("colon call the landlord comma ask for Tuesday", "call the landlord, ask for Tuesday"),
    ])
    func marks(said: String, written: String) {
        #expect(SpokenPunctuation.written(said) == written)
    }

    @Test("quoted words are the value when they are all of it, a quotation inside others")
    func quotations() {
        #expect(SpokenPunctuation.written("quote I'll be there by 7 unquote") == "I'll be there by 7")
        #expect(SpokenPunctuation.written("he said quote hi there end quote to me") == "he said \u{201C}hi there\u{201D} to me")
        // No closing word: "quote" is a word.
        #expect(SpokenPunctuation.written("get a quote for the roof") == "get a quote for the roof")
        #expect(SpokenPunctuation.written("quote of the day") == "quote of the day")
        // Only marks' words: the words.
        #expect(SpokenPunctuation.written("comma") == "comma")
    }

    @Test("a mark's word used as a noun stays a word", arguments: [
        "a period of two weeks", "the trial period ends friday", "make a dash for it", "my colon is fine", "text me the period of play",
    ])
    func nouns(said: String) {
        #expect(SpokenPunctuation.written(said) == said)
    }
}
