import Foundation

/// An app's `Info.plist`, the keys Hark reads.
public struct AppInfo: Sendable, Equatable {
    /// An entry of `INAlternativeAppNames`.
    public struct AlternativeName: Sendable, Equatable, Codable {
        public var name: String
        public var pronunciationHint: String?

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

    /// SiriKit allows at most three alternative app names.
    public static let maximumAlternativeNames = 3

    /// Reads an `Info.plist` (XML or binary).
    ///
    /// - Throws: ``CatalogError`` naming the file and the key path at fault.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CatalogError("\(path): cannot read the file")
        }
        let plist: Plist
        do {
            plist = try PropertyListDecoder().decode(Plist.self, from: data)
        } catch let DecodingError.typeMismatch(type, context) {
            throw CatalogError("\(path): \(Self.keyPath(context.codingPath)): expected \(Self.plistType(type))")
        } catch let DecodingError.keyNotFound(key, context) {
            throw CatalogError("\(path): \(Self.keyPath(context.codingPath + [key])): required key is missing")
        } catch let DecodingError.valueNotFound(type, context) {
            throw CatalogError("\(path): \(Self.keyPath(context.codingPath)): expected \(Self.plistType(type))")
        } catch {
            throw CatalogError("\(path): not a valid property list (\(error.localizedDescription))")
        }
        bundleName = plist.bundleName
        displayName = plist.displayName ?? plist.bundleName
        alternativeNames = plist.alternativeNames ?? []
        if alternativeNames.count > Self.maximumAlternativeNames {
            throw CatalogError("\(path): INAlternativeAppNames: \(alternativeNames.count) names, at most \(Self.maximumAlternativeNames) are allowed ('\(alternativeNames[Self.maximumAlternativeNames].name)' is one too many)")
        }
        usageDescription = plist.usageDescription
        let attributes = plist.extensionInfo?.attributes
        intentsSupported = plist.intentsSupported ?? attributes?.intentsSupported ?? []
        intentsRestrictedWhileLocked = plist.intentsRestrictedWhileLocked ?? attributes?.intentsRestrictedWhileLocked ?? []
    }

    static func keyPath(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "(top level)" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }

    static func plistType(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is [String].Type: return "an array of strings"
        case is Array<Any>.Type: return "an array"
        default:
            let name = String(describing: type)
            return name.hasPrefix("Array") ? "an array" : name.contains("Dictionary") || name.contains("Attributes") || name.contains("Extension") || name.contains("AlternativeName") ? "a dictionary" : name
        }
    }

    private struct Plist: Decodable {
        var bundleName: String
        var displayName: String?
        var alternativeNames: [AlternativeName]?
        var usageDescription: String?
        var intentsSupported: [String]?
        var intentsRestrictedWhileLocked: [String]?
        var extensionInfo: Extension?

        enum CodingKeys: String, CodingKey {
            case bundleName = "CFBundleName"
            case displayName = "CFBundleDisplayName"
            case alternativeNames = "INAlternativeAppNames"
            case usageDescription = "NSSiriUsageDescription"
            case intentsSupported = "IntentsSupported"
            case intentsRestrictedWhileLocked = "IntentsRestrictedWhileLocked"
            case extensionInfo = "NSExtension"
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
