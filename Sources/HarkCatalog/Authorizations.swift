import Foundation

/// Which apps the person allowed to work with Hark, kept in
/// `<data directory>/authorizations.json` and saved with ``AtomicFile``, so a
/// crash never loses or tears it, a failed save keeps the previous version,
/// and a file that exists but cannot be read is an error, never taken for
/// "no decisions yet" and overwritten. Each decision is recorded under an
/// advisory lock beside the file, re-reading it first, so two processes
/// deciding at once keep both decisions.
public struct AuthorizationStore: Sendable {
    public enum Status: String, Codable, Sendable {
        case authorized, denied
    }

    public let url: URL

    /// - Parameters:
    ///   - dataDirectory: Hark's data directory.
    ///   - preauthorized: Apps authorized when the store is created (first run).
    /// - Throws: when the data directory cannot be made or the first file saved.
    public init(dataDirectory: URL, preauthorized: [String] = []) throws {
        url = dataDirectory.appendingPathComponent("authorizations.json")
        if !FileManager.default.fileExists(atPath: url.path) {
            try DataFolder.create(dataDirectory)
            // Another process starting at the same time may have made it first.
            try DataFileLock.withLock(url) {
                if !FileManager.default.fileExists(atPath: url.path) {
                    try write(Dictionary(preauthorized.map { ($0, Status.authorized) }, uniquingKeysWith: { a, _ in a }))
                }
            }
        }
        AtomicFile.removeStaleTemporaries(in: dataDirectory)
    }

    /// Every app's status.
    ///
    /// - Throws: ``DataFileError`` when the file exists but cannot be read;
    ///   ``CatalogError`` when it does not decode.
    public func statuses() throws -> [String: Status] {
        guard let data = try DataFile.read(url) else { return [:] }
        do {
            return try JSONDecoder().decode([String: Status].self, from: data)
        } catch {
            throw CatalogError("\(url.path): not a valid authorizations file (\(error)); delete it to start again")
        }
    }

    public func isAuthorized(_ app: String) throws -> Bool {
        try statuses()[app] == .authorized
    }

    /// Records the person's decision for `app`.
    ///
    /// - Throws: ``DataFileError`` when it cannot be saved (the previous
    ///   decisions are kept).
    public func set(_ status: Status, for app: String) throws {
        // Under the lock, from the file as it is now: another process's
        // decision made meanwhile is kept.
        try DataFileLock.withLock(url) {
            var all = try statuses()
            all[app] = status
            try write(all)
        }
    }

    private func write(_ statuses: [String: Status]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(statuses), to: url)
    }
}
