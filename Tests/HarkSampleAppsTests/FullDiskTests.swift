import Foundation
import HarkCatalog
import HarkSampleApps
import HarkTestSupport
import Testing

/// A disk that fills up while Hark saves the person's data, simulated
/// without mount privileges: `hark` runs under a file-size limit
/// (`ulimit -f`, with SIGXFSZ ignored so that a write past the limit fails
/// with EFBIG instead of killing the process). The stores written in these
/// tests are made larger than the limit, so saving them fails part-way,
/// while the small files (standard output and error, which the runner
/// keeps in files too) stay under it.
@Suite("Full disk when saving", .serialized)
struct FullDiskTests {
    /// The limit in the shell's blocks: 64 KiB (dash, 512-byte blocks) or
    /// 128 KiB (bash); the stores below are made several times larger.
    static let limitBlocks = 128
    static let storeBytes = 400_000

    /// Runs `hark` with writes limited to `limitBlocks`.
    func runLimited(_ arguments: [String], input: String = "", blocks: Int = limitBlocks) throws -> ProcessOutput {
        try ProcessRunner.run("/bin/sh", ["-c", "trap '' XFSZ; ulimit -f \(blocks) || exit 125; exec \"$0\" \"$@\"", Repo.hark]
                                  + arguments, currentDirectory: Repo.root, input: Data(input.utf8))
    }

