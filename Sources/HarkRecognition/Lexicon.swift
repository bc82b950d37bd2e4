import Foundation

/// Where a pronunciation came from.
public enum PronunciationSource: String, Sendable, Equatable, CustomStringConvertible {
    /// The pronunciation dictionary (CMU's, as the model ships it).
    case dictionary = "cmudict"
    /// An app's pronunciation hint, piece by piece.
    case hint
    /// espeak-ng's letter-to-sound rules, mapped to the model's phones.
    case letterToSound = "espeak-ng g2p"

    public var description: String { rawValue }
}

/// One word's pronunciations and where they came from.
public struct Pronunciation: Sendable, Equatable {
    public var word: String
    /// Each variant's phones, the preferred first.
    public var variants: [[String]]
    public var source: PronunciationSource
}

/// Pronunciations in pocketsphinx's phone set, read from a CMU-format
/// dictionary (`word PH ON ES`, variants as `word(2)`), with
/// letter-to-sound rules for words the dictionary lacks (names such as
/// "bobo" or "bananarific"), so any word an app or user teaches can be heard.
public struct Lexicon: Sendable {
    /// The dictionary's pronunciations, packed (see ``PackedPronunciations``):
    /// CMU's 135,000 entries as Swift arrays of strings took 28 MiB.
    private var packed: PackedPronunciations
    /// Used for words not in the dictionary; nil: such words have no pronunciation.
    public var letterToSound: LetterToSound?

    /// Reads a dictionary file.
    ///
    /// - Throws: ``RecognitionError`` when the file cannot be read.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecognitionError("cannot read pronunciation dictionary '\(path)' (install pocketsphinx-en-us or pass --model DIR)")
        }
        packed = Self.parse(data)
        letterToSound = .shared
    }

    public init(entries: [String: [[String]]] = [:], letterToSound: LetterToSound? = nil) {
        packed = PackedPronunciations()
        for (word, variants) in entries.sorted(by: { $0.key < $1.key }) {
            for phones in variants { packed.append(word.lowercased(), phones) }
        }
        self.letterToSound = letterToSound
    }

    /// The dictionary's pronunciations of `word` (lower-cased), the
    /// dictionary's order kept; nil when the dictionary lacks the word.
    public func dictionaryPronunciations(of word: String) -> [[String]]? {
        packed.variants(of: word.lowercased())
    }

    /// How many words the dictionary holds.
    public var dictionaryWordCount: Int { packed.wordCount }

    /// The pronunciations of `word`: the dictionary's, else letter-to-sound.
    public func pronunciations(of word: String) -> [[String]]? {
        lookup(word)?.variants
    }

    /// Whether `word` can be pronounced (by the dictionary or letter-to-sound).
    public func contains(_ word: String) -> Bool { lookup(word) != nil }

    /// The pronunciations of `word` and their source.
    public func lookup(_ word: String) -> Pronunciation? {
        let key = word.lowercased()
        if let variants = packed.variants(of: key) { return Pronunciation(word: key, variants: variants, source: .dictionary) }
        if let phones = letterToSound?.phones(for: key) {
            return Pronunciation(word: key, variants: [phones], source: .letterToSound)
        }
        return nil
    }

    /// A pronunciation hint ("ba nana ri fic", "list oh mat") as phones: each
    /// piece from the dictionary, else from letter-to-sound. Where the
    /// dictionary has several variants ("ba": B IY EY, B AA) the one
    /// closest to the letter-to-sound reading of the piece is taken, as a
    /// hint is a spelling to be read, not letters to be spelled out.
    ///
    /// - Returns: the phones, and each piece with its phones and source;
    ///   nil when a piece cannot be pronounced.
    public func pronounce(hint: String) -> (phones: [String], pieces: [Pronunciation])? {
        let pieces = hint.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.map(String.init)
        guard !pieces.isEmpty else { return nil }
        var result: [Pronunciation] = []
        for piece in pieces {
            guard var pronunciation = lookup(piece) else { return nil }
            if pronunciation.variants.count > 1, let spelled = letterToSound?.phones(for: piece) {
                let best = pronunciation.variants.enumerated().min {
                    (Self.distance($0.element, spelled), $0.offset) < (Self.distance($1.element, spelled), $1.offset)
                }!
                pronunciation.variants = [best.element]
            } else {
                pronunciation.variants = [pronunciation.variants[0]]
            }
            result.append(pronunciation)
        }
        return (result.flatMap { $0.variants[0] }, result)
    }

    /// Edit distance between two phone sequences.
    static func distance(_ a: [String], _ b: [String]) -> Int {
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }

    /// Adds a pronunciation (after any the word already has).
    public mutating func add(_ word: String, phones: [String]) {
        let key = word.lowercased()
        if packed.variants(of: key)?.contains(phones) == true { return }
        packed.append(key, phones)
    }

    /// Dictionary text holding just `words` (every variant of each), in the
    /// format pocketsphinx reads.
    public func dictionaryText(for words: some Sequence<String>) -> String {
        var lines: [String] = []
        for word in Set(words).sorted() {
            guard let prons = packed.variants(of: word) else { continue }
            for (i, phones) in prons.enumerated() {
                let name = i == 0 ? word : "\(word)(\(i + 1))"
                lines.append("\(name) \(phones.joined(separator: " "))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Dictionary text for `words` as Hark pronounces them (the dictionary,
    /// then letter-to-sound), for tools that decode Hark's grammars with
    /// their own dictionary (pocketsphinx's `-dict`); and the words nothing
    /// could pronounce.
    public func pronouncingDictionary(for words: some Sequence<String>) -> (text: String, missing: [String]) {
        var lines: [String] = [], missing: [String] = []
        for word in Set(words.map { $0.lowercased() }).sorted() {
            guard let pronunciation = lookup(word) else {
                missing.append(word)
                continue
            }
            for (i, phones) in pronunciation.variants.enumerated() {
                lines.append("\(i == 0 ? word : "\(word)(\(i + 1))") \(phones.joined(separator: " "))")
            }
        }
        return (lines.joined(separator: "\n") + "\n", missing)
    }

    /// Parses dictionary bytes without building intermediate strings per line.
    static func parse(_ data: Data) -> PackedPronunciations {
        var result = PackedPronunciations()
        result.reserveCapacity(words: 140_000, phones: data.count)
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
                        result.append(word, fields.dropFirst())
                    }
                }
                lineStart = lineEnd + 1
            }
        }
        return result
    }
}

