import Foundation

/// A file of the person's data (vocabulary, an app's messages, ...) that
/// could not be read or saved: names the file, gives the system's reason
/// (`strerror`) and says what to do. A failed save leaves the previous
/// version of the file as it was; a file that cannot be read is never
/// replaced by a fresh one.
public struct DataFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Operation: String, Sendable {
        case read, save
    }

    /// The data file (not its temporary sibling).
    public let path: String
    public let operation: Operation
    /// The `errno` of the call that failed.
    public let code: Int32

    public init(path: String, operation: Operation, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// The system's reason, e.g. "No space left on device".
    public var reason: String { String(cString: strerror(code)) }

    /// Whether the disk (or a size limit) has no room for the file.
    public var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT || code == EFBIG }

    public var description: String {
        switch operation {
        case .save:
            let advice: String
            switch code {
            case ENOSPC, EDQUOT: advice = "free some space on that disk and try again"
            case EFBIG: advice = "free some space on that disk (or raise the file-size limit, ulimit -f) and try again"
            case EACCES, EPERM: advice = "check the permissions of the file and its folder, then try again"
            case EROFS: advice = "the disk is read-only; make it writable, or choose another data directory"
            default: advice = "check the disk and the folder's permissions, then try again"
            }
            return "\(path): cannot save (\(reason)); the previous version is kept; \(advice)"
        case .read:
            let advice: String
            switch code {
            case EACCES, EPERM: advice = "check its permissions"
            default: advice = "fix it or move it aside to start afresh"
            }
            return "\(path): cannot read (\(reason)); it was left as it is, not replaced; \(advice)"
        }
    }

    /// What the person hears when a request could not be carried out
    /// because of this error: what went wrong and what to do.
    public var spokenReason: String {
        switch operation {
        case .save:
            if isOutOfSpace { return "there isn't enough space left to save it. Free some space and try again." }
            if code == EACCES || code == EPERM || code == EROFS { return "it isn't allowed to save its data. Check the data folder's permissions." }
            return "its data couldn't be saved. The disk reported: \(reason)."
        case .read:
            return "its data couldn't be read. The disk reported: \(reason)."
        }
    }
}

/// Reading a data file that may not exist yet.
public enum DataFile {
    /// The file's contents, or nil when there is no file (and only then:
    /// a file that exists but cannot be read is an error, so that a fresh
    /// value never replaces the person's data).
    ///
    /// - Throws: ``DataFileError`` naming the file and the reason.
    public static func read(_ url: URL) throws -> Data? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            if error == ENOENT { return nil }
            throw DataFileError(path: url.path, operation: .read, code: error)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw DataFileError(path: url.path, operation: .read, code: errno)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return Data(bytes)
    }
}

/// Crash-safe file replacement.
public enum AtomicFile {
    /// Writes `data` to a temporary file in the same folder, fsyncs it,
    /// renames it over `url` and fsyncs the folder, so that after a crash
    /// the file holds either the old or the new contents. On any error
    /// (a full disk, say) the temporary file is removed and `url` keeps
    /// its old contents.
    ///
    /// - Throws: ``DataFileError`` naming `url` and the reason.
    public static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent().path
        let temp = (folder as NSString).appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DataFileError(path: url.path, operation: .save, code: errno) }
        var failure: Int32?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == nil, errno != EINTR { failure = errno }
        if failure == nil, rename(temp, url.path) != 0 { failure = errno }
        if let failure {
            unlink(temp)
            throw DataFileError(path: url.path, operation: .save, code: failure)
        }
        let dirfd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }
}
