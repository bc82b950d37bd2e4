import Foundation
import HarkTestSupport
import Hark
import HarkEngine
import HarkSampleApps
import Testing

/// Paths of the checkout the tests run in.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let models = root.appendingPathComponent("models").path

    /// The `hark` executable built beside the test bundle.
    static var hark: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hark").path
    }
}

/// A fresh temporary folder.
func temporaryDirectory(_ name: String = #function) throws -> URL {
    try Scratch.directory("apps-tests-" + name)
}

enum SampleInfo {
    /// A copy of the shipped sample apps (`models/apps`: Info.plist,
    /// AppIntentVocabulary.plist, InfoPlist.strings), so the tests exercise
    /// exactly what Hark ships, and not other apps a developer added there.
    static func appsFolder() throws -> URL {
        let dir = try temporaryDirectory("apps")
        for app in SampleApps.appNames {
            try FileManager.default.copyItem(atPath: Repo.models + "/apps/" + app, toPath: dir.appendingPathComponent(app).path)
        }
        return dir
    }
}

/// One `hark converse --json` turn.
struct ConverseTurn: Decodable {
    var heard: String
    var app: String?
    var intent: String?
    var slots: [String: String]
    var speech: String
    var code: String
    var prompt: Bool
    var output: [String: String]?
    var developer_error: String?
    var card: String?
}

/// Runs `hark` with `arguments`, `input` on standard input; returns exit
/// status, stdout and stderr.
func runHark(_ arguments: [String], input: String = "") throws -> (status: Int32, out: String, err: String) {
    let result = try ProcessRunner.run(Repo.hark, arguments, currentDirectory: Repo.root, input: Data(input.utf8))
    return (result.status, result.out, result.err)
}

/// A typed conversation through `hark converse --json`, with the sample
/// apps installed and fresh data (unless `dataDirectory` is given).
struct Converse {
    let apps: URL
    let data: URL

    init(data: URL? = nil) throws {
        apps = try SampleInfo.appsFolder()
        self.data = try data ?? temporaryDirectory("data")
    }

    func run(_ turns: [String], extra: [String] = []) throws -> [ConverseTurn] {
        let result = try runHark(["converse", "--json", "--apps", apps.path, "--data-dir", data.path] + extra,
                                 input: turns.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "hark converse failed: \(result.err)")
        let answers = try result.out.split(separator: "\n").map { try JSONDecoder().decode(ConverseTurn.self, from: Data($0.utf8)) }
        // One answer per turn, so tests may index them (a short list would crash the whole run).
        try #require(answers.count == turns.count, "\(turns.count) turns, \(answers.count) answers: \(result.err)")
        return answers
    }

    /// Writes an app's data file before the conversation (its contacts, ...).
    func write(_ json: String, group: String, file: String) throws {
        let folder = data.appendingPathComponent("groups").appendingPathComponent(group)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: folder.appendingPathComponent(file))
    }

    func read(group: String, file: String) throws -> Any {
        let url = data.appendingPathComponent("groups").appendingPathComponent(group).appendingPathComponent(file)
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    }
}
