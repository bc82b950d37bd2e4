import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Standard output, as every command writes it: each line goes out at once
/// (a program reading `hark listen --json` through a pipe sees each turn as
/// it happens, not at exit), and a write that fails or falls short (a full
/// disk, standard output closed) is an error, never silently lost. A reader
/// that stops early (`hark domains | head -1`) ends the command quietly, as
/// SIGPIPE does for any Unix tool.
enum Output {
    /// Writes `text` and a newline.
    ///
    /// - Throws: ``OutputError`` when standard output cannot take it.
    static func line(_ text: String = "") throws {
        try write(text + "\n")
    }

    /// Writes `text` as it is, all of it, before returning.
    ///
    /// - Throws: ``OutputError`` when standard output cannot take it.
    static func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if count > 0 {
                offset += count
                continue
            }
            let error = count == 0 ? EIO : errno
            switch error {
            case EINTR:
                continue
            case EAGAIN:
                // Standard output shared in non-blocking mode: wait until it takes more.
                var ready = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            case EPIPE:
                endQuietly()
            default:
                throw OutputError(code: error)
            }
        }
    }

    /// The reader has gone: end as a tool killed by SIGPIPE does (the shell
    /// reports status 141 and prints nothing), even when SIGPIPE was ignored.
    static func endQuietly() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(128 + SIGPIPE)
    }

    /// Makes sure descriptors 0, 1 and 2 are open before anything else is,
    /// so a file Hark opens later can never become its standard output (and
    /// receive the output) when the command was started with `>&-`. A
    /// closed standard output is replaced by /dev/null opened read-only:
    /// the first write to it fails (EBADF) and is reported.
    static func holdStandardDescriptors() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // open returns the lowest free descriptor: this one.
            _ = open("/dev/null", fd == STDERR_FILENO ? O_WRONLY : O_RDONLY)
        }
    }
}

/// Standard output could not take what a command wrote.
struct OutputError: Error, CustomStringConvertible {
    /// The `errno` of the failed write.
    let code: Int32

    var description: String {
        switch code {
        case EBADF:
            return "cannot write to standard output: it is closed (or not open for writing); run the command with its output going somewhere"
        case ENOSPC, EDQUOT, EFBIG:
            return "cannot write to standard output (\(String(cString: strerror(code)))); the output is incomplete; free some space or write it elsewhere"
        default:
            return "cannot write to standard output (\(String(cString: strerror(code)))); the output is incomplete"
        }
    }
}
