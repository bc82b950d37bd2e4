import Foundation
import HarkIntents
import Logging
import Synchronization

/// An app's intents extension: a program of any language, run as a process
/// of its own (as SiriKit runs an app's intents extension), that Hark talks
/// to in JSON lines over its standard input and output (protocol version
/// ``protocolVersion``; docs/apps.md has a full transcript).
///
/// It is started on first use, in the app's folder, never through a shell,
/// with `HARK_APP_DATA_DIR` naming the app's data folder, and kept running.
/// It first prints a handshake line, then answers each request with the
/// request's `id`. A process that exits after answering (a shell script
/// reading one request) is started again for the next request. One that
/// crashes, hangs, never handshakes or answers garbage gets an
/// ``ExtensionError`` for the request at hand, is stopped, and is started
/// afresh on the next request. Its standard error goes to the log under the
/// app's name.
public actor ExtensionProcess {
    /// The protocol version Hark speaks (`"hark_extension": 1` in the handshake).
    public static let protocolVersion = 1

    /// What a running extension said in its handshake.
    public struct Handshake: Sendable, Equatable {
        /// The intents it handles.
        public var intents: [String]
        /// The stages it takes (`resolve`, `confirm`, `handle`); Hark
        /// applies SiriKit's defaults for the others.
        public var stages: Set<String>
    }

    public let app: String
    public let command: [String]
    /// The app's folder: the working directory.
    public let folder: URL
    /// `HARK_APP_DATA_DIR`: where the app keeps its data.
    public let dataDirectory: URL
    /// How long the process may take to print its handshake.
    public let handshakeTimeout: Duration
    let logger: Logger

    private struct Running {
        let process: Process
        let input: Int32
        let output: LineChannel
        let handshake: Handshake
    }
    private var running: Running?
    private var nextID = 1
    /// One request at a time: callers queue here.
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []
    /// The last lines the extension wrote to standard error.
    private let stderrTail = RecentLines()

    public init(app: String, command: [String], folder: URL, dataDirectory: URL,
                handshakeTimeout: Duration = .seconds(10), logger: Logger = Logger(label: "hark.extension")) {
        self.app = app
        self.command = command
        self.folder = folder
        self.dataDirectory = dataDirectory
        self.handshakeTimeout = handshakeTimeout
        var logger = logger
        logger[metadataKey: "app"] = "\(app)"
        self.logger = logger
    }

    /// The handshake of the running extension, starting it if needed.
    ///
    /// - Throws: ``ExtensionError`` when it cannot be started or does not handshake.
    public func handshake() async throws -> Handshake {
        await acquire()
        defer { release() }
        return try await start().handshake
    }

    /// Sends one request (`type` is `resolve`, `confirm` or `handle`) and
    /// returns the extension's answer object, checked to carry the request's `id`.
    ///
    /// - Parameters:
    ///   - fields: The request's fields besides `id` and `type`.
    ///   - timeout: How long to wait for the answer; past it the extension is stopped.
    /// - Throws: ``ExtensionError``; `CancellationError` when the task is
    ///   cancelled (the extension is stopped: it may be stuck on the request).
    public func request(_ type: String, fields: [String: JSONValue], timeout: Duration) async throws -> [String: JSONValue] {
        await acquire()
        defer { release() }
        let running = try await start()
        let id = nextID
        nextID += 1
        var object = fields
        object["id"] = .int(id)
        object["type"] = .string(type)
        let line = JSONValue.object(object).serialized + "\n"
        logger.debug("extension request", metadata: ["extension.request": "\(line.dropLast())"])
        if let failure = Self.send(line, to: running.input) {
            // It has gone (a script that answered once and exited): start it again, once.
            stop(reason: "its standard input was closed (\(failure))")
            return try await sendAgain(line, id: id, timeout: timeout)
        }
        do {
            return try await answer(id: id, from: running, timeout: timeout, mayBeUnread: true)
        } catch is RequestNeverRead {
            // A script that answers one request and exits was still exiting
            // when this request was sent; it never read it, so nothing of it
            // was done: a new process gets it, once.
            return try await sendAgain(line, id: id, timeout: timeout)
        }
    }

    /// Sends a request no process has read to a newly started one.
    private func sendAgain(_ line: String, id: Int, timeout: Duration) async throws -> [String: JSONValue] {
        let again = try await start()
        if let failure = Self.send(line, to: again.input) {
            throw fault(.exited, "could not be sent the request: \(failure)")
        }
        return try await answer(id: id, from: again, timeout: timeout, mayBeUnread: false)
    }

    /// The process ended with the request still unread in its standard input.
    private struct RequestNeverRead: Error {}

    /// Whether the process at the other end of `input` closed it with bytes
    /// still unread: the kernel then marks this end ECONNRESET, which a
    /// process that read the request and then died does not cause.
    private static func closedUnread(_ input: Int32) -> Bool {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(input, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == ECONNRESET
    }

    /// A protocol error of the extension's (an answer Hark cannot use), logged
    /// with the details; the process keeps running.
    public func protocolError(_ kind: ExtensionError.Kind, _ detail: String) -> ExtensionError {
        fault(kind, detail)
    }

    /// Stops the extension (SIGTERM, then SIGKILL after a second).
    public func shutdown() {
        stop(reason: Self.shuttingDown)
    }

    static let shuttingDown = "Hark is shutting down"

    // MARK: - Running

    private func answer(id: Int, from running: Running, timeout: Duration, mayBeUnread: Bool) async throws -> [String: JSONValue] {
        switch await running.output.next(within: timeout) {
        case .line(let line):
            logger.debug("extension answer", metadata: ["extension.answer": "\(line)"])
            guard let value = try? JSONValue.parse(line), case .object(let object) = value else {
                throw failing(.garbage, "answered request \(id) with a line that is not a JSON object: \(Self.excerpt(line))")
            }
            guard let answered = object["id"]?.int else {
                throw failing(.garbage, "answered request \(id) without a numeric \"id\": \(Self.excerpt(line))")
            }
            guard answered == id else {
                throw failing(.wrongID, "answered with id \(answered) while request \(id) was waiting")
            }
            return object
        case .overlong(let prefix):
            throw failing(.garbage, "printed a line over \(LineChannel.maximumLineLength) bytes for request \(id): \(Self.excerpt(prefix))…")
        case .end:
            // Wait for the exit first: an exiting process releases its files
            // last-opened first, so its standard output can report its end
            // before its standard input is released, and only that release
            // marks a request left unread (ECONNRESET). Once the process is
            // reaped, every file of it has been released.
            let status = exitStatus(of: running.process)
            if mayBeUnread, Self.closedUnread(running.input) {
                stop(reason: "it exited without reading request \(id)")
                throw RequestNeverRead()
            }
            // Its last words on standard error explain the exit: let them arrive.
            stderrTail.waitUntilFinished()
            stop(reason: "it exited")
            throw fault(.exited, "exited (\(status)) before answering request \(id)")
        case .timedOut:
            stop(reason: "it did not answer request \(id) within \(timeout)")
            throw fault(.timedOut, "did not answer request \(id) within \(timeout); it was stopped and will be started again on the next request")
        case .cancelled:
            stop(reason: "request \(id) was abandoned (the engine's time limit passed)")
            throw CancellationError()
        }
    }

    private func start() async throws -> Running {
        if let running, running.process.isRunning {
            return running
        }
        if running != nil { stop(reason: "it had exited") }
        stderrTail.clear()
        let executable = try resolveProgram()
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw fault(.couldNotStart, "cannot create its data folder \(dataDirectory.path) (\(error.localizedDescription))")
        }
        // Standard input is one end of a socket pair, so that writing to an
        // extension that has gone is an error (EPIPE with MSG_NOSIGNAL), never SIGPIPE.
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw fault(.couldNotStart, "cannot create its standard input (\(String(cString: strerror(errno))))")
        }
        let stdout = Pipe(), stderr = Pipe()
        let process = Process()
        process.executableURL = executable
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["HARK_APP_DATA_DIR"] = dataDirectory.path
        environment["HARK_APP_NAME"] = app
        environment["HARK_EXTENSION_PROTOCOL"] = String(Self.protocolVersion)
        process.environment = environment
        let childInput = FileHandle(fileDescriptor: pair[1], closeOnDealloc: false)
        process.standardInput = childInput
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            close(pair[0])
            close(pair[1])
            throw fault(.couldNotStart, "could not be started: \(error.localizedDescription)")
        }
        close(pair[1])
        let input = pair[0]
        _ = fcntl(input, F_SETFD, FD_CLOEXEC)
        try? stdout.fileHandleForWriting.close()
        try? stderr.fileHandleForWriting.close()
        let output = LineChannel(reading: dup(stdout.fileHandleForReading.fileDescriptor), name: "hark-ext-\(app)-out")
        // Standard error is logged and kept from its own reading thread, so
        // its last lines are there when the exit is reported, however busy
        // Swift's cooperative pool is.
        let logger = self.logger, tail = self.stderrTail
        _ = LineChannel(reading: dup(stderr.fileHandleForReading.fileDescriptor), name: "hark-ext-\(app)-err") { event in
            switch event {
            case .line(let line):
                logger.info("\(line)", metadata: ["extension.stream": "stderr"])
                tail.append(String(line.prefix(300)))
            case .overlong(let prefix):
                logger.info("\(prefix)…", metadata: ["extension.stream": "stderr"])
            case .end, .timedOut, .cancelled:
                tail.finish()
            }
        }
        try? stdout.fileHandleForReading.close()
        try? stderr.fileHandleForReading.close()
        logger.info("extension started", metadata: ["extension.pid": "\(process.processIdentifier)",
                                                     "extension.command": "\(command.joined(separator: " "))"])
        let handshake: Handshake
        do {
            handshake = try await readHandshake(output, process: process)
        } catch {
            Self.terminate(process)
            close(input)
            throw error
        }
        let started = Running(process: process, input: input, output: output, handshake: handshake)
        running = started
        return started
    }

    private func readHandshake(_ output: LineChannel, process: Process) async throws -> Handshake {
        let example = #"{"hark_extension": 1, "intents": ["orderDrink"]}"#
        switch await output.next(within: handshakeTimeout) {
        case .line(let line):
            guard let value = try? JSONValue.parse(line), case .object(let object) = value else {
                throw fault(.handshake, "its first line is not a JSON handshake such as \(example): \(Self.excerpt(line))")
            }
            guard let version = object["hark_extension"], let number = version.number else {
                throw fault(.handshake, "its handshake has no \"hark_extension\" version (expected \(example)): \(Self.excerpt(line))")
            }
            guard number == Double(Self.protocolVersion) else {
                throw fault(.handshake, "it speaks protocol version \(version.serialized); this Hark speaks \(Self.protocolVersion)")
            }
            guard case .array(let names)? = object["intents"] else {
                throw fault(.handshake, "its handshake has no \"intents\" array (expected \(example))")
            }
            let intents = names.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
            var stages: Set<String> = ["resolve", "confirm", "handle"]
            if let listed = object["stages"] {
                guard case .array(let items) = listed else { throw fault(.handshake, "\"stages\" must be an array of stage names") }
                stages = []
                for item in items {
                    guard case .string(let stage) = item, ["resolve", "confirm", "handle"].contains(stage) else {
                        throw fault(.handshake, "\"stages\" may list resolve, confirm and handle, not \(item.serialized)")
                    }
                    stages.insert(stage)
                }
            }
            logger.info("extension handshake", metadata: ["extension.intents": "\(intents)", "extension.stages": "\(stages.sorted())"])
            return Handshake(intents: intents, stages: stages)
        case .overlong(let prefix):
            throw fault(.handshake, "its first line is over \(LineChannel.maximumLineLength) bytes: \(Self.excerpt(prefix))…")
        case .end:
            try? await Task.sleep(for: .milliseconds(50))
            throw fault(.handshake, "exited (\(exitStatus(of: process))) without printing a handshake line such as \(example)")
        case .timedOut:
            throw fault(.handshake, "printed no handshake line within \(handshakeTimeout) (expected \(example); is its output buffered? flush after each line)")
        case .cancelled:
            throw CancellationError()
        }
    }

    private func resolveProgram() throws -> URL {
        let program = command[0]
        let fm = FileManager.default
        if program.contains("/") {
            let url = URL(fileURLWithPath: program, relativeTo: folder).standardizedFileURL
            guard fm.isExecutableFile(atPath: url.path) else {
                throw fault(.couldNotStart, "\(url.path) is not an executable file (chmod +x it, or name its interpreter first, e.g. [\"sh\", \"\(program)\"])")
            }
            return url
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(program)
            if fm.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw fault(.couldNotStart, "'\(program)' was not found on PATH (\(path))")
    }

    // MARK: - Stopping

    /// Stops the process, if any, and forgets it.
    private func stop(reason: String) {
        guard let running else { return }
        self.running = nil
        close(running.input)
        if running.process.isRunning {
            logger.log(level: reason == Self.shuttingDown ? .debug : .warning, "stopping the extension",
                       metadata: ["reason": "\(reason)", "extension.pid": "\(running.process.processIdentifier)"])
            Self.terminate(running.process)
        }
    }

    /// SIGTERM, then SIGKILL if it is still there a second later; reaped by Foundation.
    private static func terminate(_ process: Process) {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        process.terminate()
        Task.detached {
            for _ in 0..<20 {
                if !process.isRunning { return }
                try? await Task.sleep(for: .milliseconds(50))
            }
            if process.isRunning { kill(pid, SIGKILL) }
        }
    }

    private func exitStatus(of process: Process) -> String {
        // The output closes a moment before the process is reaped.
        for _ in 0..<40 where process.isRunning { usleep(5_000) }
        if process.isRunning { return "still running, output closed" }
        switch process.terminationReason {
        case .exit: return "status \(process.terminationStatus)"
        case .uncaughtSignal:
            let signal = process.terminationStatus
            let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
            return "killed by signal \(signal), \(name)"
        @unknown default: return "status \(process.terminationStatus)"
        }
    }

    // MARK: - Helpers

    private func fault(_ kind: ExtensionError.Kind, _ detail: String) -> ExtensionError {
        let error = ExtensionError(kind, app: app, command: command, detail: detail, stderrTail: stderrTail.lines)
        logger.error("intents extension failed", metadata: ["error": "\(error)"])
        return error
    }

    /// A fault after which the process cannot be trusted: it is stopped.
    private func failing(_ kind: ExtensionError.Kind, _ detail: String) -> ExtensionError {
        stop(reason: detail)
        return fault(kind, detail)
    }

    private static func send(_ line: String, to fd: Int32) -> String? {
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in
                Foundation.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += n
        }
        return nil
    }

    private static func excerpt(_ line: String) -> String {
        let cut = line.count > 200 ? String(line.prefix(200)) + "…" : line
        // Shown in logs and messages: no raw control characters.
        return cut.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
    }

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { queue.append($0) }
    }

    private func release() {
        if queue.isEmpty {
            busy = false
        } else {
            queue.removeFirst().resume()
        }
    }
}

/// The last few lines an extension wrote to standard error, for messages.
final class RecentLines: Sendable {
    private let store = Mutex<[String]>([])
    static let kept = 5

    func append(_ line: String) {
        store.withLock { lines in
            lines.append(line)
            if lines.count > Self.kept { lines.removeFirst(lines.count - Self.kept) }
        }
    }

    private let finished = Mutex(false)

    func clear() {
        store.withLock { $0.removeAll() }
        finished.withLock { $0 = false }
    }

    /// The extension closed its standard error (it exited).
    func finish() { finished.withLock { $0 = true } }

    /// Waits (briefly) for the extension's standard error to close.
    func waitUntilFinished() {
        for _ in 0..<200 where !finished.withLock({ $0 }) { usleep(5_000) }
    }

    var lines: [String] { store.withLock { $0 } }
}
