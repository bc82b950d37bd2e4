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
    /// The dictionary file's entries, read where they are in its bytes
    /// (see ``IndexedDictionary``): CMU's 135,000 entries as Swift arrays of
    /// strings took 28 MiB, packed into a table of words 10 MiB, as the
    /// file's bytes with a sorted index 4 MiB.
    private var file: IndexedDictionary
    /// Entries added since (``add(_:phones:)``, ``init(entries:letterToSound:)``)
    /// and the file's words that are not ASCII (none in CMU's).
    private var packed: PackedPronunciations
    /// Used for words not in the dictionary; nil: such words have no pronunciation.
    public var letterToSound: LetterToSound?

    /// Reads a dictionary file.
    ///
    /// - Throws: ``RecognitionError`` when the file cannot be read.
    public init(contentsOf path: String) throws {
        guard var bytes = Self.contents(of: path) else {
            throw RecognitionError("cannot read pronunciation dictionary '\(path)' (install pocketsphinx-en-us or pass --model DIR)")
        }
        let (indexed, others) = IndexedDictionary.read(&bytes)
        file = indexed
        packed = others
        letterToSound = .shared
    }

    /// A file's bytes, read straight into the array the index keeps (by
    /// way of `Data` the file was in memory twice at start-up); nil when it
    /// cannot be read, or is over 64 MiB (the model's is 3 MiB).
    static func contents(of path: String) -> [UInt8]? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        let limit = 64 << 20
        guard let size = try? file.seekToEnd(), size <= UInt64(limit), (try? file.seek(toOffset: 0)) != nil else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var filled = 0
        let descriptor = file.fileDescriptor
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return filled == bytes.count ? bytes : nil
    }

    public init(entries: [String: [[String]]] = [:], letterToSound: LetterToSound? = nil) {
        file = IndexedDictionary()
        packed = PackedPronunciations()
        for (word, variants) in entries.sorted(by: { $0.key < $1.key }) {
            for phones in variants { packed.append(word.lowercased(), phones) }
        }
        self.letterToSound = letterToSound
    }

    /// The dictionary's pronunciations of `word` (lower-cased), the
    /// dictionary's order kept; nil when the dictionary lacks the word.
    public func dictionaryPronunciations(of word: String) -> [[String]]? {
        variants(of: word.lowercased())
    }

    /// The file's variants of a lower-cased word, then those added.
    private func variants(of key: String) -> [[String]]? {
        let found = file.variants(of: key), added = packed.variants(of: key)
        guard let found else { return added }
        return found + (added ?? [])
    }

    /// How many words the dictionary holds.
    public var dictionaryWordCount: Int {
        file.wordCount + packed.words.filter { file.variants(of: $0) == nil }.count
    }

    /// The pronunciations of `word`: the dictionary's, else letter-to-sound.
    public func pronunciations(of word: String) -> [[String]]? {
        lookup(word)?.variants
    }

    /// Whether `word` can be pronounced (by the dictionary or letter-to-sound).
    public func contains(_ word: String) -> Bool { lookup(word) != nil }

    /// The pronunciations of `word` and their source.
    public func lookup(_ word: String) -> Pronunciation? {
        let key = word.lowercased()
        if let variants = variants(of: key) { return Pronunciation(word: key, variants: variants, source: .dictionary) }
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
        if variants(of: key)?.contains(phones) == true { return }
        packed.append(key, phones)
    }

    /// Dictionary text holding just `words` (every variant of each), in the
    /// format pocketsphinx reads.
    public func dictionaryText(for words: some Sequence<String>) -> String {
        var lines: [String] = []
        for word in Set(words).sorted() {
            guard let prons = variants(of: word) else { continue }
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
}

/// A CMU-format dictionary file's bytes (`word PH ON ES`, variants as
/// `word(2)`, `;` comments) with the start of every entry's line, sorted by
/// word: a word's variants are found by binary search and read from the
/// line itself. 135,000 entries cost the file (3.2 MiB) and 0.8 MiB of
/// index, where a Swift dictionary of them cost 10 MiB.
struct IndexedDictionary: Sendable {
    /// One entry: where its line starts and how long its word is (without a `(2)` mark).
    struct Entry: Sendable {
        var offset: UInt32
        var wordLength: UInt16
    }

    private var bytes: [UInt8] = []
    /// Sorted by word, then by place in the file (so variants keep their order).
    private var entries: [Entry] = []
    private(set) var wordCount = 0

    /// Indexes a file's bytes (words lower-cased); lines whose word is not
    /// ASCII (or is longer than 64 KiB) are returned parsed instead.
    static func read(_ file: inout [UInt8]) -> (IndexedDictionary, PackedPronunciations) {
        var bytes: [UInt8] = []
        swap(&bytes, &file)  // one copy of the file, not two
        guard bytes.count < Int(UInt32.max) else {
            // Past what the index addresses (the model's is 3 MiB): parsed whole.
            return (IndexedDictionary(), parse(bytes))
        }
        var entries: [Entry] = []
        var others: [Range<Int>] = []
        entries.reserveCapacity(bytes.count / 26)
        bytes.withUnsafeMutableBufferPointer { bytes in
            let n = bytes.count
            var lineStart = 0
            while lineStart < n {
                var lineEnd = lineStart
                while lineEnd < n, bytes[lineEnd] != 10 { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                guard lineEnd > lineStart, bytes[lineStart] != 59 /* ; comment */ else { continue }
                var fieldEnd = lineStart
                var plain = true
                while fieldEnd < lineEnd, !isSpace(bytes[fieldEnd]) {
                    if bytes[fieldEnd] >= 0x80 { plain = false }
                    if (65...90).contains(bytes[fieldEnd]) { bytes[fieldEnd] += 32 }  // ASCII lower-cased in place
                    fieldEnd += 1
                }
                // A word and at least one phone.
                var phoneStart = fieldEnd
                while phoneStart < lineEnd, isSpace(bytes[phoneStart]) { phoneStart += 1 }
                guard fieldEnd > lineStart, phoneStart < lineEnd else { continue }
                var wordEnd = fieldEnd
                if bytes[fieldEnd - 1] == 41 /* ) */, let open = (lineStart..<fieldEnd).last(where: { bytes[$0] == 40 /* ( */ }) {
                    wordEnd = open
                }
                if plain, wordEnd > lineStart, wordEnd - lineStart <= Int(UInt16.max) {
                    entries.append(Entry(offset: UInt32(lineStart), wordLength: UInt16(wordEnd - lineStart)))
                } else if wordEnd > lineStart {
                    others.append(lineStart..<lineEnd)
                }
            }
        }
        var index = IndexedDictionary()
        index.bytes = bytes
        let inOrder = zip(entries, entries.dropFirst()).allSatisfy { index.order($0, $1) }
        if !inOrder { entries.sort(by: index.order) }
        var words = 0
        for i in entries.indices where i == 0 || index.compare(entries[i - 1], entries[i]) != 0 { words += 1 }
        index.entries = entries
        index.wordCount = words
        var lines: [UInt8] = []
        for line in others { lines += bytes[line] + [10] }
        return (index, parse(lines))
    }

    /// The variants of `word` (lower-cased) in the file's order; nil when the file lacks it.
    func variants(of word: String) -> [[String]]? {
        guard !entries.isEmpty, !word.isEmpty else { return nil }
        let key = Array(word.utf8)
        return bytes.withUnsafeBufferPointer { bytes -> [[String]]? in
            // The first entry whose word is not before `key`.
            var low = 0, high = entries.count
            while low < high {
                let mid = (low + high) / 2
                if Self.compare(bytes, entries[mid], key) < 0 { low = mid + 1 } else { high = mid }
            }
            var result: [[String]] = []
            var i = low
            while i < entries.count, Self.compare(bytes, entries[i], key) == 0 {
                result.append(phones(of: entries[i], in: bytes))
                i += 1
            }
            return result.isEmpty ? nil : result
        }
    }

    private func phones(of entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var at = Int(entry.offset) + Int(entry.wordLength)
        while at < bytes.count, !Self.isSpace(bytes[at]), bytes[at] != 10 { at += 1 }  // the (2) mark
        var phones: [String] = []
        while at < bytes.count, bytes[at] != 10 {
            while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
            let start = at
            while at < bytes.count, bytes[at] != 10, !Self.isSpace(bytes[at]) { at += 1 }
            if at > start { phones.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)) }
        }
        return phones
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 13 }

    /// Entry `a` before entry `b`: by word, then by place in the file.
    private func order(_ a: Entry, _ b: Entry) -> Bool {
        let c = compare(a, b)
        return c != 0 ? c < 0 : a.offset < b.offset
    }

    private func compare(_ a: Entry, _ b: Entry) -> Int {
        bytes.withUnsafeBufferPointer { bytes in
            let length = min(Int(a.wordLength), Int(b.wordLength))
            let c = memcmp(bytes.baseAddress! + Int(a.offset), bytes.baseAddress! + Int(b.offset), length)
            return c != 0 ? Int(c) : Int(a.wordLength) - Int(b.wordLength)
        }
    }

    private static func compare(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: Entry, _ key: [UInt8]) -> Int {
        let length = min(Int(entry.wordLength), key.count)
        let c = key.withUnsafeBufferPointer { memcmp(bytes.baseAddress! + Int(entry.offset), $0.baseAddress!, length) }
        return c != 0 ? Int(c) : Int(entry.wordLength) - key.count
    }

    /// Parses dictionary lines into packed pronunciations (words lower-cased).
    static func parse(_ bytes: some Collection<UInt8>) -> PackedPronunciations {
        var result = PackedPronunciations()
        for line in bytes.split(separator: 10) where line.first != 59 /* ; comment */ {
            let fields = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard fields.count >= 2 else { continue }
            var word = fields[0].lowercased()
            if word.hasSuffix(")"), let open = word.lastIndex(of: "(") { word = String(word[..<open]) }
            result.append(word, fields.dropFirst())
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
    private var chains: [String: (first: Int32, last: Int32)] = [:]

    var wordCount: Int { chains.count }
    /// The words, in no order.
    var words: Dictionary<String, (first: Int32, last: Int32)>.Keys { chains.keys }

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
        if let existing = chains[word] {
            withUnsafeBytes(of: offset.littleEndian) { storage.replaceSubrange(Int(existing.last)..<Int(existing.last) + 4, with: $0) }
            chains[word] = (existing.first, offset)
        } else {
            chains[word] = (offset, offset)
        }
    }

    func variants(of word: String) -> [[String]]? {
        guard let chain = chains[word] else { return nil }
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
