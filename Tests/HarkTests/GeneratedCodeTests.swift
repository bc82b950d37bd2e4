import Foundation
import HarkTestSupport
import Testing

@Suite("generated code")
struct GeneratedCodeTests {
    @Test("scripts/generate-intents.py gives exactly the checked-in *.generated.swift files", arguments: [
        "Sources/HarkIntents/Intents.generated.swift", "Sources/HarkEngine/Handling.generated.swift",
    ])
    func intentsUpToDate(path: String) throws {
        let out = try temporaryDirectory("generated")
        let result = try ProcessRunner.run("/usr/bin/python3", [Repo.root.appendingPathComponent("scripts/generate-intents.py").path,
                                                                 "--out", out.path])
        try #require(result.status == 0, "\(result.err)")
        let generated = try String(contentsOf: out.appendingPathComponent(path), encoding: .utf8)
        let checkedIn = try String(contentsOf: Repo.root.appendingPathComponent(path), encoding: .utf8)
        let firstDifference = zip(generated.split(separator: "\n", omittingEmptySubsequences: false),
                                  checkedIn.split(separator: "\n", omittingEmptySubsequences: false))
            .enumerated().first { $0.element.0 != $0.element.1 }
        #expect(generated == checkedIn,
                "\(path) differs from what scripts/generate-intents.py writes (first at line \((firstDifference?.offset ?? -1) + 1)); edit the script and run it")
    }
}
