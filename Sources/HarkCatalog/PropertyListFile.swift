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
        // PropertyListDecoder reads every format, the old-style
        // `"key" = "value";` too. PropertyListSerialization is not used: a
        // binary plist's set marker (0xC_) made its NSSet bridging crash
        // the process on Linux (Fuzz/corpus/plist/crash-bplist-set), and
        // each file it could not parse leaked about 800 bytes (its error
        // object; swift-corelibs-foundation issue #3366's family), which the
        // plist fuzzer ran into as an out-of-memory after 10 million inputs.
        try PlistNesting.check(data, path: path)
        if data.starts(with: Array("bplist".utf8)) {
            return try decode([String: String].self, at: path)
        }
        do {
            return try PropertyListDecoder().decode([String: String].self, from: data)
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
            throw CatalogError("\(path): \(keyPath(context.codingPath)): expected a string")
        } catch DecodingError.typeMismatch {
            throw CatalogError("\(path): (top level): expected a dictionary of strings")
        } catch {
            throw CatalogError("\(path): not a valid strings file (expected lines like \"key\" = \"value\";)")
        }
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
