@testable import HarkGrammar
import Testing

@Suite("Typos")
struct TyposTests {
    private func typo(_ typed: String, _ word: String) -> Bool {
        Typos.isOneTypoAway(Array(typed), from: Array(word))
    }

    @Test("a letter missed, doubled or added, two neighbours swapped, a key beside the one meant")
    func oneTypo() {
        #expect(typo("remnd", "remind"))        // missed
        #expect(typo("bobbo", "bobo"))          // doubled
        #expect(typo("monkeychatt", "monkeychat"))
        #expect(typo("airprot", "airport"))     // swapped
        #expect(typo("monkeyntoes", "monkeynotes"))
        #expect(typo("monkeypat", "monkeypay")) // t is beside y
        #expect(typo("requst", "request"))
    }

    @Test("not the first letter, not a key far from the one meant, not two typos, not the word itself")
    func notATypo() {
        #expect(!typo("donkeychat", "monkeychat"))  // another app's name, as like as not
        #expect(!typo("monkeyfix", "monkeyfit"))    // x is nowhere near t
        #expect(!typo("monkeyfitness", "monkeyfit"))
        #expect(!typo("remnid", "reminder"))
        #expect(!typo("bobo", "bobo"))
        #expect(!typo("", "a"))
    }

    @Test("the word meant: the one a typo away, none when two are")
    func meant() {
        #expect(Typos.Index(["message", "mesages"], shortest: 4).meant(by: "mesage") == nil)  // either, a letter missed
        #expect(Typos.Index(["grocery", "grocer"], shortest: 4).meant(by: "grocey") == "grocery")  // r is far from y
        #expect(Typos.Index(["grocery", "great"], shortest: 4).meant(by: "grocey") == "grocery")
        #expect(Typos.Index(["grocery"], shortest: 4).meant(by: "zzzz") == nil)
        #expect(Typos.Index(["grocery"], shortest: 8).meant(by: "grocey") == nil)  // shorter than the index keeps
    }
}
