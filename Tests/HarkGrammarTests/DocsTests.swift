import Foundation
import HarkGrammar
import Testing

@Suite("docs/grammar.md")
struct DocsTests {
    /// The ```hark blocks of the grammar documentation.
    static func examples() throws -> [String] {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/grammar.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```hark" { current = [] } else if line == "```" { if let c = current { blocks.append(c.joined(separator: "\n")) }; current = nil } else { current?.append(line) }
        }
        return blocks
    }

    @Test("every grammar example in the documentation parses")
    func examplesParse() throws {
        let blocks = try Self.examples()
        #expect(blocks.count >= 7)
        for (i, block) in blocks.enumerated() {
            #expect(throws: Never.self, "example \(i + 1)") { _ = try GrammarParser.parse(block, path: "grammar.md#\(i + 1)") }
        }
    }

    @Test("the documented synonym example reads as the documentation says")
    func synonymExample() throws {
        let block = try #require(try Self.examples().first { $0.contains("big => large") })
        let best = try #require(try parseOne(block, "Give me a big coffee"))
        #expect(best.slots == [SlotValue(name: "size", raw: "big", value: "large")])
    }
}
