import Foundation

/// Folders for tests' files. Every one is made inside one folder for the
/// test run (`hark-test-run-<pid>` in the temporary folder), which is removed
/// when the test process exits; a run that was killed leaves its folder,
/// and the next run removes those of processes no longer running. Tests
/// made their folders straight in the temporary folder and never removed
/// them: 14,000 of them on a machine the suite had run on for a week.
public enum Scratch {
    /// A new, empty folder named after `name` (letters kept) inside the run's folder.
    public static func directory(_ name: String) throws -> URL {
        let url = run.appendingPathComponent("\(name.filter(\.isLetter))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let prefix = "hark-test-run-"

    /// The run's folder, made (and its removal at exit arranged) on first use.
    public static let run: URL = {
        let fm = FileManager.default
        let temporary = fm.temporaryDirectory
        // Folders of earlier runs whose process is gone.
        for name in (try? fm.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { try? fm.removeItem(at: temporary.appendingPathComponent(name)) }
        }
        let url = temporary.appendingPathComponent("\(prefix)\(getpid())")
        try? fm.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.run) }
        return url
    }()
}
