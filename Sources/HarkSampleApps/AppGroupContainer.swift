import Foundation
import HarkCatalog
import HarkEngine

/// A sample app's data folder: `<data directory>/groups/<group>/`, like an
/// iOS app group container shared by the app and its intents extension.
public struct AppGroupContainer: Sendable {
    public let url: URL

    /// Makes the folder if needed and removes temporary files that writers
    /// killed mid-save left in it.
    ///
    /// - Throws: ``DataFileError`` naming the folder when it cannot be created.
    public init(dataDirectory: URL, group: String) throws {
        url = dataDirectory.appendingPathComponent("groups", isDirectory: true)
            .appendingPathComponent(group, isDirectory: true)
        try DataFolder.create(url)
        AtomicFile.removeStaleTemporaries(in: url)
    }

    /// Hark's data directory: `$HARK_DATA_DIR`, else `$XDG_DATA_HOME/hark`,
    /// else `~/.local/share/hark`.
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let dir = environment["HARK_DATA_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("hark")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/hark")
    }
}

/// A JSON document on disk, replaced atomically (write to a temporary file,
/// flush, rename, flush the folder) so a crash or power loss at any moment
/// leaves the old or the new version, never a torn one, and a change is on
/// disk when `update` returns. A failed write (a full disk) throws a
/// ``DataFileError`` naming the file and the reason, and leaves the file,
/// the value in memory and the folder as they were.
///
/// Several processes may share the document (`hark converse` and `hark
/// listen` on one data directory): `update` holds an advisory lock beside
/// the file (``DataFileLock``) and applies the change to the file as it is
/// then, so nobody's write is lost; `value` re-reads the file whenever
/// another process has replaced it.
actor JSONDocument<Value: Codable & Sendable> {
    let url: URL
    private var cached: Value
    /// The version of the file `cached` was read from or written as.
    private var version: DataFile.Version?

    /// Reads the document, or starts from `initial` when there is no file.
    ///
    /// - Throws: ``DataFileError`` when the file exists but cannot be read
    ///   (it is never replaced by `initial`); ``CatalogError`` when it does
    ///   not decode.
    init(url: URL, initial: Value) throws {
        self.url = url
        version = DataFile.version(url)
        cached = try JSONDocumentFile.read(Value.self, at: url) ?? initial
    }

    /// The document as it is on disk now (re-read when another process has
    /// changed it). If that change cannot be read, the last version read is
    /// kept; the next `update` reports the error.
    var value: Value {
        if let current = DataFile.version(url), current != version, let fresh = try? JSONDocumentFile.read(Value.self, at: url) {
            cached = fresh
            version = current
        }
        return cached
    }

    /// Applies `change` to the document as it is on disk now (under the
    /// file's lock, so a concurrent writer's change is kept) and writes the
    /// result before returning it; on a write error the value in memory
    /// and the file stay as they were.
    ///
    /// - Throws: ``DataFileError`` when the file cannot be read or saved;
    ///   ``CatalogError`` when another process left it undecodable.
    @discardableResult
    func update<Result: Sendable>(_ change: @Sendable (inout Value) -> Result) throws -> Result {
        try DataFileLock.withLock(url) {
            // Always re-read under the lock (a version check could in theory
            // miss a change that reused the inode, size and time).
            var copy = cached
            let current = DataFile.version(url)
            if let fresh = try JSONDocumentFile.read(Value.self, at: url) {
                copy = fresh
                cached = fresh
                version = current
            }
            let result = change(&copy)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(try encoder.encode(copy), to: url)
            cached = copy
            version = DataFile.version(url)
            return result
        }
    }
}

/// A handler that could not read or save its data tells the person why
/// ("there isn't enough space left to save it. Free some space ...").
extension DataFileError: ErrorWithSpokenReason {}