/// Pronunciations packed into one byte array: each phone is a byte (an
/// index into the phone names), each variant its length and phones, and a
/// word's variants are a chain through the array. A word costs its
/// dictionary key and a few bytes instead of an array of arrays of strings.
struct PackedPronunciations: Sendable {
    /// Phone names by index (the model's ~40, plus any a file invents).
    private var phoneNames: [String] = []
    private var phoneIndex: [String: UInt16] = [:]
    /// Per variant: the offset of the word's next variant (0: none, as
    /// Int32 in four bytes), the phone count, then the phones (two bytes
    /// each, so a file with more than 256 distinct phone names still fits).
    private var storage: [UInt8] = []
    /// Each word's first and last variant.
    private var words: [String: (first: Int32, last: Int32)] = [:]

    var wordCount: Int { words.count }

    mutating func reserveCapacity(words count: Int, phones: Int) {
        words.reserveCapacity(count)
        storage.reserveCapacity(phones)
    }

    mutating func append<S: Sequence>(_ word: String, _ phones: S) where S.Element: StringProtocol {
        let offset = Int32(storage.count)
        storage.append(contentsOf: [0, 0, 0, 0])
        let countAt = storage.count
        storage.append(0)
        var count = 0
        for phone in phones {
            let key = String(phone)
            let id: UInt16
            if let known = phoneIndex[key] {
                id = known
            } else {
                id = UInt16(truncatingIfNeeded: phoneNames.count)
                phoneNames.append(key)
                phoneIndex[key] = id
            }
            storage.append(UInt8(id & 0xFF))
            storage.append(UInt8(id >> 8))
            count += 1
        }
        storage[countAt] = UInt8(min(count, 255))
        if let existing = words[word] {
            withUnsafeBytes(of: offset.littleEndian) { storage.replaceSubrange(Int(existing.last)..<Int(existing.last) + 4, with: $0) }
            words[word] = (existing.first, offset)
        } else {
            words[word] = (offset, offset)
        }
    }

    func variants(of word: String) -> [[String]]? {
        guard let chain = words[word] else { return nil }
        var result: [[String]] = []
        var at = Int(chain.first)
        while true {
            let next = Int(storage[at]) | Int(storage[at + 1]) << 8 | Int(storage[at + 2]) << 16 | Int(storage[at + 3]) << 24
            let count = Int(storage[at + 4])
            var phones: [String] = []
            phones.reserveCapacity(count)
            for i in 0..<count {
                let p = at + 5 + 2 * i
                phones.append(phoneNames[Int(storage[p]) | Int(storage[p + 1]) << 8])
            }
            result.append(phones)
            if next == 0 { break }
            at = next
        }
        return result
    }
}
