import Foundation

/// Reads property-list files (XML or binary `.plist`, old-style `.strings`)
/// through Foundation, turning decoding failures into ``CatalogError``s that
/// name the file and the key path, as a compiler names file and line.
enum PropertyListFile {
    /// Decodes `type` from the plist at `path`.
    static func decode<T: Decodable>(_ type: T.Type, at path: String) throws -> T {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CatalogError("\(path): cannot read the file")
        }
        try PlistNesting.check(data, path: path)
        do {
            return try PropertyListDecoder().decode(T.self, from: data)
        } catch let DecodingError.typeMismatch(type, context) {
            throw CatalogError("\(path): \(keyPath(context.codingPath)): expected \(typeName(type))")
        } catch let DecodingError.keyNotFound(key, context) {
            throw CatalogError("\(path): \(keyPath(context.codingPath + [key])): required key is missing")
        } catch let DecodingError.valueNotFound(type, context) {
            throw CatalogError("\(path): \(keyPath(context.codingPath)): expected \(typeName(type))")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw CatalogError("\(path): \(keyPath(context.codingPath)): \(context.debugDescription)")
        } catch let error as CatalogError {
            throw CatalogError("\(path): \(error.description)")
        } catch {
            throw CatalogError("\(path): not a valid property list (XML or binary plist expected)")
        }
    }

    /// Reads an old-style strings file (`"key" = "value";`, UTF-8 or UTF-16
    /// with a byte-order mark, as Xcode writes them), or one Xcode compiled
    /// to a binary plist.
    static func strings(at path: String) throws -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CatalogError("\(path): cannot read the file")
        }
        // A binary plist goes through PropertyListDecoder, never through
        // PropertyListSerialization: its object marker 0xC_ (a set) makes
        // Foundation's NSSet bridging crash the process on Linux (found by
        // `scripts/fuzz.sh plist`; Fuzz/corpus/plist/crash-bplist-set).
        // Text formats hold no sets, so CoreFoundation's OpenStep parser,
        // the only one that reads `"key" = "value";`, is safe for them.
        try PlistNesting.check(data, path: path)
        if data.starts(with: Array("bplist".utf8)) {
            return try decode([String: String].self, at: path)
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw CatalogError("\(path): not a valid strings file (expected lines like \"key\" = \"value\";)")
        }
        guard let dictionary = plist as? [String: Any] else {
            throw CatalogError("\(path): (top level): expected a dictionary of strings")
        }
        var result: [String: String] = [:]
        for (key, value) in dictionary {
            guard let string = value as? String else {
                throw CatalogError("\(path): \(key): expected a string")
            }
            result[key] = string
        }
        return result
    }

    /// `ParameterVocabularies[0].ParameterNames[1]`, or `(top level)`.
    static func keyPath(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "(top level)" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }

    /// The plist type a Swift type stands for, in words.
    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean (<true/> or <false/>)"
        case is Int.Type, is Double.Type: return "a number"
        case is [String].Type: return "an array of strings"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") || name.hasPrefix("[") { return "an array" }
            return "a dictionary"
        }
    }
}

/// A dictionary key for error paths built by hand.
struct PlistKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}
