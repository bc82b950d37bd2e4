import Foundation
import Testing

/// Tests/Malformed: broken and hostile files (made by
/// scripts/make-malformed.py), each with the exact one-line error the real
/// `hark` executable must give for it in cases.tsv.
@Suite("Malformed input: the exact error for each file")
struct MalformedInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: String
        var input: String
        var error: String
        var testDescription: String { input }
    }

    static let cases: [Case] = {
        let url = Repo.root.appendingPathComponent("Tests/Malformed/cases.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
            return fields.count == 3 ? Case(kind: fields[0], input: fields[1], error: fields[2]) : nil
        }
    }()

    @Test("the suite covers WAVs, plists, grammars, replayed turns and Rhino contexts")
    func coverage() {
        #expect(Self.cases.filter { $0.kind == "audio-info" }.count >= 9)
        #expect(Self.cases.filter { $0.kind == "apps" }.count >= 16)
        #expect(Self.cases.filter { $0.kind == "grammar" }.count >= 12)
        #expect(Self.cases.filter { $0.kind == "replay" }.count >= 3)
        #expect(Self.cases.filter { $0.kind == "rhino" }.count >= 5)
    }

    @Test("each input exits non-zero with exactly its error, naming the file and the line or key", arguments: cases)
    func malformed(_ c: Case) throws {
        let arguments: [String]
        switch c.kind {
        case "audio-info": arguments = ["audio-info", c.input]
        case "apps": arguments = ["apps", "list", "--apps", c.input]
        case "grammar": arguments = ["export", "jsgf", "--apps", c.input]
        case "replay": arguments = ["replay", c.input]
        case "rhino": arguments = ["import", "rhino", c.input, "--out", try temporaryDirectory("rhino").appendingPathComponent("Out").path]
        default: Issue.record("unknown kind \(c.kind)"); return
        }
        let result = try runHark(arguments)
        #expect(result.status == 1, "exit \(result.status): \(result.err)")
        #expect(result.err == c.error + "\n")
        #expect(result.err.contains(c.input))
        // Whatever the file holds, the terminal gets no raw control character.
        #expect(!result.err.dropLast().unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        if c.kind == "rhino" {
            #expect(!FileManager.default.fileExists(atPath: arguments[4]), "a refused context writes nothing")
        }
    }

    @Test("a data size of 0xFFFFFFFF is a streaming writer's 'unknown': the audio present is read")
    func streamingLength() throws {
        let result = try runHark(["audio-info", "Tests/Malformed/wav/4gb-data-claim-streaming.wav"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("16000 Hz, 1 channel, 16-bit PCM, 0.003 s"), "\(result.out)")
    }
}
