import Foundation

/// An app's `Info.plist`, the keys Hark reads.
public struct AppInfo: Sendable, Equatable {
    /// An entry of `INAlternativeAppNames`.
    public struct AlternativeName: Sendable, Equatable, Codable {
        public var name: String
        public var pronunciationHint: String?

        public init(name: String, pronunciationHint: String? = nil) {
            self.name = name
            self.pronunciationHint = pronunciationHint
        }

        enum CodingKeys: String, CodingKey {
            case name = "INAlternativeAppName"
            case pronunciationHint = "INAlternativeAppNamePronunciationHint"
        }
    }

    /// `CFBundleName`.
    public var bundleName: String
    /// `CFBundleDisplayName`, or the bundle name.
    public var displayName: String
    public var alternativeNames: [AlternativeName]
    public var usageDescription: String?
    public var intentsSupported: [String]
    public var intentsRestrictedWhileLocked: [String]

    /// `HarkDefaultApp`: this app takes requests that name no app when
    /// several apps could take them (a coffee machine whose only real app is
    /// the coffee app). At most one installed app may say so.
    public var isDefaultApp: Bool

    /// `HarkCardTemplates`: intent name → the app's own card for it, shown
    /// in push-to-talk and terminal use instead of the field list (see
    /// ``CardTemplate``).
    public var cardTemplates: [String: CardTemplate] = [:]

    /// SiriKit allows at most three alternative app names.
    public static let maximumAlternativeNames = 3

    /// The longest name, hint or usage description Hark takes, in UTF-16
    /// code units (SiriKit's limit for vocabulary strings): a name is said
    /// and shown, and a megabyte of one is a broken or hostile file.
    public static let maximumStringLength = 1024

    public init(bundleName: String, displayName: String? = nil, alternativeNames: [AlternativeName] = [],
                usageDescription: String? = nil, intentsSupported: [String] = [],
                intentsRestrictedWhileLocked: [String] = [], isDefaultApp: Bool = false) {
        self.bundleName = bundleName
        self.displayName = displayName ?? bundleName
        self.alternativeNames = alternativeNames
        self.usageDescription = usageDescription
        self.intentsSupported = intentsSupported
        self.intentsRestrictedWhileLocked = intentsRestrictedWhileLocked
        self.isDefaultApp = isDefaultApp
    }

