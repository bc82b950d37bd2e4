@testable import Hark
import Testing

/// Typed text with hesitations and false starts is mended to what was
/// meant before it is read; words meant twice stay.
@Suite struct DisfluencyTests {
    @Test("hesitations go, words said again after a break or a small word stuttered are said once, a start begun again after a dash is kept",
          arguments: [
              ("uh add, um, oat milk to the, the shopping list", "add, oat milk to the shopping list"),
              ("end my — end the Vine Swing in MonkeyFit", "end the Vine Swing in MonkeyFit"),
              ("get me a ride to the — to the airport", "get me a ride to the airport"),
              ("call uh call Bobo", "call Bobo"),
              ("pay Bobo for for the pizza", "pay Bobo for the pizza"),
              ("remind me to — to call the dentist", "remind me to call the dentist"),
              // A dash ends a clause, as a comma does, for the correction after it.
              ("pay Bobo twenty — no, twenty five dollars", "pay Bobo twenty, no, twenty five dollars"),
          ])
    func mended(_ typed: String, _ meant: String) {
        #expect(Disfluency.mended(typed)?.text == meant)
    }

    @Test("the words dropped as said before are told, not the hesitations")
    func dropped() {
        #expect(Disfluency.mended("uh add, um, oat milk to the, the shopping list")?.dropped == ["the"])
        #expect(Disfluency.mended("end my — end the Vine Swing")?.dropped == ["end", "my"])
        #expect(Disfluency.mended("get me a ride to the — to the airport")?.dropped == ["to", "the"])
        #expect(Disfluency.mended("um add oat milk to the grocery list")?.dropped == [])
    }

    @Test("a single word said twice in a row is told as echoed; not after a hesitation, a dash or an ellipsis, nor a run of words")
    func echoed() {
        #expect(Disfluency.mended("tell Bobo that, that was fun")?.echoed == ["that"])
        #expect(Disfluency.mended("pay Bobo for for the pizza")?.echoed == ["for"])
        #expect(Disfluency.mended("tell Bobo that, uh, that I will be late")?.echoed == [])
        #expect(Disfluency.mended("remind me to — to call the dentist")?.echoed == [])
        #expect(Disfluency.mended("remind me to... to call mum")?.echoed == [])
        #expect(Disfluency.mended("get me a ride to the, to the airport")?.echoed == [])
    }

    @Test("words meant twice, and text with nothing to mend, are left as written",
          arguments: ["text Bobo bye bye see you soon", "tell Little Bobo no, no, not the red one", "tell Bobo I'm very, very late",
                      "send a message to Bobo saying that that was fun", "add eggs to the grocery list"])
    func unchanged(_ typed: String) {
        #expect(Disfluency.mended(typed) == nil)
    }

    @Test("after a dash, what follows a short broken-off start; nothing without one")
    func restart() {
        #expect(Disfluency.restart("um did I miss — show my missed calls on MonkeyChat") == "show my missed calls on MonkeyChat")
        #expect(Disfluency.restart("show my missed calls on MonkeyChat") == nil)
        // A long start is no false start.
        #expect(Disfluency.restart("tell Bobo on MonkeyChat that I will be there — at seven") == nil)
    }
}
