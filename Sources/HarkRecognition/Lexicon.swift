import Foundation

/// Pronunciations in pocketsphinx's phone set, read from a CMU-format
/// dictionary (`word PH ON ES`, variants as `word(2)`).
public struct Lexicon: Sendable {
    /// Pronunciations by lower-cased word, the dictionary's order kept.
    public private(set) var entries: [String: [[String]]]

    /// Reads a dictionary file.
    ///
    /// - Throws: ``RecognitionError`` when the file cannot be read.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecognitionError("cannot read pronunciation dictionary '\(path)' (install pocketsphinx-en-us or pass --model DIR)")
        }
        entries = Self.parse(data)
    }

    public init(entries: [String: [[String]]] = [:]) {
        self.entries = entries
    }

    /// The pronunciations of `word`, if the dictionary has it.
    public func pronunciations(of word: String) -> [[String]]? {
        entries[word.lowercased()]
    }

    public func contains(_ word: String) -> Bool { entries[word.lowercased()] != nil }

    /// Adds a pronunciation (after any the word already has).
    public mutating func add(_ word: String, phones: [String]) {
        let key = word.lowercased()
        if entries[key]?.contains(phones) == true { return }
        entries[key, default: []].append(phones)
    }

    /// Dictionary text holding just `words` (every variant of each), in the
    /// format pocketsphinx reads.
    public func dictionaryText(for words: some Sequence<String>) -> String {
        var lines: [String] = []
        for word in Set(words).sorted() {
            guard let prons = entries[word] else { continue }
            for (i, phones) in prons.enumerated() {
                let name = i == 0 ? word : "\(word)(\(i + 1))"
                lines.append("\(name) \(phones.joined(separator: " "))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses dictionary bytes without building intermediate strings per line.
    static func parse(_ data: Data) -> [String: [[String]]] {
        var result: [String: [[String]]] = [:]
        result.reserveCapacity(140_000)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lineStart = 0
            let n = bytes.count
            while lineStart < n {
                var lineEnd = lineStart
                while lineEnd < n, bytes[lineEnd] != 10 { lineEnd += 1 }
                if lineEnd > lineStart, bytes[lineStart] != 59 /* ; comment */ {
                    let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]), as: UTF8.self)
                    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
                    if fields.count >= 2 {
                        var word = fields[0].lowercased()
                        if word.hasSuffix(")"), let open = word.lastIndex(of: "(") {
                            word = String(word[..<open])
                        }
                        result[word, default: []].append(fields.dropFirst().map(String.init))
                    }
                }
                lineStart = lineEnd + 1
            }
        }
        return result
    }
}
