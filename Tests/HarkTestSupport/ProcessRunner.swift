import Foundation

/// What a finished child process left behind.
public struct ProcessOutput: Sendable {
    /// Exit status (or the signal number when it was killed).
    public let status: Int32
    /// Everything it wrote to standard output.
    public let out: String
    /// Everything it wrote to standard error.
    public let err: String
}

/// Runs tools from tests without the two traps of `Pipe`: a child that fills
/// one pipe while the test reads the other (deadlock), and Foundation's
/// `readDataToEndOfFile` trapping when a SIGCHLD from a parallel test
/// interrupts the read (`try!` on EINTR). Output goes to files, and the
/// files are read with `read(2)` retried on EINTR.
public enum ProcessRunner {
    /// Runs `executable` with `arguments`; `input` (if any) is its whole
    /// standard input, otherwise `inputFile`, otherwise /dev/null.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        currentDirectory: URL? = nil,
        environment: [String: String]? = nil,
        input: Data? = nil,
        inputFile: String? = nil
    ) throws -> ProcessOutput {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("hark-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? outHandle.close(); try? errHandle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        if let environment { process.environment = environment }
        process.standardOutput = outHandle
        process.standardError = errHandle
        var inputHandle: FileHandle?
        if let input {
            let inURL = scratch.appendingPathComponent("in")
            try input.write(to: inURL)
            inputHandle = try FileHandle(forReadingFrom: inURL)
        } else if let inputFile {
            inputHandle = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputFile))
        }
        process.standardInput = inputHandle ?? FileHandle.nullDevice
        defer { try? inputHandle?.close() }

        try process.run()
        process.waitUntilExit()
        return ProcessOutput(status: process.terminationStatus,
                             out: try readAll(outURL.path), err: try readAll(errURL.path))
    }

    /// The file at `path` as UTF-8 text, read with EINTR retried.
    static func readAll(_ path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
