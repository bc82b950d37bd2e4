import Foundation
import HarkTestSupport
import Testing

@Suite("hark export on the command line", .serialized)
struct ExportCommandTests {
    @Test("export jsgf writes the installed apps' grammar with <command> as its public rule")
    func exportJSGF() throws {
        let dir = try temporaryDirectory()
        let out = dir.appendingPathComponent("barista.gram").path
        let result = try runHark(["export", "jsgf", "--apps", Repo.models + "/benchmark-apps", "--out", out, "--dictation-words", "0"])
        #expect(result.status == 0, "\(result.err)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("#JSGF V1.0;"))
        #expect(text.contains("public <command> = <Barista_orderDrink>;"))
        #expect(text.contains("<coffeeDrink> = americano | cappuccino"))
        #expect(text.components(separatedBy: "public ").count == 2)
    }

    @Test("export jsgf to standard output, with MonkeyChat's contacts and dictation words")
    func exportStdout() throws {
        let result = try runHark(["export", "jsgf", "--dictation-words", "5"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("<MonkeyChat_INSendMessageIntent> ="))
        let dictation = try #require(result.out.split(separator: "\n").first { $0.hasPrefix("<dictation> =") })
        #expect(dictation.components(separatedBy: "|").count == 5)
    }

    @Test("stock pocketsphinx decodes a fixture with the exported JSGF")
    func stockPocketSphinx() throws {
        let dir = try temporaryDirectory()
        let gram = dir.appendingPathComponent("hark.gram").path
        let export = try runHark(["export", "jsgf", "--dictation-words", "0", "--out", gram])
        #expect(export.status == 0, "\(export.err)")
        let result = try ProcessRunner.run(
            "/usr/bin/pocketsphinx_continuous",
            ["-jsgf", gram, "-infile", Repo.fixtures.appendingPathComponent("espeak-us/monkeychat-ask-content-1.wav").path])
        #expect(result.status == 0)
        #expect(result.out.trimmingCharacters(in: .whitespacesAndNewlines) == "send a message to bobo on monkey chat")
    }

    @Test("a broken grammar is one line naming file:line:column")
    func brokenGrammar() throws {
        let dir = try temporaryDirectory()
        let app = dir.appendingPathComponent("apps/Broken")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data("intent Go:\n    go (home | away\n".utf8).write(to: app.appendingPathComponent("Broken.hark"))
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleName</key><string>Broken</string>
            <key>IntentsSupported</key><array><string>Go</string></array>
            </dict></plist>
            """.utf8).write(to: app.appendingPathComponent("Info.plist"))
        let result = try runHark(["export", "jsgf", "--apps", dir.appendingPathComponent("apps").path])
        #expect(result.status != 0)
        #expect(result.err.contains("Broken.hark:2:20: error: expected ')' before the end of the line"), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1)
    }
}
