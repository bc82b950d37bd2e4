import Foundation
import HarkTestSupport
import Testing

/// What `hark` writes to standard output reaches a reader at once, and a
/// write that fails is an error: tested through real pipes, /dev/full and a
/// closed descriptor with the real binary.
@Suite("hark output: live, and never lost silently")
struct OutputTests {
    /// Reads one line from `fd`, waiting at most `limit` seconds (a guard
    /// against a hang, not a measure of speed). Nil at end of file or on timeout.
    func readLine(_ fd: Int32, buffer: inout [UInt8], limit: Int32 = 120_000) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, limit)
            if polled < 0, errno == EINTR { continue }
            guard polled > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }

    @Test("converse --json answers each turn while its standard input is still open")
    func converseAnswersLive() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repo.hark)
        process.arguments = ["converse", "--json"]
        process.currentDirectoryURL = Repo.root
        var environment = ProcessInfo.processInfo.environment
        environment["HARK_DATA_DIR"] = try temporaryDirectory("live").path
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let reader = output.fileHandleForReading.fileDescriptor
        var buffer: [UInt8] = []

        input.fileHandleForWriting.write(Data("add eggs to my grocery list in ListOMat\n".utf8))
        let first = try #require(readLine(reader, buffer: &buffer), "no answer to the first turn while its input was open")
        #expect(first.contains(#""code":"success""#), "\(first)")
        #expect(process.isRunning, "hark converse ended before its input did")

        input.fileHandleForWriting.write(Data("what's on my grocery list in ListOMat\n".utf8))
        let second = try #require(readLine(reader, buffer: &buffer), "no answer to the second turn")
        #expect(second.contains("eggs"), "\(second)")

        try input.fileHandleForWriting.close()
        #expect(readLine(reader, buffer: &buffer) == nil, "nothing more after the input ends")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Runs `script` with bash, `$0` being the hark binary; returns status and stderr.
    func bash(_ script: String) throws -> ProcessOutput {
        var environment = ProcessInfo.processInfo.environment
        environment["HARK_DATA_DIR"] = try temporaryDirectory("output").path
        return try ProcessRunner.run("/bin/bash", ["-c", script, Repo.hark], currentDirectory: Repo.root, environment: environment)
    }

    static let fixture = "audio-fixtures/espeak-us/monkeychat-send-bobo-bananas.wav"

    @Test("a write that fails is a one-line error and a non-zero exit", arguments: [
        (#""$0" apps list > /dev/full"#, "No space left on device"),
        (#""$0" domains > /dev/full"#, "No space left on device"),
        (#""$0" replay \#(fixture) --json --denoise off > /dev/full"#, "No space left on device"),
        (#"printf 'add eggs to my grocery list in ListOMat\n' | "$0" converse --json > /dev/full"#, "No space left on device"),
        (#""$0" apps list >&-"#, "standard output: it is closed"),
        (#""$0" domains 1< /dev/null"#, "standard output: it is closed"),
    ])
    func failedWrite(script: String, reason: String) throws {
        let result = try bash(script)
        #expect(result.status == 1, "\(script): status \(result.status)")
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("hark: error: cannot write to standard output") && lines[0].contains(reason),
                "\(script): \(result.err)")
    }

    @Test("a reader that has gone ends the command quietly, as SIGPIPE does (also with SIGPIPE ignored)", arguments: [
        #"exec "$0" domains"#,
        #"trap '' PIPE; exec "$0" domains"#,
        #"trap '' PIPE; exec "$0" apps list"#,
    ])
    func readerGone(script: String) throws {
        // A pipe whose reader is closed before hark starts: its first write fails (EPIPE).
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let errors = try temporaryDirectory("stderr").appendingPathComponent("err")
        try #require(FileManager.default.createFile(atPath: errors.path, contents: nil))
        let errorHandle = try FileHandle(forWritingTo: errors)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, Repo.hark]
        process.currentDirectoryURL = Repo.root
        var environment = ProcessInfo.processInfo.environment
        environment["HARK_DATA_DIR"] = try temporaryDirectory("gone").path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = writer
        process.standardError = errorHandle
        try process.run()
        try writer.close()
        process.waitUntilExit()
        try errorHandle.close()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE,
                "\(script): \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        #expect(try String(contentsOf: errors, encoding: .utf8).isEmpty, "\(script) wrote to standard error")
    }

    @Test("domains | head -1 prints the first line and nothing on standard error")
    func head() throws {
        let result = try bash(#""$0" domains | head -1"#)
        #expect(result.status == 0)
        #expect(result.out.split(separator: "\n").count == 1)
        #expect(result.err.isEmpty, "\(result.err)")
    }
}
