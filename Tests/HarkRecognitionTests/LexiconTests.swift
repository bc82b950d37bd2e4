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

    @Test("every word of the model's dictionary reads back exactly as the file has it, variants in order")
    func everyDictionaryWord() throws {
        // The lexicon reads entries where they are in the file's bytes
        // through a sorted index: check it against a plain reading of every line.
        let text = try String(contentsOfFile: Model.directory + "/cmudict-en-us.dict", encoding: .utf8)
        var expected: [String: [[String]]] = [:]
        var order: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix(";") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard fields.count >= 2 else { continue }
            var word = fields[0].lowercased()
            if word.hasSuffix(")"), let open = word.lastIndex(of: "(") { word = String(word[..<open]) }
            if expected[word] == nil { order.append(word) }
            expected[word, default: []].append(Array(fields.dropFirst()))
        }
        #expect(expected.count > 120_000)
        #expect(Model.lexicon.dictionaryWordCount == expected.count)
        var wrong: [String] = []
        for word in order where Model.lexicon.dictionaryPronunciations(of: word) != expected[word] { wrong.append(word) }
        #expect(wrong.isEmpty, "\(wrong.count) words differ, e.g. \(wrong.prefix(5))")
        #expect(Model.lexicon.dictionaryPronunciations(of: "") == nil)
        #expect(Model.lexicon.dictionaryPronunciations(of: "zzzzzzzz") == nil)
        #expect(Model.lexicon.dictionaryPronunciations(of: "AARDVARK") == expected["aardvark"])
    }

    @Test("a dictionary out of order, in capitals, with comments, variants apart and words not in ASCII reads as written")
    func unsortedDictionary() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hark-lexicon-\(UUID().uuidString).dict").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = """
        ;;; a comment
        ZEBRA Z IY B R AH
        abc(2) EY B IY S IY
        b B IY
        abc AE B K
        abc's AE B K Z
        Apple AE P AH L
        apple(2) EY P AH L
        \u{00C9}CLAIR EY K L EH R
        lonely
        (2) AH

        """
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        var lexicon = try Lexicon(contentsOf: path)
        lexicon.letterToSound = nil
        #expect(lexicon.dictionaryPronunciations(of: "zebra") == [["Z", "IY", "B", "R", "AH"]])
        #expect(lexicon.dictionaryPronunciations(of: "abc") == [["EY", "B", "IY", "S", "IY"], ["AE", "B", "K"]])
        #expect(lexicon.dictionaryPronunciations(of: "abc's") == [["AE", "B", "K", "Z"]])
        #expect(lexicon.dictionaryPronunciations(of: "Apple") == [["AE", "P", "AH", "L"], ["EY", "P", "AH", "L"]])
        #expect(lexicon.dictionaryPronunciations(of: "\u{00E9}clair") == [["EY", "K", "L", "EH", "R"]])
        #expect(lexicon.dictionaryPronunciations(of: "lonely") == nil)
        #expect(lexicon.dictionaryWordCount == 6)
        // The file is mapped; its pages given back are read again.
        lexicon.releaseFilePages()
        #expect(lexicon.dictionaryPronunciations(of: "abc") == [["EY", "B", "IY", "S", "IY"], ["AE", "B", "K"]])
        #expect(lexicon.dictionaryPronunciations(of: "zebra") == [["Z", "IY", "B", "R", "AH"]])
        lexicon.add("abc", phones: ["EY", "B", "K"])
        lexicon.add("abc", phones: ["AE", "B", "K"])  // already there: not twice
        lexicon.add("new", phones: ["N", "UW"])
        #expect(lexicon.dictionaryPronunciations(of: "abc") == [["EY", "B", "IY", "S", "IY"], ["AE", "B", "K"], ["EY", "B", "K"]])
        #expect(lexicon.dictionaryPronunciations(of: "new") == [["N", "UW"]])
        #expect(lexicon.dictionaryWordCount == 7)
        #expect(lexicon.dictionaryText(for: ["abc", "b"]) == "abc EY B IY S IY\nabc(2) AE B K\nabc(3) EY B K\nb B IY\n")
    }

    @Test("the model's dictionary reads the same after the pages lookups read are given back")
    func mappedDictionaryPagesGivenBack() {
        let lexicon = Model.lexicon
        let words = ["coffee", "bananas", "read", "zucchini", "aaron", "zz", "the"]
        let before = words.map { lexicon.dictionaryPronunciations(of: $0) }
        lexicon.releaseFilePages()
        #expect(words.map { lexicon.dictionaryPronunciations(of: $0) } == before)
        #expect(before[0] == [["K", "AA", "F", "IY"], ["K", "AO", "F", "IY"]])
        #expect(before[2]?.count == 2, "read: R EH D and R IY D")
        #expect(lexicon.dictionaryWordCount > 120_000)
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