    /// Files in `folder` whose name says they are a temporary save.
    func temporaryFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
    }

    var fileTooLarge: String { String(cString: strerror(EFBIG)) }

    @Test("a message that cannot be saved is a spoken failure naming the problem; the session goes on and the history is unchanged")
    func converseMessageNotSaved() throws {
        let converse = try Converse()
        // First use, with room: the data folder, its authorizations and vocabulary, and the message history.
        let first = try converse.run(["Send a message to Bobo on MonkeyChat saying hello", "send it"])
        #expect(first[0].code == "prompt" && first[1].code == "success")
        let folder = converse.data.appendingPathComponent("groups").appendingPathComponent(MonkeyChat.group)
        let history = folder.appendingPathComponent("messages.json")
        // A long history, so the next save runs past the limit.
        var messages = try #require(try converse.read(group: MonkeyChat.group, file: "messages.json") as? [[String: Any]])
        let sent = try #require(messages.last)
        repeat {
            for _ in 0..<200 {
                var message = sent
                message["content"] = "banana number \(messages.count), and a few more words to make the history long"
                messages.append(message)
            }
        } while try JSONSerialization.data(withJSONObject: messages).count < Self.storeBytes
        try JSONSerialization.data(withJSONObject: messages, options: [.prettyPrinted]).write(to: history)
        let before = try Data(contentsOf: history)

        let result = try runLimited(["converse", "--json", "--apps", converse.apps.path, "--data-dir", converse.data.path],
                                    input: "Send a message to Bobo on MonkeyChat saying more bananas please\nsend it\nshow my messages on MonkeyChat\n")
        #expect(result.status == 0, "hark converse did not finish: status \(result.status), \(result.err)")
        var turns = try result.out.split(separator: "\n").map { try JSONDecoder().decode(ConverseTurn.self, from: Data($0.utf8)) }
        try #require(turns.count == 3, "3 turns, \(turns.count) answers: \(result.out) \(result.err)")
        // The read-back, answered "send it".
        #expect(turns.removeFirst().code == "prompt")

        // The failed save: a failure, and it says why and what to do.
        #expect(turns[0].intent == "INSendMessageIntent")
        #expect(turns[0].code == "failure")
        #expect(turns[0].speech == "Sorry, MonkeyChat couldn't do that: there isn't enough space left to save it. Free some space and try again.")
        let error = try #require(turns[0].developer_error)
        #expect(error.contains(history.path), "\(error)")
        #expect(error.contains("cannot save (\(fileTooLarge))"), "\(error)")
        #expect(error.contains("the previous version is kept"), "\(error)")
        #expect(error.contains("free some space"), "\(error)")

        // The session goes on: the next turn is answered, from the history as it was.
        #expect(turns[1].intent == "INSearchForMessagesIntent")
        #expect(turns[1].code == "success")

        // The history on disk is exactly as before, and no half-written file is left beside it.
        #expect(try Data(contentsOf: history) == before)
        #expect(try temporaryFiles(in: folder) == [])
    }

    @Test("vocab set that cannot be saved: non-zero exit, one line naming the file and the reason, the old vocabulary kept")
    func vocabularyNotSaved() throws {
        let apps = try SampleInfo.appsFolder(), data = try temporaryDirectory("data")
        let common = ["--apps", apps.path, "--data-dir", data.path]
        let set = try runHark(["vocab", "set", "--app", "MonkeyChat", "--type", "contactName", "Bobo", "Koko", "Bobo the Great"] + common)
        #expect(set.status == 0, "\(set.err)")
        let folder = data.appendingPathComponent("vocabulary").appendingPathComponent("default")
        let file = folder.appendingPathComponent("MonkeyChat.json")
        let before = try Data(contentsOf: file)

        // A new contact list larger than the room left (32 or 48 KiB here),
        // yet within the vocabulary's own limits (1,000 strings, 128 KiB).
        let contacts = (0..<300).map { "Contact \($0) " + String(repeating: "x", count: 300) }
        let result = try runLimited(["vocab", "set", "--app", "MonkeyChat", "--type", "contactName"] + contacts + common, blocks: 48)
        #expect(result.status != 0 && result.status != 125, "status \(result.status)")
        #expect(result.out.isEmpty, "\(result.out)")
        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "\(result.err)")
        let line = String(lines.first ?? "")
        #expect(line.hasPrefix("hark: error: \(file.path): cannot save (\(fileTooLarge))"), "\(line)")
        #expect(line.contains("the previous version is kept"), "\(line)")
        #expect(line.contains("free some space"), "\(line)")

        #expect(try Data(contentsOf: file) == before)
        #expect(try temporaryFiles(in: folder) == [])
        let list = try runHark(["vocab", "list", "--json", "--app", "MonkeyChat"] + common)
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out == #"{"MonkeyChat":{"contactName":["Bobo","Koko","Bobo the Great"]}}"# + "\n")
    }

    @Test("an app's data file that exists but cannot be read stops Hark with the file and the reason, and is not replaced")
    func unreadableAppData() throws {
        let converse = try Converse()
        let folder = converse.data.appendingPathComponent("groups").appendingPathComponent(MonkeyChat.group)
        // Root reads any file, so the unreadable file is a folder in its place.
        let history = folder.appendingPathComponent("messages.json")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        let kept = history.appendingPathComponent("keep")
        try Data("the person's data".utf8).write(to: kept)

        let result = try runHark(["converse", "--json", "--apps", converse.apps.path, "--data-dir", converse.data.path],
                                 input: "Send a message to Bobo on MonkeyChat saying hello\nshow my messages on MonkeyChat\n")
        #expect(result.status != 0, "hark converse started with an unreadable message history: \(result.out)")
        #expect(result.out.isEmpty, "\(result.out)")
        let isADirectory = String(cString: strerror(EISDIR))
        #expect(result.err.contains("hark: error: \(history.path): cannot read (\(isADirectory)); it was left as it is, not replaced"),
                "\(result.err)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: history.path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(try Data(contentsOf: kept) == Data("the person's data".utf8))
        #expect(try temporaryFiles(in: folder) == [])
    }

    @Test("a vocabulary file that exists but cannot be read: vocab set fails naming the file and the reason")
    func unreadableVocabulary() throws {
        let apps = try SampleInfo.appsFolder(), data = try temporaryDirectory("data")
        let common = ["--apps", apps.path, "--data-dir", data.path]
        let folder = data.appendingPathComponent("vocabulary").appendingPathComponent("default")
        let file = folder.appendingPathComponent("MonkeyChat.json")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)

        let result = try runHark(["vocab", "set", "--app", "MonkeyChat", "--type", "contactName", "Koko"] + common)
        #expect(result.status != 0)
        let isADirectory = String(cString: strerror(EISDIR))
        #expect(result.err == "hark: error: \(file.path): cannot read (\(isADirectory)); it was left as it is, not replaced; fix it or move it aside to start afresh\n")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(try temporaryFiles(in: folder) == [])
    }

    @Test("the error for a full disk names the file, the system's reason and what to do")
    func fullDiskMessage() {
        let error = DataFileError(path: "/data/groups/group.com.example.monkeychat/messages.json", operation: .save, code: ENOSPC)
        #expect(error.description == "/data/groups/group.com.example.monkeychat/messages.json: cannot save (No space left on device); the previous version is kept; free some space on that disk and try again")
        #expect(error.spokenReason == "there isn't enough space left to save it. Free some space and try again.")
        let denied = DataFileError(path: "/data/x.json", operation: .save, code: EACCES)
        #expect(denied.description.hasSuffix("(Permission denied); the previous version is kept; check the permissions of the file and its folder, then try again"))
    }
}
