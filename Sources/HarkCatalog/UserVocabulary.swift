import Foundation
import HarkText

/// SiriKit's `INVocabularyStringType`: the kinds of user-specific terms an
/// app may register (the user's contacts, playlists, workout names, ...).
public enum VocabularyStringType: String, CaseIterable, Sendable, Codable {
    case contactName, contactGroupName
    case photoTag, photoAlbumName
    case workoutActivityName
    case carProfileName, carName
    case paymentsOrganizationName, paymentsAccountNickname
    case notebookItemTitle, notebookItemGroupName
    case mediaPlaylistTitle, mediaMusicArtistName, mediaAudiobookTitle, mediaAudiobookAuthorName, mediaShowTitle

    /// The type named `name`.
    ///
    /// - Throws: ``CatalogError`` listing the valid types.
    public static func named(_ name: String) throws -> VocabularyStringType {
        guard let type = VocabularyStringType(rawValue: name) else {
            throw CatalogError("unknown vocabulary type '\(name)' (one of: \(allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return type
    }
}

/// The user-specific vocabulary of one user (SiriKit's `INVocabulary`),
/// kept under Hark's data directory as one JSON file per app:
/// `<data>/vocabulary/<user>/<app>.json`, `{"contactName": ["Bobo", ...]}`.
///
/// Each type is an ordered set, most important first; the order breaks ties
/// between entries that sound alike. Writes are crash-safe: the new file is
/// written beside the old one, flushed, renamed over it and the folder
/// flushed, so a kill at any moment leaves the old or the new vocabulary,
/// and a failed write (a full disk) leaves the old one and no temporary file.
/// Every change is a read-modify-write under an advisory lock beside the
/// file (``DataFileLock``), re-reading the file first, so processes sharing
/// the data directory never lose each other's strings; every read checks the
/// limits `set` checks, so a file written by hand cannot blow up a turn.
/// A file that exists but holds no vocabulary records that the app's
/// vocabulary was removed (so first-run seeding does not bring it back).
public struct UserVocabularyStore: Sendable {
    /// SiriKit's limit on one vocabulary string, in UTF-16 code units.
    public static let maximumStringLength = 1024
    /// Hark's limit on the strings of one type for one app (SiriKit sets
    /// none): 1,000, which a person's contacts or playlists fit in. Applied
    /// by ``set(_:type:app:)`` and again when a file is loaded.
    public static let maximumStringsPerType = 1000
    /// Hark's limit on one app's vocabulary file: 128 KiB, checked before it
    /// is written and before it is read, so a file made by hand is a
    /// one-line error naming it, never a turn that takes gigabytes (every
    /// word of the vocabulary becomes part of the recognition and parsing
    /// graphs: a debug build takes some 13 s and 265 MB for one typed turn
    /// with 128 KiB of long strings, 54 s and 1.8 GB with 1 MiB).
    public static let maximumFileSize = 128 << 10

    /// `<data>/vocabulary/<user>`.
    public let directory: URL

    /// - Parameters:
    ///   - dataDirectory: Hark's data directory (see `AppGroupContainer.defaultDataDirectory`).
    ///   - user: Whose vocabulary; one folder per user.
    /// - Throws: ``CatalogError`` when the user name is not a plain name or
    ///   the folder cannot be created.
    public init(dataDirectory: URL, user: String = "default") throws {
        try Self.checkName(user, what: "user")
        directory = dataDirectory.appendingPathComponent("vocabulary", isDirectory: true)
            .appendingPathComponent(user, isDirectory: true)
        try DataFolder.create(directory)
        AtomicFile.removeStaleTemporaries(in: directory)
    }

    /// Rejects names that are not a single plain path component, so an app
    /// or user name can never reach outside the data directory.
    static func checkName(_ name: String, what: String) throws {
        let bad = name.isEmpty || name == "." || name == ".." || name.hasPrefix(".") || name.contains("/")
            || name.contains("\\") || name.unicodeScalars.contains { $0.properties.generalCategory == .control }
            || name.utf8.count > 200
        if bad {
            throw CatalogError("'\(name)' is not a valid \(what) name (a plain name: no '/', no leading '.', at most 200 bytes)")
        }
    }

    func file(for app: String) throws -> URL {
        try Self.checkName(app, what: "app")
        return directory.appendingPathComponent(app + ".json")
    }

    /// The app's vocabulary by type, each most important first (empty if none).
    ///
    /// - Throws: ``DataFileError`` naming the file and the reason when it
    ///   exists but cannot be read (or is over ``maximumFileSize``);
    ///   ``CatalogError`` when it is corrupt or breaks a limit `set` checks.
    public func vocabulary(app: String) throws -> [String: [String]] {
        try Self.load(try file(for: app))
    }

    /// The file's vocabulary, with the limits `set` applies checked again:
    /// a file written by another program is not trusted.
    static func load(_ url: URL) throws -> [String: [String]] {
        guard let data = try DataFile.read(url, limit: maximumFileSize) else { return [:] }
        let vocabulary: [String: [String]]
        do {
            vocabulary = try JSONDecoder().decode([String: [String]].self, from: data)
        } catch {
            throw CatalogError("\(url.path): corrupt vocabulary file (expected {\"type\": [\"string\", ...]}); fix or delete it")
        }
        for (type, strings) in vocabulary.sorted(by: { $0.key < $1.key }) {
            // What `vocab set` refuses is refused when loaded, too.
            for (i, string) in strings.enumerated() {
                if let bad = firstDisallowedNameCharacter(in: string) {
                    throw CatalogError("\(url.path): \(type)[\(i)]: '\(escapingDisallowedNameCharacters(String(string.prefix(80))))' contains \(scalarName(bad)); a vocabulary value may not hold control, bidirectional-override or zero-width characters; fix or delete the file")
                }
            }
            do {
                try checkLimits(strings, type: type)
            } catch let error as CatalogError {
                throw CatalogError("\(url.path): \(error.description); fix it with `hark vocab set` or delete the file")
            }
        }
        return vocabulary
    }

    /// Whether the app's vocabulary was ever written (even if since removed).
    public func hasRecord(app: String) throws -> Bool {
        FileManager.default.fileExists(atPath: try file(for: app).path)
    }

    /// The apps with a vocabulary file, by name.
    public func apps() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Every app's vocabulary: app → type → strings.
    public func all() throws -> [String: [String: [String]]] {
        var result: [String: [String: [String]]] = [:]
        for app in apps() {
            let vocabulary = try vocabulary(app: app)
            if !vocabulary.isEmpty { result[app] = vocabulary }
        }
        return result
    }

    /// What changes when any vocabulary file is written: a running assistant
    /// compares it before each utterance to pick up `hark vocab set`.
    public func stamp() -> [String: Date] {
        var result: [String: Date] = [:]
        for app in apps() {
            let path = directory.appendingPathComponent(app + ".json").path
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            result[app] = attributes?[.modificationDate] as? Date ?? .distantPast
        }
        return result
    }

    /// The strings as they will be stored: checked against SiriKit's
    /// limits, duplicates after the first dropped (the first is the more
    /// important one).
    ///
    /// - Throws: ``CatalogError`` for an empty string, one over 1024 UTF-16
    ///   code units, or more than ``maximumStringsPerType`` strings.
    public static func normalize(_ strings: [String], type: VocabularyStringType) throws -> [String] {
        var seen = Set<String>()
        let unique = strings.filter { seen.insert($0).inserted }
        try checkLimits(unique, type: type.rawValue)
        return unique
    }

    /// SiriKit's length limit, Hark's count limit, no empty string.
    static func checkLimits(_ strings: [String], type: String) throws {
        if strings.count > maximumStringsPerType {
            throw CatalogError("\(type) has \(strings.count) strings; the limit is \(maximumStringsPerType) per type")
        }
        for (i, string) in strings.enumerated() {
            let length = string.utf16.count
            if length > maximumStringLength {
                throw CatalogError("\(type) string \(i + 1) ('\(string.prefix(40))...') is \(length) UTF-16 code units long; the limit is \(maximumStringLength)")
            }
            guard !string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw CatalogError("\(type) string \(i + 1) is empty")
            }
            if let bad = firstDisallowedNameCharacter(in: string) {
                throw CatalogError("\(type) string \(i + 1) ('\(escapingDisallowedNameCharacters(String(string.prefix(40))))') contains \(scalarName(bad)); a vocabulary value may not hold control, bidirectional-override or zero-width characters")
            }
        }
    }

    /// Replaces the app's strings of `type` (SiriKit's
    /// `setVocabularyStrings(_:of:)`), most important first. An empty list
    /// removes the type.
    ///
    /// - Throws: ``CatalogError`` for a bad app name or string;
    ///   ``DataFileError`` for a failed read or write (a full disk), which
    ///   leaves the stored vocabulary as it was.
    @discardableResult
    public func set(_ strings: [String], type: VocabularyStringType, app: String) throws -> [String] {
        let normalized = try Self.normalize(strings, type: type)
        try modify(app: app) { $0[type.rawValue] = normalized.isEmpty ? nil : normalized }
        return normalized
    }

    /// Changes the app's strings of `type` from what is on disk now, under
    /// the file's lock, so that processes changing the same vocabulary at
    /// once (`hark vocab`, a running assistant) never lose each other's
    /// strings. Returns the strings as stored.
    ///
    /// - Throws: as ``set(_:type:app:)``; nothing is written when the
    ///   changed strings break a limit.
    @discardableResult
    public func update(type: VocabularyStringType, app: String, _ change: (inout [String]) -> Void) throws -> [String] {
        var stored: [String] = []
        try modify(app: app) { vocabulary in
            var strings = vocabulary[type.rawValue] ?? []
            change(&strings)
            stored = try Self.normalize(strings, type: type)
            vocabulary[type.rawValue] = stored.isEmpty ? nil : stored
        }
        return stored
    }

    /// Read-modify-write of one app's file under its lock, re-reading it
    /// first so another process's change since is kept.
    private func modify(app: String, _ change: (inout [String: [String]]) throws -> Void) throws {
        let url = try file(for: app)
        try DataFileLock.withLock(url) {
            var vocabulary = try Self.load(url)
            try change(&vocabulary)
            try write(vocabulary, app: app)
        }
    }

    /// Stores an app's initial vocabulary the first time only: apps that
    /// already have a record (even an emptied one) are left alone, so a
    /// `removeAll` is not undone by the next start.
    ///
    /// - Parameter vocabulary: app → type → strings, most important first.
    public func seed(_ vocabulary: [String: [String: [String]]]) throws {
        for (app, types) in vocabulary.sorted(by: { $0.key < $1.key }) where try !hasRecord(app: app) {
            var stored: [String: [String]] = [:]
            for (type, strings) in types {
                let normalized = try Self.normalize(strings, type: try VocabularyStringType.named(type))
                if !normalized.isEmpty { stored[type] = normalized }
            }
            // Another process may have written it since the check above.
            try DataFileLock.withLock(try file(for: app)) {
                if try !hasRecord(app: app) { try write(stored, app: app) }
            }
        }
    }

    /// Removes all of the app's vocabulary (SiriKit's
    /// `removeAllVocabularyStrings()`, on reset or logout).
    public func removeAll(app: String) throws {
        let url = try file(for: app)
        // No re-read: a corrupt file is replaced too, which is what removing asks.
        try DataFileLock.withLock(url) { try write([:], app: app) }
    }

    private func write(_ vocabulary: [String: [String]], app: String) throws {
        let url = try file(for: app)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(vocabulary)
        if data.count > Self.maximumFileSize {
            throw CatalogError("\(app)'s vocabulary would take \(data.count) bytes; the limit is \(Self.maximumFileSize) bytes per app; nothing was changed")
        }
        try AtomicFile.write(data, to: url)
    }
}
