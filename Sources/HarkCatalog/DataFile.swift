import Foundation

/// A file of the person's data (vocabulary, an app's messages, ...) that
/// could not be read or saved: names the file, gives the system's reason
/// (`strerror`) and says what to do. A failed save leaves the previous
/// version of the file as it was; a file that cannot be read is never
/// replaced by a fresh one.
public struct DataFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Operation: String, Sendable {
        case read, save
        /// Making a data folder (and the folders above it).
        case createFolder
    }

    /// The data file (not its temporary sibling), or the folder.
    public let path: String
    public let operation: Operation
    /// The `errno` of the call that failed.
    public let code: Int32
    /// Why, when it is not the system's reason for `code` (a FIFO in place
    /// of a data file, a file over the size limit).
    public let detail: String?

    public init(path: String, operation: Operation, code: Int32, detail: String? = nil) {
        self.path = path
        self.operation = operation
        self.code = code
        self.detail = detail
    }

    /// The reason, e.g. "No space left on device".
    public var reason: String { detail ?? String(cString: strerror(code)) }

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
            case EFTYPE: advice = "move it aside; Hark keeps its data in regular files only"
            default: advice = "check the disk and the folder's permissions, then try again"
            }
            return "\(path): cannot save (\(reason)); the previous version is kept; \(advice)"
        case .read:
            let advice: String
            switch code {
            case EACCES, EPERM: advice = "check its permissions"
            case EFTYPE: advice = "move it aside; Hark reads its data from regular files only"
            default: advice = "fix it or move it aside to start afresh"
            }
            return "\(path): cannot read (\(reason)); it was left as it is, not replaced; \(advice)"
        case .createFolder:
            let advice: String
            switch code {
            case ENOTDIR, EEXIST: advice = "something that is not a folder is in the way; choose another data directory (--data-dir or HARK_DATA_DIR) or move it aside"
            case EACCES, EPERM: advice = "check the permissions of the folder above it, or choose another data directory (--data-dir or HARK_DATA_DIR)"
            case EROFS: advice = "the disk is read-only; choose another data directory (--data-dir or HARK_DATA_DIR)"
            default: advice = "check the disk, or choose another data directory (--data-dir or HARK_DATA_DIR)"
            }
            return "\(path): cannot create the data folder (\(reason)); \(advice)"
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
        case .createFolder:
            return "its data folder couldn't be made. The disk reported: \(reason)."
        }
    }
}

/// The `errno`-like code of a data path that is not a regular file (Linux
/// has no EFTYPE; BSD's value, never returned by the kernel here).
let EFTYPE: Int32 = 79

/// What kind of file `mode` describes, for messages ("a FIFO").
func fileKind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symbolic link"
    default: return "not a regular file"
    }
}

/// The error for a data path that is not a regular file: a folder is the
/// system's EISDIR; a FIFO, device or socket says what it is.
func notRegular(_ url: URL, _ mode: mode_t, _ operation: DataFileError.Operation) -> DataFileError {
    if mode & S_IFMT == S_IFDIR { return DataFileError(path: url.path, operation: operation, code: EISDIR) }
    return DataFileError(path: url.path, operation: operation, code: EFTYPE, detail: "it is \(fileKind(mode)), not a regular file")
}

/// Reading a data file that may not exist yet.
public enum DataFile {
    /// The largest data file Hark reads (64 MiB) unless a store sets its
    /// own (the user vocabulary: ``UserVocabularyStore/maximumFileSize``).
    /// A bigger file is refused with an error naming it and the limit,
    /// rather than read into memory.
    public static let maximumSize = 64 << 20

