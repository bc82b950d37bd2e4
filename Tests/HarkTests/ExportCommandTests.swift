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

    @Test("stock pocketsphinx decodes fixtures with the exported JSGF and dictionary (names and hint pieces included)")
    func stockPocketSphinx() throws {
        let dir = try temporaryDirectory()
        // MonkeyChat alone: stock pocketsphinx, untuned, cannot hold all the apps' free text apart.
        let apps = dir.appendingPathComponent("apps")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.models + "/apps/MonkeyChat", toPath: apps.appendingPathComponent("MonkeyChat").path)
        let gram = dir.appendingPathComponent("hark.gram").path
        let export = try runHark(["export", "jsgf", "--apps", apps.path, "--dictation-words", "0", "--out", gram])
        #expect(export.status == 0, "\(export.err)")
        let dict = try String(contentsOfFile: dir.appendingPathComponent("hark.dict").path, encoding: .utf8)
        #expect(dict.contains("\nbobo "), "Bobo is not in the CMU dictionary; Hark's lexicon gives it phones")
        let result = try ProcessRunner.run(
            "/usr/bin/pocketsphinx_continuous",
            ["-jsgf", gram, "-dict", dir.appendingPathComponent("hark.dict").path,
             "-infile", Repo.fixtures.appendingPathComponent("flite-rms/monkeychat-ask-content-1.wav").path])
        #expect(result.status == 0)
        #expect(result.out.trimmingCharacters(in: .whitespacesAndNewlines) == "send a message to bobo on monkey chat")
        // Every app's grammar exports with a dictionary stock pocketsphinx accepts (hint pieces like "ri" included).
        let all = try runHark(["export", "jsgf", "--dictation-words", "0", "--out", gram])
        #expect(all.status == 0, "\(all.err)")
        let loads = try ProcessRunner.run(
            "/usr/bin/pocketsphinx_continuous",
            ["-jsgf", gram, "-dict", dir.appendingPathComponent("hark.dict").path,
             "-infile", Repo.fixtures.appendingPathComponent("flite-rms/monkeychat-ask-content-1.wav").path])
        #expect(loads.status == 0 && !loads.err.contains("ERROR"), "\(loads.err.split(separator: "\n").filter { $0.contains("ERROR") })")
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
