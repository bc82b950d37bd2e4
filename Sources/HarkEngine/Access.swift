import Foundation
import HarkIntents

/// Whether Hark may talk to an app now: SiriKit's authorization and
/// locked-device rules.
public struct AccessPolicy: Sendable {
    /// Domains whose intents are refused while the device is locked, whatever
    /// the app says (as Siri does for payments and rides).
    public static let domainsRestrictedWhileLocked: Set<String> = ["Payments", "Ride Booking"]

    /// Whether the device is locked.
    public var locked: Bool

    public init(locked: Bool = false) {
        self.locked = locked
    }

    /// Why `intent` may not run now, or nil when it may.
    ///
    /// - Parameters:
    ///   - appRestricted: The app's `IntentsRestrictedWhileLocked`.
    ///   - authorized: Whether the person authorized the app.
    ///   - usageDescription: The app's `NSSiriUsageDescription`.
    public func refusal(app: String, intent: IntentDescription, appRestricted: [String], authorized: Bool,
                        usageDescription: String?) -> String? {
        if !authorized {
            let why = usageDescription.map { " \(app) says: \($0)" } ?? ""
            return "\(app) isn't allowed to work with Hark yet.\(why) To allow it, run: hark apps authorize \(app)"
        }
        if locked, Self.domainsRestrictedWhileLocked.contains(intent.domain) || appRestricted.contains(intent.name) {
            return "You'll need to unlock your device first."
        }
        return nil
    }
}

/// Which apps the person allowed to work with Hark, kept in
/// `<data directory>/authorizations.json` and replaced atomically (temporary
/// file, fsync, rename), so a crash never loses or tears it.
public struct AuthorizationStore: Sendable {
    public enum Status: String, Codable, Sendable {
        case authorized, denied
    }

    public let url: URL

    /// - Parameters:
    ///   - dataDirectory: Hark's data directory.
    ///   - preauthorized: Apps authorized when the store is created (first run).
    /// - Throws: when the store exists but cannot be read.
    public init(dataDirectory: URL, preauthorized: [String] = []) throws {
        url = dataDirectory.appendingPathComponent("authorizations.json")
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
            try write(Dictionary(preauthorized.map { ($0, Status.authorized) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// Every app's status.
    ///
    /// - Throws: ``HandlerContractError``-free plain errors naming the file.
    public func statuses() throws -> [String: Status] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            // Only a missing file means "no decisions yet"; one that exists but cannot be read
            // must not be taken for empty, or the next decision would overwrite everyone else's.
            guard !FileManager.default.fileExists(atPath: url.path) else {
                throw AuthorizationError("\(url.path): cannot read the authorizations; it was left as it is — fix it or move it aside")
            }
            return [:]
        }
        do {
            return try JSONDecoder().decode([String: Status].self, from: data)
        } catch {
            throw AuthorizationError("\(url.path): not a valid authorizations file (\(error)); delete it to start again")
        }
    }

    public func isAuthorized(_ app: String) throws -> Bool {
        try statuses()[app] == .authorized
    }

    /// Records the person's decision for `app`.
    public func set(_ status: Status, for app: String) throws {
        var all = try statuses()
        all[app] = status
        try write(all)
    }

    private func write(_ statuses: [String: Status]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(statuses)
        let temp = url.deletingLastPathComponent().appendingPathComponent(".authorizations.json.\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temp.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: temp.path) else {
            throw AuthorizationError("\(temp.path): cannot write (check the data directory's permissions)")
        }
        do {
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            unlink(temp.path)
            throw AuthorizationError("\(url.path): cannot save the authorizations (\(error)); the previous version is kept")
        }
        guard rename(temp.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp.path)
            throw AuthorizationError("\(url.path): cannot replace the file (\(reason)); the previous version is kept")
        }
    }
}

/// A problem reading or writing the authorizations file.
public struct AuthorizationError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
