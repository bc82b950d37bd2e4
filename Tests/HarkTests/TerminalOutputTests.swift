import Foundation
import Testing

/// Text from apps, stores and plists reaches the terminal with its control
/// characters escaped: an `NSSiriUsageDescription` of `ESC [2J` must not
/// clear the screen, a newline in a message must not forge a line. JSON
/// output carries the text exactly.
@Suite("Terminal output: control characters from data are escaped")
struct TerminalOutputTests {
    /// An apps folder with one app whose usage description holds escapes.
    func appWithHostileUsage() throws -> URL {
        let apps = try temporaryDirectory("apps")
        let folder = apps.appendingPathComponent("Clean")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let info: [String: Any] = ["CFBundleName": "Clean", "IntentsSupported": ["INSendMessageIntent"],
                                   "NSSiriUsageDescription": "Hi\u{1B}[2J\u{1B}]0;owned\u{7}\nhark: error: forged \u{202E}txt"]
        let data = try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0)
        try data.write(to: folder.appendingPathComponent("Info.plist"))
        return apps
    }

    func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) }
    }

    @Test("apps list shows the usage description escaped, on one line")
    func appsList() throws {
        let result = try runHark(["apps", "list", "--apps", try appWithHostileUsage().path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("  Hi\\x1b[2J\\x1b]0;owned\\x07\\nhark: error: forged \\u{202E}txt\n"), "\(result.out)")
        #expect(!hasRawControl(result.out))
        #expect(!result.out.contains("\nhark: error"))
    }

    @Test("a typed turn's card escapes what was heard; JSON keeps it exact")
    func turnCard() throws {
        let input = try temporaryDirectory("input").appendingPathComponent("turns.txt")
        try Data("Send a message to Bobo on MonkeyChat saying hi\u{1B}[2J there\n".utf8).write(to: input)
        let card = try runHark(["converse"], stdin: input.path)
        #expect(card.status == 0, "\(card.err)")
        #expect(card.out.contains("heard:  Send a message to Bobo on MonkeyChat saying hi\\x1b[2J there"), "\(card.out)")
        #expect(!hasRawControl(card.out))
        let json = try runHark(["converse", "--json"], stdin: input.path)
        let turn = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(turn["heard"] as? String == "Send a message to Bobo on MonkeyChat saying hi\u{1B}[2J there")
    }
}
