import CPocketSphinx
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Text handed to pocketsphinx, which reads only from a path, as a file that
/// is never in the file system: an anonymous file in memory
/// (`memfd_create`), read through `/proc/self/fd/N`.
///
/// The dictionaries a decoder starts from (the grammar pass's nearly empty
/// one, the n-gram pass's 31,000 words) had been written to the temporary
/// folder and removed once the decoder was made; a process killed while it
/// made one left the file behind (`hark-empty-*.dict`, four on one machine).
/// An anonymous file goes with the last descriptor, whatever ends the
/// process, and needs no writable temporary folder. Where the kernel has no
/// such call or `/proc` is not mounted, the text goes to the temporary folder
/// as before and is removed when the value is.
final class InMemoryFile {
    /// The path to give pocketsphinx while this value lives.
    let path: String
    private let descriptor: Int32?
    private let temporaryFile: String?

    /// - Parameters:
    ///   - name: What the file is, for `/proc/<pid>/fd` listings and the
    ///     fallback file's name (`hark-<name>-<pid>-<random>.dict`).
    ///   - contents: The text.
    /// - Throws: ``RecognitionError`` when neither an anonymous file nor the
    ///   temporary folder can take the text.
    init(named name: String, contents: String) throws {
        let bytes = Array(contents.utf8)
        let fd = hark_memfd_create("hark-\(name)")
        if fd >= 0 {
            if Self.writeAll(bytes, to: fd), FileManager.default.isReadableFile(atPath: "/proc/self/fd/\(fd)") {
                descriptor = fd
                temporaryFile = nil
                path = "/proc/self/fd/\(fd)"
                return
            }
            close(fd)
        }
        let fallback = FileManager.default.temporaryDirectory
            .appendingPathComponent("hark-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).dict").path
        guard FileManager.default.createFile(atPath: fallback, contents: Data(bytes)) else {
            throw RecognitionError("cannot write the \(name) dictionary to \(fallback) (is the temporary folder writable?)")
        }
        descriptor = nil
        temporaryFile = fallback
        path = fallback
    }

    deinit {
        if let descriptor { close(descriptor) }
        if let temporaryFile { try? FileManager.default.removeItem(atPath: temporaryFile) }
    }

    /// Whether the text lives in memory only (false: in the temporary folder).
    var isAnonymous: Bool { descriptor != nil }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
