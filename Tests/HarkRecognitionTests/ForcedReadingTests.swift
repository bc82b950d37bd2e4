import HarkRecognition
import Testing

@Suite("forced readings: a grammar reading that does not fit the speech")
struct ForcedReadingTests {
    typealias Word = ForcedReading.Word
    static func word(_ frames: Int, phones: Int, _ confidence: Double) -> Word {
        Word(frames: frames, phones: phones, confidence: confidence, isFreeText: false)
    }
    static let free = Word(frames: 0, phones: 0, confidence: 1, isFreeText: true)

    @Test("a carrier before free text at its shortest and unlike the audio is forced; one said in its own time is not")
    func squeezedCarrier() {
        // "send twenty dollars to bobo for <free text>", "for" (F ER) 6 frames, 0.00.
        let said = [Self.word(34, phones: 3, 0.42), Self.word(44, phones: 5, 0.91), Self.word(39, phones: 5, 0.22),
                    Self.word(15, phones: 2, 0.89), Self.word(34, phones: 4, 0.90)]
        #expect(ForcedReading.hasSqueezedCarrier(said + [Self.word(6, phones: 2, 0.00), Self.free]))
        #expect(ForcedReading.isForced(said + [Self.word(7, phones: 2, 0.01), Self.free]))   // one frame to spare
        // Longer than its phones' shortest by two frames, or sure, or not before free text: not forced.
        #expect(!ForcedReading.isForced(said + [Self.word(8, phones: 2, 0.00), Self.free]))
        #expect(!ForcedReading.isForced(said + [Self.word(6, phones: 2, 0.30), Self.free]))
        #expect(!ForcedReading.hasSqueezedCarrier(said + [Self.word(6, phones: 2, 0.00)]))
        // A one-phone word ("a") is at its shortest whenever said quickly.
        #expect(!ForcedReading.isForced(said + [Self.word(3, phones: 1, 0.00), Self.free]))
        // Free text first, then a squeezed word: not a carrier.
        #expect(!ForcedReading.hasSqueezedCarrier([Self.free, Self.word(6, phones: 2, 0.0)] + said))
        // Squeezed, wherever it is: two phones or more, at most a frame
        // over their shortest, unlike the audio; never free text.
        #expect(ForcedReading.isSqueezed(Self.word(7, phones: 2, 0.04)))
        #expect(!ForcedReading.isSqueezed(Self.word(8, phones: 2, 0.00)))
        #expect(!ForcedReading.isSqueezed(Self.word(7, phones: 2, 0.05)))
        #expect(!ForcedReading.isSqueezed(Self.word(3, phones: 1, 0.00)))
        #expect(!ForcedReading.isSqueezed(Self.free))
    }

    @Test("a reading most of whose grammar words are unlike the audio is forced; free text does not count")
    func mostlyUnlike() {
        let sure = Self.word(30, phones: 3, 0.9), unlike = Self.word(30, phones: 3, 0.05)
        // 2 of 5 (40%) unlike: not more than the share.
        #expect(!ForcedReading.isMostlyUnlike([sure, unlike, sure, unlike, sure]))
        // 3 of 5.
        #expect(ForcedReading.isMostlyUnlike([sure, unlike, unlike, unlike, sure]))
        #expect(ForcedReading.isForced([unlike, unlike, sure]))
        // Free text around is no grammar word: 1 of 3 grammar words.
        #expect(!ForcedReading.isMostlyUnlike([sure, unlike, Self.free, sure]))
        #expect(!ForcedReading.isMostlyUnlike([Self.free]))
        // Words under three phones do not count: "i'd like a latte with brown
        // sugar" as said (barista-dev), "i'd", "like", "a" and "with" under
        // 0.1, but of the five words of three phones or more only two.
        let latte = [Self.word(11, phones: 2, 0.09), Self.word(16, phones: 3, 0.02), Self.word(4, phones: 1, 0.01),
                     Self.word(42, phones: 4, 0.90), Self.word(18, phones: 3, 0.07), Self.word(28, phones: 4, 0.36),
                     Self.word(44, phones: 4, 0.99)]
        #expect(!ForcedReading.isMostlyUnlike(latte))
        // The same with "brown" unlike too: 3 of 5.
        var worse = latte
        worse[5].confidence = 0.05
        #expect(ForcedReading.isMostlyUnlike(worse))
        #expect(!ForcedReading.isForced([]))
    }
}
