import Foundation
import HarkRecognition
import Testing

/// Debian's pocketsphinx-en-us model, which the lexicon serves.
enum Model {
    static let directory = "/usr/share/pocketsphinx/model/en-us"
    static let lexicon: Lexicon = try! Lexicon(contentsOf: directory + "/cmudict-en-us.dict")
}

@Suite("lexicon: dictionary, hints and letter-to-sound")
struct LexiconTests {
    @Test("IPA as espeak-ng writes it maps onto the model's ARPAbet phones", arguments: [
        ("bˌænɐnɑːɹɹˈɪfɪk", "B AE N AH N AA R IH F IH K"),
        ("bˈoʊboʊ", "B OW B OW"),
        ("mˈʌŋkɪtʃˌæt", "M AH NG K IH CH AE T"),
        ("θˈɜːɾi", "TH ER T IY"),
        ("jˈuːnɪkˌoːɹn", "Y UW N IH K AO R N"),
        ("dʒˈʌŋɡəl ʃˈaɪ", "JH AH NG G AH L SH AY"),
        ("ðɪ ˈaʊɚ", "DH IH AW ER"),
    ])
    func ipaToARPAbet(ipa: String, phones: String) {
        #expect(LetterToSound.arpabet(fromIPA: ipa).joined(separator: " ") == phones)
    }

    @Test("every phone the mapping can produce is a phone of the en-us acoustic model (read from its mdef)")
    func phonesAreTheModels() throws {
        let modelPhones = try LetterToSound.phones(ofModelDefinition: Model.directory + "/en-us/mdef")
        #expect(modelPhones.count == 42, "39 phones, SIL and two noises: \(modelPhones.sorted())")
        #expect(LetterToSound.modelPhones.isSubset(of: modelPhones))
        #expect(LetterToSound.modelPhones.count == 39)
        let produced = Set(LetterToSound.ipaToARPAbetValues)
        #expect(produced.isSubset(of: LetterToSound.modelPhones), "\(produced.subtracting(LetterToSound.modelPhones))")
    }

    @Test("words the dictionary lacks get espeak-ng's letter-to-sound phones, the same every time", arguments: [
        ("bananarific", "B AE N AH N AA R IH F IH K"),
        ("monkeychat", "M AH NG K IH CH AE T"),
        ("listomat", "L IH S T AH M AE T"),
        ("fic", "F IH K"),
    ])
    func letterToSound(word: String, phones: String) throws {
        #expect(Model.lexicon.dictionaryPronunciations(of: word) == nil, "\(word) is in cmudict; pick another")
        let found = try #require(Model.lexicon.lookup(word))
        #expect(found.source == .letterToSound)
        #expect(found.variants.map { $0.joined(separator: " ") } == [phones])
        #expect(LetterToSound(voice: "en-us").phones(for: word)?.joined(separator: " ") == phones, "a fresh converter agrees")
    }

    @Test("dictionary words keep every cmudict variant and say so")
    func dictionaryWords() throws {
        let bobo = try #require(Model.lexicon.lookup("Bobo"))
        #expect(bobo.source == .dictionary && bobo.variants == [["B", "OW", "B", "OW"]])
        #expect(Model.lexicon.lookup("ba")?.variants == [["B", "IY", "EY"], ["B", "AA"]])
        #expect(Model.lexicon.contains("bananarific"))
        #expect(Model.lexicon.pronunciations(of: "bananarific") == [["B", "AE", "N", "AH", "N", "AA", "R", "IH", "F", "IH", "K"]])
    }

    @Test("a pronunciation hint is read piece by piece: cmudict first (the variant nearest the spelling), else letter-to-sound", arguments: [
        ("ba nana ri fic", "B AA N AE N AH R AY F IH K", ["cmudict", "cmudict", "espeak-ng g2p", "espeak-ng g2p"]),
        ("list oh mat", "L IH S T OW M AE T", ["cmudict", "cmudict", "cmudict"]),
        ("you nee corn pay", "Y UW N IY K AO R N P EY", ["cmudict", "cmudict", "cmudict", "cmudict"]),
        ("monkey to do", "M AH NG K IY T UW D UW", ["cmudict", "cmudict", "cmudict"]),
    ])
    func hints(hint: String, phones: String, sources: [String]) throws {
        let (result, pieces) = try #require(Model.lexicon.pronounce(hint: hint))
        #expect(result.joined(separator: " ") == phones)
        #expect(pieces.map(\.source.rawValue) == sources)
        #expect(pieces.map(\.word) == hint.split(separator: " ").map(String.init))
    }

    @Test("without letter-to-sound, unknown words and hints have no pronunciation")
    func noLetterToSound() {
        let lexicon = Lexicon(entries: ["list": [["L", "IH", "S", "T"]]])
        #expect(lexicon.lookup("bananarific") == nil)
        #expect(!lexicon.contains("bananarific"))
        #expect(lexicon.pronounce(hint: "list oh mat") == nil)
        #expect(lexicon.pronounce(hint: "list")?.phones == ["L", "IH", "S", "T"])
    }
}
