import Foundation
import Hark
import HarkTestSupport
import Testing

/// One command of `hark --experimental-dump-help`'s tree.
struct HelpCommand: Decodable {
    var commandName: String
    var discussion: String?
    var subcommands: [HelpCommand]?

    /// Every command under this one, with its path (`["hark", "vocab", "set"]`).
    func flattened(_ path: [String] = []) -> [(path: [String], command: HelpCommand)] {
        let here = path + [commandName]
        return [(here, self)] + (subcommands ?? []).filter { $0.commandName != "help" }.flatMap { $0.flattened(here) }
    }

    /// The shell commands under an "Example:" or "Examples:" line: the
    /// indented lines up to a blank line, a line ending in `\` or `|`
    /// continuing onto the next.
    var examples: [String] {
        var result: [String] = []
        var inExamples = false, current = ""
        for line in (discussion ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "Examples:" || trimmed == "Example:" { inExamples = true; continue }
            guard inExamples else { continue }
            guard !trimmed.isEmpty, line.hasPrefix(" ") else { inExamples = false; continue }
            current += (current.isEmpty ? "" : " ") + trimmed
            if trimmed.hasSuffix("\\") {
                current = String(current.dropLast()).trimmingCharacters(in: .whitespaces)
            } else if !trimmed.hasSuffix("|") {
                result.append(current)
                current = ""
            }
        }
        return result
    }
}

/// The command tree as the `hark` executable describes it.
func helpTree() throws -> HelpCommand {
    let result = try runHark(["--experimental-dump-help"])
    try #require(result.status == 0, "\(result.err)")
    struct Dump: Decodable { var command: HelpCommand }
    return try JSONDecoder().decode(Dump.self, from: Data(result.out.utf8)).command
}

@Suite("hark --help and friends")
struct HelpTests {
    @Test("every --help fits 80 columns without a line wrapped twice")
    func eightyColumns() throws {
        for (path, _) in try helpTree().flattened() {
            let result = try runHark(Array(path.dropFirst()) + ["--help"], environment: ["COLUMNS": "80"])
            #expect(result.status == 0, "\(path): \(result.err)")
            let long = result.out.split(separator: "\n").filter { $0.count > 80 }
            #expect(long.isEmpty, "\(path.joined(separator: " ")) --help has lines over 80 columns: \(long)")
        }
    }

