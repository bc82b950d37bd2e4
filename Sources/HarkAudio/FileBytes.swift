import Foundation

/// Whole-file reading with errors that say why (POSIX `errno`), which
/// Foundation's `Data(contentsOf:)` reports only vaguely on Linux.
enum FileBytes {
    /// Every byte of the file at `path`.
    static func read(_ path: String) throws(AudioError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw AudioError(code == ENOENT ? .fileNotFound : .fileUnreadable(reason: describe(code)), source: path)
        }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw AudioError(.fileUnreadable(reason: describe(errno)), source: path)
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw AudioError(.fileUnreadable(reason: "it is a directory"), source: path)
        }

        // Regular files announce their size; pipes and devices are read until end of file.
        return try readAll(descriptor, source: path,
                           sizeHint: status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : 0)
    }

    /// Every byte from `descriptor` until end of file, however often signals
    /// interrupt the reads (Foundation's `readDataToEndOfFile` traps then).
    /// With `limit`, more bytes than that is ``AudioError/Kind/tooLong(seconds:bytes:)``
    /// for audio at `bytesPerSecond`, found without holding more than the limit.
    static func readAll(_ descriptor: Int32, source: String, sizeHint: Int = 0,
                        limit: Int = .max, bytesPerSecond: Int = 1) throws(AudioError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(sizeHint, limit))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = readRetryingInterrupts(descriptor, into: &chunk)
            if count == 0 { return bytes }
            guard count > 0 else {
                throw AudioError(.fileUnreadable(reason: describe(errno)), source: source)
            }
            guard bytes.count + count <= limit else {
                let total = bytes.count + count
                throw AudioError(.tooLong(seconds: total / max(1, bytesPerSecond), bytes: total), source: source)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// One `read(2)` into `buffer`, retried when a signal interrupts it.
    /// Returns the byte count, 0 at end of file, or -1 with `errno` set.
    static func readRetryingInterrupts(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 || errno != EINTR { return count }
        }
    }

    /// The system's text for an `errno` value.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