    /// The file's contents, or nil when there is no file (and only then:
    /// a file that exists but cannot be read is an error, so that a fresh
    /// value never replaces the person's data). Only a regular file is
    /// read: a FIFO, a device or a socket in its place (or a symbolic link
    /// to one, such as /dev/zero) is refused without blocking, and so is a
    /// file over `limit` bytes.
    ///
    /// - Throws: ``DataFileError`` naming the file and the reason.
    public static func read(_ url: URL, limit: Int = maximumSize) throws -> Data? {
        // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            if error == ENOENT { return nil }
            throw DataFileError(path: url.path, operation: .read, code: error)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw DataFileError(path: url.path, operation: .read, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw notRegular(url, info.st_mode, .read) }
        func tooLarge(_ size: Int) -> DataFileError {
            DataFileError(path: url.path, operation: .read, code: EFBIG,
                          detail: "it is \(size) bytes, over the limit of \(limit) bytes for this file")
        }
        if Int(info.st_size) > limit { throw tooLarge(Int(info.st_size)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw DataFileError(path: url.path, operation: .read, code: errno)
            }
            bytes.append(contentsOf: chunk[0..<count])
            // A file that grows while it is read is still capped.
            if bytes.count > limit { throw tooLarge(bytes.count) }
        }
        return Data(bytes)
    }

    /// What identifies one version of a file: a change by any process
    /// (which replaces the file by rename) changes it.
    public struct Version: Equatable, Sendable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }

    /// The version of the file at `url` now, or nil when there is none.
    public static func version(_ url: URL) -> Version? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Version(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                       seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
    }
}

/// Data folders, made the way a data file is read: every failure is one
/// sentence naming the folder and the reason.
public enum DataFolder {
    /// Makes `url` and any missing folders above it (`mkdir -p`).
    ///
    /// - Throws: ``DataFileError`` (`.createFolder`) naming the first folder
    ///   that could not be made, e.g. because a file is in the way.
    public static func create(_ url: URL) throws {
        let path = url.standardizedFileURL.path
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw DataFileError(path: path, operation: .createFolder, code: ENOTDIR,
                                    detail: "it is \(fileKind(info.st_mode)), not a folder")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try create(URL(fileURLWithPath: parent)) }
        if mkdir(path, 0o755) != 0 {
            let error = errno
            // Another process may have made it meanwhile.
            if error == EEXIST, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
            throw DataFileError(path: path, operation: .createFolder, code: error)
        }
    }
}

/// An advisory lock (`flock`) shared by every process using a data file,
/// held around each read-modify-write so that two processes never lose each
/// other's changes. It lives in a file of its own beside the data file
/// (`.NAME.lock`), because the data file is replaced by rename and a lock on
/// it would stay with the old version.
public enum DataFileLock {
    /// The lock file of the data file at `url`.
    public static func lockURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock")
    }

    /// Runs `body` holding the exclusive lock of the data file at `url`,
    /// waiting for another process (or another store in this process)
    /// that holds it. `body` should re-read the file before changing it.
    ///
    /// - Throws: ``DataFileError`` when the lock file cannot be opened;
    ///   whatever `body` throws.
    public static func withLock<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        let path = lockURL(for: url).path
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DataFileError(path: url.path, operation: .save, code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw DataFileError(path: path, operation: .save, code: EFTYPE,
                                detail: "its lock file is \(fileKind(info.st_mode)), not a regular file")
        }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw DataFileError(path: url.path, operation: .save, code: errno)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
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
        // Only a regular file is replaced (a FIFO or device in its place is
        // someone else's, and the read before this write refused it too).
        var existing = stat()
        if stat(url.path, &existing) == 0, existing.st_mode & S_IFMT != S_IFREG {
            throw notRegular(url, existing.st_mode, .save)
        }
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

extension AtomicFile {
    /// Removes the temporary files (`.NAME.PID.RAND.tmp`) that writers
    /// killed mid-save left in `folder`: those whose process no longer
    /// exists. A living process's file is left alone (it is being written).
    /// Called when a store opens its folder; failures are ignored (a stale
    /// file costs only space).
    ///
    /// - Returns: the names removed.
    @discardableResult
    public static func removeStaleTemporaries(in folder: URL) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 3, let pid = pid_t(parts[parts.count - 2]), pid > 0, UInt32(parts[parts.count - 1]) != nil
            else { continue }
            // kill(pid, 0) fails with ESRCH only when no such process exists.
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = (folder.path as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }
}