    @Test("every example in every --help runs as written, from a folder holding the checkout's fixtures")
    func examplesRun() throws {
        let commands = try helpTree().flattened()
        let examples = commands.flatMap { item in item.command.examples.map { (item.path.joined(separator: " "), $0) } }
        #expect(examples.count >= 20, "found only \(examples.count) examples: \(examples)")
        let dir = try temporaryDirectory("examples")
        for name in ["audio-fixtures", "models", "Fuzz"] {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(name), withDestinationURL: Repo.root.appendingPathComponent(name))
        }
        let harkDirectory = URL(fileURLWithPath: Repo.hark).deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = harkDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HARK_DATA_DIR"] = dir.appendingPathComponent("data").path
        for (command, example) in examples {
            // A server runs until stopped: its example runs when it is
            // serving a while later, and is then stopped (timeout's 124).
            let server = command == "hark serve"
            // Bounded: coreutils' timeout ends an example that hangs (the
            // longest, a benchmark, takes minutes on a busy machine).
            let result = try ProcessRunner.run("/usr/bin/timeout", [server ? "90" : "1800", "/bin/sh", "-c", "set -e; " + example],
                                               currentDirectory: dir, environment: environment)
            if server {
                #expect(result.status == 124 && result.err.contains("hark: serving on"), "`\(command) --help` example did not serve: \(example)\n\(result.err)")
                continue
            }
            #expect(result.status == 0, "`\(command) --help` example failed (\(result.status)): \(example)\n\(result.err)")
            #expect(!result.err.contains("hark: error"), "\(example): \(result.err)")
        }
    }

    @Test("the examples are found: continued lines are one command")
    func exampleExtraction() {
        let command = HelpCommand(commandName: "x", discussion: """
            Text.

            Examples:
              hark a \\
                  b
              printf 'x' |
                  hark c
              hark d

            More text.
              not an example
            """)
        #expect(command.examples == ["hark a b", "printf 'x' | hark c", "hark d"])
    }

    @Test("a misspelt subcommand gets 'did you mean', and exit 64", arguments: [
        (["replai", "x.wav"], "unknown command 'replai'; did you mean 'replay'?"),
        (["vocab", "lst"], "unknown command 'lst'; did you mean 'list'?"),
        (["export", "jsfg"], "unknown command 'jsfg'; did you mean 'jsgf'?"),
    ])
    func misspeltSubcommand(arguments: [String], message: String) throws {
        let result = try runHark(arguments)
        #expect(result.status == 64)
        #expect(result.err.hasPrefix("hark: error: \(message)"), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
    }

    @Test("a misspelt app name gets 'did you mean'")
    func misspeltApp() throws {
        let result = try runHark(["apps", "authorize", "MonkyChat"])
        #expect(result.status != 0)
        #expect(result.err.contains("no installed app is called 'MonkyChat'; did you mean 'MonkeyChat'?"), "\(result.err)")
        let vocab = try runHark(["vocab", "set", "--app", "MonkeyChatt", "--type", "contactName", "Bobo"])
        #expect(vocab.status != 0 && vocab.err.contains("did you mean 'MonkeyChat'?"), "\(vocab.err)")
    }

    @Test("--version prints the version")
    func version() throws {
        let result = try runHark(["--version"])
        #expect(result.status == 0)
        #expect(result.out.trimmingCharacters(in: .whitespacesAndNewlines) == HarkVersion.number)
    }

    @Test("the tool's malloc is jemalloc, one arena, freed pages given back at once; MALLOC_CONF still overrides")
    func allocator() throws {
        let result = try runHark(["converse", "--verbose"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("malloc=jemalloc 5."), "\(result.err)")
        #expect(result.err.contains("malloc.options=narenas:1,dirty_decay_ms:0,muzzy_decay_ms:0,tcache_max:256"), "\(result.err)")
        let overridden = try runHark(["converse", "--verbose"], environment: ["MALLOC_CONF": "narenas:2"])
        #expect(overridden.err.contains("malloc.options=narenas:2,"), "\(overridden.err)")
    }

    @Test("--json output parses", arguments: [
        ["domains", "--json", "--intent", "INSendMessageIntent"],
        ["lexicon", "Bananarific", "--hint", "ba nana ri fic", "--json"],
        ["audio-info", "--json", "audio-fixtures/flite-slt/monkeychat-little-bobo.wav"],
        ["say", "--list-voices", "--json"],
    ])
    func json(arguments: [String]) throws {
        let result = try runHark(arguments)
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    @Test("import and export summaries as JSON")
    func importExportJSON() throws {
        let dir = try temporaryDirectory("import-export-json")
        let imported = try runHark(["import", "rhino", "Fuzz/corpus/rhino/lights.yaml", "--out", dir.appendingPathComponent("apps/Lights").path, "--json"])
        #expect(imported.status == 0, "\(imported.err)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(imported.out.utf8)) as? [String: Any])
        #expect(summary["app"] as? String == "Lights" && !(summary["intents"] as? [String] ?? []).isEmpty)
        #expect(FileManager.default.fileExists(atPath: summary["grammar"] as? String ?? "/nonexistent"))
        let gram = dir.appendingPathComponent("cafe.gram").path
        let exported = try runHark(["export", "jsgf", "--apps", dir.appendingPathComponent("apps").path, "--out", gram, "--json"])
        #expect(exported.status == 0, "\(exported.err)")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(exported.out.utf8)) as? [String: Any])
        #expect(written["grammar"] as? String == gram && written["dictionary"] as? String == dir.appendingPathComponent("cafe.dict").path)
        #expect((written["words"] as? Int ?? 0) > 0)
        let bare = try runHark(["export", "jsgf", "--json"])
        #expect(bare.status != 0 && bare.err.contains("give --out FILE"), "\(bare.err)")
    }

    @Test("shell completion offers the enumerated values and the installed apps")
    func completion() throws {
        let bash = try runHark(["--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        #expect(bash.out.contains("'auto'$'\\n''rnnoise'$'\\n''off'"), "--denoise values")
        let apps = try runHark(["---completion", "apps", "authorize", "--", "positional@0", "3", "0", "hark", "apps", "authorize", ""])
        #expect(apps.status == 0)
        #expect(apps.out.split(separator: "\n").contains("MonkeyChat"), "\(apps.out)")
        for shell in ["zsh", "fish"] {
            let script = try runHark(["--generate-completion-script", shell])
            #expect(script.status == 0 && script.out.contains("denoise"))
        }
    }
}
