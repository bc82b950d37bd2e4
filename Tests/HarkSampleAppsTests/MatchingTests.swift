import HarkEngine
import Testing

@testable import HarkSampleApps

@Suite("Finding what the person named among the app's names")
struct MatchingTests {
    let tasks = ["buy iPhone", "buy bananas", "run five k"]
    let lists = ["Grocery", "Grocery Store", "Hardware Store", "Office Supplies"]

    @Test("the same words are a match, however the spaces fall")
    func exact() {
        #expect(NameMatch.resolve("buy iphone", among: tasks, none: "-") == .success(with: "buy iPhone"))
        #expect(NameMatch.resolve("grocery", among: lists, none: "-") == .success(with: "Grocery"))
    }

    @Test("part of one name is confirmed, part of several is a choice")
    func partial() {
        #expect(NameMatch.resolve("office", among: lists, none: "-") == .confirmationRequired(with: "Office Supplies"))
        #expect(NameMatch.resolve("store", among: lists, none: "-") == .disambiguation(with: ["Grocery Store", "Hardware Store"]))
    }

    @Test("a homophone or a near miss of free text is asked about, not refused", arguments: ["by iphone", "my iphone"])
    func soundsLike(heard: String) {
        #expect(NameMatch.resolve(heard, among: tasks, none: "-") == .confirmationRequired(with: "buy iPhone"))
    }

    @Test("nothing like any name is unsupported, with the app's reason")
    func none() {
        #expect(NameMatch.resolve("zoo", among: lists, none: "There's no list called zoo.") == .unsupported(reason: "There's no list called zoo."))
        #expect(NameMatch.resolve("walk the dog", among: tasks, none: "no") == .unsupported(reason: "no"))
    }

    @Test("Soundex, not cut short", arguments: [("buyiphone", "B15"), ("byiphone", "B15"), ("robert", "R163"), ("rupert", "R163"), ("ashcraft", "A2613")])
    func soundex(word: String, key: String) {
        #expect(NameMatch.soundKey(word) == key)
    }
}
