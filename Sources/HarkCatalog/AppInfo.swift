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

    /// `HarkIntents`: the app's own intents, by name (see ``CustomIntentDeclaration``).
    public var customIntents: [String: CustomIntentDeclaration] = [:]

    /// `HarkExtension`: the intents extension process that handles the
    /// app's intents, when the app has one.
    public var extensionDeclaration: ExtensionDeclaration?

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
        // iOS reads both from the Intents extension's NSExtensionAttributes;
        // Hark also takes them at the top level. Given in both places, both
        // count: an intent restricted in either is refused while locked
        // (before, the top level hid the extension's list).
        intentsSupported = Self.union(plist.intentsSupported, attributes?.intentsSupported)
        intentsRestrictedWhileLocked = Self.union(plist.intentsRestrictedWhileLocked, attributes?.intentsRestrictedWhileLocked)
        isDefaultApp = plist.isDefaultApp ?? false
        customIntents = try Self.customIntents(plist.customIntents ?? [:], path: path)
        if let declared = plist.extensionDeclaration {
            let key = "\(path): HarkExtension.Command"
            guard let command = declared.command, !command.isEmpty else {
                throw CatalogError("\(key): missing; give the program and its arguments as an array, e.g. <array><string>python3</string><string>extension.py</string></array>")
            }
            for (i, argument) in command.enumerated() {
                if argument.isEmpty || argument.utf16.count > Self.maximumStringLength
                    || argument.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    throw CatalogError("\(key)[\(i)]: must be a non-empty argument of at most \(Self.maximumStringLength) UTF-16 code units without control characters")
                }
            }
            extensionDeclaration = ExtensionDeclaration(command: command)
        }
        for (intent, text) in plist.cardTemplates ?? [:] {
            guard intentsSupported.contains(intent) || customIntents[intent] != nil else {
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

    /// The `HarkIntents` declarations, checked.
    static func customIntents(_ declared: [String: IntentPlist], path: String) throws -> [String: CustomIntentDeclaration] {
        var result: [String: CustomIntentDeclaration] = [:]
        for (name, plist) in declared {
            let key = "\(path): HarkIntents.\(name)"
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw CatalogError("\(key): an intent name is letters, digits and '_' (as in the grammar's 'intent NAME:')")
            }
            var strings: [(String, String?)] = [("Summary", plist.summary), ("Confirmation", plist.confirmation),
                                                ("Responses.Success", plist.responses?.success),
                                                ("Responses.Failure", plist.responses?.failure)]
            var parameters: [CustomIntentDeclaration.Parameter] = []
            for (i, parameter) in (plist.parameters ?? []).enumerated() {
                let here = "\(key).Parameters[\(i)]"
                guard !parameter.name.isEmpty else { throw CatalogError("\(here).Name: must not be empty") }
                if parameters.contains(where: { $0.name == parameter.name }) {
                    throw CatalogError("\(here).Name: '\(parameter.name)' is declared twice")
                }
                let required = parameter.required ?? false
                if required, (parameter.prompt ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                    throw CatalogError("\(here).Prompt: a required parameter needs the question Hark asks when it is missing, e.g. 'What \(InstalledApp.phrase(parameter.name)) would you like?'")
                }
                strings.append(("Parameters[\(i)].Prompt", parameter.prompt))
                parameters.append(.init(name: parameter.name, required: required, prompt: parameter.prompt))
            }
            for case let (field, value?) in strings where value.utf16.count > Self.maximumStringLength {
                throw CatalogError("\(key).\(field): \(value.utf16.count) UTF-16 code units; at most \(Self.maximumStringLength) are allowed")
            }
            result[name] = CustomIntentDeclaration(name: name, summary: plist.summary, parameters: parameters,
                                                   confirmation: plist.confirmation, success: plist.responses?.success,
                                                   failure: plist.responses?.failure)
        }
        return result
    }

    struct IntentPlist: Decodable {
        var summary: String?
        var parameters: [ParameterPlist]?
        var confirmation: String?
        var responses: ResponsesPlist?
        enum CodingKeys: String, CodingKey {
            case summary = "Summary", parameters = "Parameters", confirmation = "Confirmation", responses = "Responses"
        }
    }

    struct ParameterPlist: Decodable {
        var name: String
        var required: Bool?
        var prompt: String?
        enum CodingKeys: String, CodingKey { case name = "Name", required = "Required", prompt = "Prompt" }
    }

    struct ResponsesPlist: Decodable {
        var success: String?
        var failure: String?
        enum CodingKeys: String, CodingKey { case success = "Success", failure = "Failure" }
    }

    struct ExtensionPlist: Decodable {
        var command: [String]?
        enum CodingKeys: String, CodingKey { case command = "Command" }
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
        var customIntents: [String: IntentPlist]?
        var extensionDeclaration: ExtensionPlist?

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
            case customIntents = "HarkIntents"
            case extensionDeclaration = "HarkExtension"
        }
    }

    /// `first` then what `second` adds, in order, without repeats.
    private static func union(_ first: [String]?, _ second: [String]?) -> [String] {
        var seen = Set<String>()
        return ((first ?? []) + (second ?? [])).filter { seen.insert($0).inserted }
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
