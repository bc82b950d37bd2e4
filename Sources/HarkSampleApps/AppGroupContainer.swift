import Foundation
import HarkCatalog
import HarkEngine

/// A sample app's data folder: `<data directory>/groups/<group>/`, like an
/// iOS app group container shared by the app and its intents extension.
public struct AppGroupContainer: Sendable {
    public let url: URL

    /// - Throws: when the folder cannot be created.
    public init(dataDirectory: URL, group: String) throws {
        url = dataDirectory.appendingPathComponent("groups", isDirectory: true)
            .appendingPathComponent(group, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
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
actor JSONDocument<Value: Codable & Sendable> {
    let url: URL
    private(set) var value: Value

    /// Reads the document, or starts from `initial` when there is no file.
    ///
    /// - Throws: ``DataFileError`` when the file exists but cannot be read
    ///   (it is never replaced by `initial`); ``CatalogError`` when it does
    ///   not decode.
    init(url: URL, initial: Value) throws {
        self.url = url
        value = try JSONDocumentFile.read(Value.self, at: url) ?? initial
    }

    /// Applies `change` and writes the result before returning it; on a
    /// write error the value in memory stays as it was.
    ///
    /// - Throws: ``DataFileError`` when the file cannot be saved.
    @discardableResult
    func update<Result: Sendable>(_ change: @Sendable (inout Value) -> Result) throws -> Result {
        var copy = value
        let result = change(&copy)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(copy), to: url)
        value = copy
        return result
    }
}

/// A handler that could not read or save its data tells the person why
/// ("there isn't enough space left to save it. Free some space ...").
extension DataFileError: ErrorWithSpokenReason {}
