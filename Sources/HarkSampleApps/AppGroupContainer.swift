import Foundation

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
/// disk when `update` returns.
actor JSONDocument<Value: Codable & Sendable> {
    let url: URL
    private(set) var value: Value

    init(url: URL, initial: Value) throws {
        self.url = url
        if let data = try? Data(contentsOf: url) {
            value = try JSONDecoder().decode(Value.self, from: data)
        } else {
            value = initial
        }
    }

    /// Applies `change` and writes the result before returning it; on a
    /// write error the value in memory stays as it was.
    @discardableResult
    func update<Result: Sendable>(_ change: @Sendable (inout Value) -> Result) throws -> Result {
        var copy = value
        let result = change(&copy)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(copy)
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temp.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: temp.path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temp.path])
        }
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        guard rename(temp.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        // The rename itself is durable once the folder is flushed.
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        value = copy
        return result
    }
}
