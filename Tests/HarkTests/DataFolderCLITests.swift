import Foundation
import HarkTestSupport
import Testing

/// The data folder through the real `hark` binary: what is in the way, or
/// is not a regular file, is one line naming the path; nothing hangs.
@Suite("hark and its data folder")
struct DataFolderCLITests {
    func hark(_ arguments: [String], data: String, input: String = "") throws -> ProcessOutput {
        var environment = ProcessInfo.processInfo.environment
        environment["HARK_DATA_DIR"] = data
        return try ProcessRunner.run(Repo.hark, arguments, currentDirectory: Repo.root, environment: environment,
                                     input: Data(input.utf8))
    }

    @Test("HARK_DATA_DIR=/dev/null is one sentence naming the path and what to do")
    func dataDirectoryIsAFile() throws {
        let result = try hark(["converse"], data: "/dev/null", input: "hello\n")
        #expect(result.status == 1)
        #expect(result.err == "hark: error: /dev/null: cannot create the data folder (it is a character device, not a folder); something that is not a folder is in the way; choose another data directory (--data-dir or HARK_DATA_DIR) or move it aside\n")
    }

    @Test("a FIFO in place of a vocabulary or app data file is refused at once by vocab list and converse")
    func fifo() throws {
        let data = try temporaryDirectory("fifo")
        let vocabulary = data.appendingPathComponent("vocabulary/default")
        try FileManager.default.createDirectory(at: vocabulary, withIntermediateDirectories: true)
        let file = vocabulary.appendingPathComponent("MonkeyChat.json")
        try #require(mkfifo(file.path, 0o644) == 0)
        let expected = "hark: error: \(file.path): cannot read (it is a FIFO (named pipe), not a regular file); it was left as it is, not replaced; move it aside; Hark reads its data from regular files only\n"
        let list = try hark(["vocab", "list"], data: data.path)
        #expect(list.status == 1)
        #expect(list.err == expected)
        let converse = try hark(["converse"], data: data.path, input: "hello\n")
        #expect(converse.status == 1)
        #expect(converse.err == expected)

        try FileManager.default.removeItem(at: file)
        let notebook = data.appendingPathComponent("groups/group.com.example.listomat/notebook.json")
        try FileManager.default.createDirectory(at: notebook.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: notebook.path, withDestinationPath: "/dev/zero")
        let zero = try hark(["converse"], data: data.path, input: "add eggs to my grocery list in ListOMat\n")
        #expect(zero.status == 1)
        #expect(zero.err.hasPrefix("hark: error: \(notebook.path): cannot read (it is a character device, not a regular file)"), "\(zero.err)")
    }

    @Test("a vocabulary file over the limit stops the command with one line naming it")
    func hugeVocabulary() throws {
        let data = try temporaryDirectory("huge")
        let vocabulary = data.appendingPathComponent("vocabulary/default")
        try FileManager.default.createDirectory(at: vocabulary, withIntermediateDirectories: true)
        let file = vocabulary.appendingPathComponent("MonkeyChat.json")
        let strings = (0..<3000).map { "\"\(String(repeating: "bobo ", count: 200))\($0)\"" }
        try Data(#"{"contactName": [\#(strings.joined(separator: ","))]}"#.utf8).write(to: file)
        let result = try hark(["converse"], data: data.path, input: "send a message to Bobo on MonkeyChat saying hi\n")
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("hark: error: \(file.path): cannot read (it is 30"), "\(result.err)")
        #expect(result.err.contains("over the limit of 131072 bytes"))
        #expect(result.err.split(separator: "\n").count == 1)
    }
}
