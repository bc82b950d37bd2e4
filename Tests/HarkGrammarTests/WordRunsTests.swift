@testable import HarkGrammar
import Testing

@Suite("Runs of words")
struct WordRunsTests {
    @Test("a run is found only as consecutive words")
    func containsRun() {
        let words = ["tell", "bobo", "on", "monkey", "chat"]
        #expect(words.containsRun(["monkey", "chat"]))
        #expect(words.containsRun(["tell"]))
        #expect(words.containsRun(words))
        #expect(!words.containsRun(["bobo", "monkey"]))
        #expect(!words.containsRun(["chat", "monkey"]))
        #expect(!words.containsRun(words + ["now"]))
        #expect(!words.containsRun([]))
        #expect(![String]().containsRun(["monkey"]))
    }

    @Test("runs are removed where they stand, the longest first")
    func removingRuns() {
        let words = ["can", "monkey", "notes", "pull", "it", "up", "monkey"]
        #expect(words.removingRuns(of: [["monkey"], ["monkey", "notes"]]) == ["can", "pull", "it", "up"])
        #expect(words.removingRuns(of: [["notes", "monkey"]]) == words)
        #expect(words.removingRuns(of: [[]]) == words)
        #expect([String]().removingRuns(of: [["monkey"]]).isEmpty)
    }
}