    /// Reads an `Info.plist` (XML or binary).
    ///
    /// - Throws: ``CatalogError`` naming the file and the key path at fault.
    public init(contentsOf path: String) throws {
        let plist = try PropertyListFile.decode(Plist.self, at: path)
        bundleName = plist.bundleName
        guard !bundleName.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CatalogError("\(path): CFBundleName: must not be empty")
        }
        // The bundle name names the app's files (its vocabulary, its data),
        // so it must stay one plain path component.
        if bundleName.hasPrefix(".") || bundleName.contains("/") || bundleName.contains("\\")
            || bundleName.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw CatalogError("\(path): CFBundleName: '\(bundleName)' must be a plain name (no '/' or '\\', no leading '.', no control characters)")
        }
        displayName = plist.displayName ?? plist.bundleName
        alternativeNames = plist.alternativeNames ?? []
        if alternativeNames.count > Self.maximumAlternativeNames {
            throw CatalogError("\(path): INAlternativeAppNames[\(Self.maximumAlternativeNames)]: '\(alternativeNames[Self.maximumAlternativeNames].name)' is one name too many (\(alternativeNames.count) given, SiriKit allows at most \(Self.maximumAlternativeNames))")
        }
        for (i, alternative) in alternativeNames.enumerated()
        where alternative.name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw CatalogError("\(path): INAlternativeAppNames[\(i)].INAlternativeAppName: must not be empty")
        }
        usageDescription = plist.usageDescription
        var strings: [(String, String?)] = [("CFBundleName", bundleName), ("CFBundleDisplayName", plist.displayName),
                                            ("NSSiriUsageDescription", usageDescription)]
        for (i, alternative) in alternativeNames.enumerated() {
            strings.append(("INAlternativeAppNames[\(i)].INAlternativeAppName", alternative.name))
            strings.append(("INAlternativeAppNames[\(i)].INAlternativeAppNamePronunciationHint", alternative.pronunciationHint))
        }
        for case let (key, value?) in strings where value.utf16.count > Self.maximumStringLength {
            throw CatalogError("\(path): \(key): \(value.utf16.count) UTF-16 code units; at most \(Self.maximumStringLength) are allowed")
        }
        let attributes = plist.extensionInfo?.attributes
        intentsSupported = plist.intentsSupported ?? attributes?.intentsSupported ?? []
        intentsRestrictedWhileLocked = plist.intentsRestrictedWhileLocked ?? attributes?.intentsRestrictedWhileLocked ?? []
        isDefaultApp = plist.isDefaultApp ?? false
        for (intent, text) in plist.cardTemplates ?? [:] {
            guard intentsSupported.contains(intent) else {
                throw CatalogError("\(path): HarkCardTemplates.\(intent): the app does not support \(intent); add it to IntentsSupported or remove the template")
            }
            do { cardTemplates[intent] = try CardTemplate(text) } catch let error as CardTemplate.Error {
                throw CatalogError("\(path): HarkCardTemplates.\(intent): \(error.description)")
            }
        }
    }

    /// The names as `InfoPlist.strings` localises them.
    ///
    /// Keys are `CFBundleDisplayName`, and for alternative names the name or
    /// hint as written in `Info.plist` (`"ListOMat" = "ListeOMat";`), or
    /// `INAlternativeAppNames[i].INAlternativeAppName` /
    /// `INAlternativeAppNames[i].INAlternativeAppNamePronunciationHint`.
    /// `CFBundleName` is never localised: it is the app's identity.
    public func localized(with strings: [String: String]) -> AppInfo {
        var copy = self
        if let display = strings["CFBundleDisplayName"] { copy.displayName = display }
        for (i, alternative) in alternativeNames.enumerated() {
            let prefix = "INAlternativeAppNames[\(i)]."
            copy.alternativeNames[i].name = strings[prefix + "INAlternativeAppName"] ?? strings[alternative.name] ?? alternative.name
            if let hint = alternative.pronunciationHint {
                copy.alternativeNames[i].pronunciationHint = strings[prefix + "INAlternativeAppNamePronunciationHint"] ?? strings[hint] ?? hint
            } else if let hint = strings[prefix + "INAlternativeAppNamePronunciationHint"] {
                copy.alternativeNames[i].pronunciationHint = hint
            }
        }
        return copy
    }

    private struct Plist: Decodable {
        var bundleName: String
        var displayName: String?
        var alternativeNames: [AlternativeName]?
        var usageDescription: String?
        var intentsSupported: [String]?
        var intentsRestrictedWhileLocked: [String]?
        var extensionInfo: Extension?
        var isDefaultApp: Bool?
        var cardTemplates: [String: String]?

        enum CodingKeys: String, CodingKey {
            case bundleName = "CFBundleName"
            case displayName = "CFBundleDisplayName"
            case alternativeNames = "INAlternativeAppNames"
            case usageDescription = "NSSiriUsageDescription"
            case intentsSupported = "IntentsSupported"
            case intentsRestrictedWhileLocked = "IntentsRestrictedWhileLocked"
            case extensionInfo = "NSExtension"
            case isDefaultApp = "HarkDefaultApp"
            case cardTemplates = "HarkCardTemplates"
        }
    }

    private struct Extension: Decodable {
        var attributes: Attributes?
        enum CodingKeys: String, CodingKey { case attributes = "NSExtensionAttributes" }
    }

    private struct Attributes: Decodable {
        var intentsSupported: [String]?
        var intentsRestrictedWhileLocked: [String]?
        enum CodingKeys: String, CodingKey {
            case intentsSupported = "IntentsSupported"
            case intentsRestrictedWhileLocked = "IntentsRestrictedWhileLocked"
        }
    }
}
