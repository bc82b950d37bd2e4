@testable import HarkRecognition
import Testing

@Suite("a grammar word heard twice over one word's sound is one word")
struct RepeatedWordsTests {
    typealias Segment = PocketSphinxDecoder.Segment
    /// Two phones a word, as "to" (T UW).
    static func merged(_ segments: [Segment]) -> [Segment] {
        PocketSphinxDecoder.mergingRepeatedWords(segments) { _ in 2 }
    }
    static func word(_ token: String, _ start: Int, _ end: Int, _ confidence: Double, acoustic: Int = -100) -> Segment {
        Segment(token: token, startFrame: start, endFrame: end, confidence: confidence, acoustic: acoustic)
    }

    @Test("the squeezed one of two, first or second, with a phone of free text between or none, goes into the other")
    func merges() {
        let me = Self.word("me", 60, 75, 0.99)
        // "remind me to | t | to by …": the first "to" 6 frames, 0.00.
        let first = Self.merged([me, Self.word("to(2)", 76, 81, 0.0, acoustic: -50), Self.word("+hark_text_d", 82, 85, 1, acoustic: -20),
                                 Self.word("to(3)", 86, 98, 0.21, acoustic: -70), Self.word("by", 99, 120, 0.5)])
        #expect(first.map(\.token) == ["me", "to(3)", "by"])
        #expect(first[1].startFrame == 76 && first[1].endFrame == 98 && first[1].confidence == 0.21 && first[1].acoustic == -140)
        // "remind me to to buy …": the second "to" 6 frames, 0.00; the first kept.
        let second = Self.merged([me, Self.word("to", 76, 88, 0.39), Self.word("to", 89, 94, 0.0), Self.word("buy", 95, 110, 0.01)])
        #expect(second.map(\.token) == ["me", "to", "buy"])
        #expect(second[1].startFrame == 76 && second[1].endFrame == 94 && second[1].confidence == 0.39)
    }

    @Test("two said in their own time, different words, free text of two phones between, or free text: kept as heard")
    func keeps() {
        let said = [Self.word("that", 0, 20, 0.9), Self.word("that", 21, 40, 0.8)]
        #expect(Self.merged(said).count == 2)
        // Sure of itself though short: said.
        #expect(Self.merged([Self.word("to", 0, 5, 0.3), Self.word("to", 6, 20, 0.8)]).count == 2)
        #expect(Self.merged([Self.word("to", 0, 5, 0.0), Self.word("two", 6, 20, 0.8)]).count == 2)
        let run = [Self.word("to", 0, 5, 0.0), Self.word("+hark_text_t", 6, 9, 1), Self.word("+hark_text_uw", 10, 14, 1), Self.word("to", 15, 30, 0.8)]
        #expect(Self.merged(run).count == 4)
        #expect(Self.merged([Self.word("+hark_text_t", 0, 5, 1), Self.word("+hark_text_t", 6, 9, 1)]).count == 2)
    }
}
