import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HarkTestSupport
import Testing

/// Paths of the checkout the tests run in.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `hark` executable built beside the test bundle.
    static var hark: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hark").path
    }

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}

/// A fresh temporary folder.
func temporaryDirectory(_ name: String) throws -> URL {
    try Scratch.directory("serve-" + name)
}

/// The Wyoming project's Python library and satellite, installed once by scripts/setup-wyoming.sh.
enum WyomingPython {
    static let client = Repo.path(".venv-wyoming/bin/python")
    static let satellite = Repo.path(".venv-wyoming-satellite/bin/python")

    /// Installs them (idempotent, quick when present).
    static let ready: Bool = {
        let result = try? ProcessRunner.run("/bin/sh", [Repo.path("scripts/setup-wyoming.sh")])
        if result?.status != 0 { Issue.record("scripts/setup-wyoming.sh failed: \(result?.err ?? "did not run")") }
        return result?.status == 0
    }()
}

/// A real `hark serve` process on an ephemeral 127.0.0.1 port, stopped by ``stop()``.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let directory: URL
    let uri: String

    init(_ extra: [String] = [], name: String) throws {
        directory = try temporaryDirectory(name)
        let out = directory.appendingPathComponent("stdout"), err = directory.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Repo.hark)
        process.arguments = ["serve", "--uri", "tcp://127.0.0.1:0", "--json", "--decoders", "1",
                             "--data-dir", directory.appendingPathComponent("data").path] + extra
        process.currentDirectoryURL = Repo.root
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The server says where it listens once its apps are loaded.
        var found: String?
        for _ in 0..<600 where found == nil && process.isRunning {
            let text = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"serving on (tcp://[0-9.]+:[0-9]+)"#, options: .regularExpression) {
                found = String(text[range].dropFirst("serving on ".count))
            } else {
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        guard let found else {
            process.terminate()
            throw ServeFailure(description: "hark serve did not start: \((try? String(contentsOf: err, encoding: .utf8)) ?? "")")
        }
        uri = found
    }

    /// What the server printed (one JSON turn per line with --json).
    var output: String { (try? String(contentsOf: directory.appendingPathComponent("stdout"), encoding: .utf8)) ?? "" }

    /// Runs scripts/wyoming-client.py against the server; one JSON object per answer.
    func client(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try ProcessRunner.run(WyomingPython.client, [Repo.path("scripts/wyoming-client.py"), uri] + arguments,
                                           currentDirectory: Repo.root)
        #expect(result.status == 0 || arguments.first == "hostile", "wyoming-client \(arguments) failed: \(result.err)")
        return result.out.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func stop() {
        stopProcess(process)
        try? FileManager.default.removeItem(at: directory)
    }
}

struct ServeFailure: Error, CustomStringConvertible {
    var description: String
}

/// flite's kal16 voice saying `text`, as a 16 kHz WAV (and raw PCM with padding when asked).
func speech(_ text: String, in directory: URL, name: String) throws -> String {
    let eight = directory.appendingPathComponent("\(name)-8k.wav").path, wav = directory.appendingPathComponent("\(name).wav").path
    #expect(try ProcessRunner.run("/usr/bin/flite", ["-voice", "kal16", "-t", text, "-o", eight]).status == 0)
    #expect(try ProcessRunner.run("/usr/bin/sox", [eight, "-r", "16000", wav, "pad", "0.5", "1.5"]).status == 0)
    return wav
}

/// Stops a child and everything in its process group (a satellite's microphone loop), without
/// `waitUntilExit` (which can wait forever on Linux when the child was reaped elsewhere).
func stopProcess(_ process: Process, group: Bool = false) {
    let pid = process.processIdentifier
    guard pid > 0 else { return }
    kill(group ? -pid : pid, SIGTERM)
    for _ in 0..<30 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
    // The satellite ignores SIGTERM; its group (Foundation starts each child in one of its own) goes with it.
    if group || process.isRunning { kill(group ? -pid : pid, SIGKILL) }
}
