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
    /// file's bytes with a sorted index 4 MiB, as the file mapped with the
    /// index 1 MiB.
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
        guard let bytes = FileBytes(mapping: path) else {
            throw RecognitionError("cannot read pronunciation dictionary '\(path)' (install pocketsphinx-en-us or pass --model DIR)")
        }
        let (indexed, others) = IndexedDictionary.read(bytes)
        file = indexed
        packed = others
        letterToSound = .shared
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

    /// Gives back the pages of the dictionary file that lookups have read.
    ///
    /// The file is mapped, and a lookup's binary search reads a page here
    /// and there, but each page read brings its neighbours with it (the
    /// kernel maps 64 KiB around a fault): the few hundred words of a
    /// grammar brought the whole 3 MiB back. Called once a grammar's words
    /// are looked up, it keeps them out of the decoder's peak.
    public func releaseFilePages() { file.releasePages() }

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
/// line itself. 135,000 entries cost 1 MiB of index and the few pages of
/// the file a lookup reads (the file is mapped, not read: see
/// ``FileBytes``), where a Swift dictionary of them cost 10 MiB.
struct IndexedDictionary: Sendable {
    /// One entry: where its line starts and how long its word is (without a `(2)` mark).
    struct Entry: Sendable {
        var offset: UInt32
        var wordLength: UInt16
    }

    private var bytes = FileBytes()
    /// Sorted by word, then by place in the file (so variants keep their order).
    private var entries: [Entry] = []
    private(set) var wordCount = 0

    /// Indexes a file's bytes (words lower-cased); lines whose word is not
    /// ASCII (or is longer than 64 KiB) are returned parsed instead. The
    /// file's pages are given back once indexed: lookups read the few they
    /// need again.
    static func read(_ file: FileBytes) -> (IndexedDictionary, PackedPronunciations) {
        defer { file.releasePages() }
        guard file.count < Int(UInt32.max) else {
            // Past what the index addresses (the model's is 3 MiB): parsed whole.
            return (IndexedDictionary(), file.withUnsafeBufferPointer { parse($0) })
        }
        var entries: [Entry] = []
        var others: [Range<Int>] = []
        var upperCase = false
        entries.reserveCapacity(file.count / 26)
        file.withUnsafeBufferPointer { bytes in
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
                    if (65...90).contains(bytes[fieldEnd]) { upperCase = true }
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
        if upperCase {
            // The mapping is read-only: a copy, its ASCII lower-cased (CMU's
            // file has no upper case; a hand-written one may).
            return read(FileBytes(copying: file.withUnsafeBufferPointer(lowercasingWords)))
        }
        var index = IndexedDictionary()
        index.bytes = file
        let inOrder = zip(entries, entries.dropFirst()).allSatisfy { index.order($0, $1) }
        if !inOrder { entries.sort(by: index.order) }
        var words = 0
        for i in entries.indices where i == 0 || index.compare(entries[i - 1], entries[i]) != 0 { words += 1 }
        // Exactly as long as needed: grown, it had twice the room.
        index.entries = entries.withUnsafeBufferPointer { Array($0) }
        index.wordCount = words
        var lines: [UInt8] = []
        file.withUnsafeBufferPointer { bytes in
            for line in others { lines += bytes[line] + [10] }
        }
        return (index, parse(lines))
    }

    /// Dictionary lines with each line's word (up to the first space) in
    /// lower case, its phones as they were.
    private static func lowercasingWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var result = Array(bytes)
        var inWord = true
        for i in result.indices {
            let byte = result[i]
            if byte == 10 {
                inWord = true
            } else if isSpace(byte) {
                inWord = false
            } else if inWord, (65...90).contains(byte) {
                result[i] = byte + 32
            }
        }
        return result
    }

    /// See ``Lexicon/releaseFilePages()``.
    func releasePages() { bytes.releasePages() }

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

/// A file's bytes, mapped read-only (or none).
///
/// Mapped, a page the reader has not touched costs no memory, and one read
/// long ago can be given back (``releasePages()``) and read again from the
/// page cache when needed: the pronunciation dictionary's 3 MiB are read
/// once whole to be indexed, then a few pages per word looked up. The
/// mapping is private, so the file being replaced (as a package upgrade
/// does, by renaming) does not change what is read.
final class FileBytes: @unchecked Sendable {
    // Immutable after init: safe to share between threads.
    private let base: UnsafeRawPointer?
    let count: Int
    /// Mapped (else allocated).
    private let mapped: Bool

    /// No bytes.
    init() {
        base = nil
        count = 0
        mapped = false
    }

    /// Maps the file at `path`; nil when it cannot be opened, is not a
    /// regular file, or is over 64 MiB (the model's dictionary is 3 MiB).
    init?(mapping path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              status.st_size >= 0, status.st_size <= 64 << 20 else { return nil }
        count = Int(status.st_size)
        mapped = true
        guard count > 0 else {
            base = nil
            return
        }
        let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { return nil }
        base = UnsafeRawPointer(address)
    }

    /// Bytes in memory (not mapped: ``releasePages()`` does nothing).
    init(copying bytes: [UInt8]) {
        let n = bytes.count
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(n, 1), alignment: 1)
        bytes.withUnsafeBytes { if let from = $0.baseAddress { copy.copyMemory(from: from, byteCount: n) } }
        count = n
        base = UnsafeRawPointer(copy)
        mapped = false
    }

    deinit {
        guard let base else { return }
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            base.deallocate()
        }
    }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base?.assumingMemoryBound(to: UInt8.self), count: base == nil ? 0 : count))
    }

    /// Gives the pages read so far back to the system (they are clean:
    /// the next read of one brings it back from the page cache).
    func releasePages() {
        if let base, mapped { madvise(UnsafeMutableRawPointer(mutating: base), count, MADV_DONTNEED) }
    }
}
