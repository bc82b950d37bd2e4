import CPocketSphinx
import Foundation
@testable import HarkRecognition
import Testing

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let pruned = repository.appendingPathComponent("models/dictation/language-model.lm.bin").path

/// A sphinxbase hash table of string keys, the keys owned here.
private final class Table {
    let table: UnsafeMutablePointer<hash_table_t>
    private var keys: [UnsafeMutablePointer<CChar>] = []
    init(expecting size: Int32, nocase: Bool) {
        table = hash_table_new(size, nocase ? 1 : 0)
    }
    deinit {
        hash_table_free(table)
        keys.forEach { free($0) }
    }
    /// Enters `key` with `value` (not 0); what the table then holds for it.
    @discardableResult
    func enter(_ key: String, _ value: Int) -> Int {
        let owned = strdup(key)!
        keys.append(owned)
        return Int(bitPattern: hash_table_enter(table, owned, UnsafeMutableRawPointer(bitPattern: value)))
    }
    func lookup(_ key: String) -> Int? {
        var value: UnsafeMutableRawPointer?
        return hash_table_lookup(table, key, &value) == 0 ? Int(bitPattern: value) : nil
    }
}

/// sphinxbase's tables of word ids by spelling rebuilt a quarter the size,
/// every key found as before, sphinxbase still adding to them.
@Suite struct HashTablesTests {
    @Test func tightenedTableFindsEveryKeyAndTakesNewOnes() {
        let t = Table(expecting: 20_000, nocase: false)
        let words = (0..<20_000).map { "w\($0)-\(String(UnicodeScalar(UInt8(97 + $0 % 26))))" }
        for (i, w) in words.enumerated() { t.enter(w, i + 1) }
        let before = Int(t.table.pointee.size)
        #expect(before >= 30_000, "sphinxbase sizes for half again the keys expected")

        #expect(HashTables.tighten(t.table))
        let after = Int(t.table.pointee.size)
        #expect(after == HashTables.prime(atLeast: (20_000 + 4_096) / 4))
        #expect(Int(t.table.pointee.inuse) == 20_000)
        #expect(words.enumerated().allSatisfy { t.lookup($1) == $0 + 1 })
        #expect(t.lookup("w20000-a") == nil)

        // Entering an existing key gives its value back; new keys go in and are found.
        #expect(t.enter(words[7], 99) == 8)
        for i in 0..<1_000 { t.enter("new\(i)", 100_000 + i) }
        #expect((0..<1_000).allSatisfy { t.lookup("new\($0)") == 100_000 + $0 })
        #expect(words.enumerated().allSatisfy { t.lookup($1) == $0 + 1 })
        // As small already: left alone.
        #expect(!HashTables.tighten(t.table, keysPerBucket: 1, growth: 0))
    }

    @Test func caseFoldingTableStillFoldsCase() {
        let t = Table(expecting: 4_000, nocase: true)
        for i in 0..<4_000 { t.enter("Bobo\(i)zZ", i + 1) }
        #expect(HashTables.tighten(t.table))
        #expect(t.lookup("BOBO17ZZ") == 18)
        #expect(t.lookup("bobo3999zz") == 4_000)
        // Entered after: characters past ASCII hash as sphinxbase hashes
        // them, and only ASCII letters fold.
        t.enter("café", 5_000)
        #expect(t.lookup("CAF\u{00E9}") == 5_000)
        #expect(t.lookup("CAF\u{00C9}") == nil)
    }

    @Test func bucketsAreSphinxbases() {
        // Keys sphinxbase itself placed, each found in the bucket computed here.
        for nocase in [false, true] {
            let t = Table(expecting: 1_000, nocase: nocase)
            let keys = ["hello", "MonkeyChat", "naïve", "a", "<s>", "bobo(2)", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"]
            for (i, k) in keys.enumerated() { t.enter(k, i + 1) }
            let size = Int(t.table.pointee.size)
            for (i, k) in keys.enumerated() {
                let bucket = k.withCString { HashTables.bucket(of: $0, nocase: nocase, size: size) }
                var found = false
                var entry: UnsafeMutablePointer<hash_entry_t>? = t.table.pointee.table! + bucket
                while let e = entry, e.pointee.key != nil {
                    if Int(bitPattern: e.pointee.val) == i + 1 { found = true }
                    entry = e.pointee.next
                }
                #expect(found, "\(k) in bucket \(bucket) of \(size)")
            }
        }
    }

    @Test func binaryKeysAreLeftAlone() {
        let t = Table(expecting: 1_000, nocase: false)
        var keys: [[CChar]] = []
        for i in 0..<2_000 {
            keys.append([CChar(truncatingIfNeeded: i), 0, CChar(truncatingIfNeeded: i >> 8), 1])
        }
        for (i, key) in keys.enumerated() {
            key.withUnsafeBufferPointer { _ = hash_table_enter_bkey(t.table, $0.baseAddress, 4, UnsafeMutableRawPointer(bitPattern: i + 1)) }
        }
        let size = t.table.pointee.size
        #expect(!HashTables.tighten(t.table))
        #expect(t.table.pointee.size == size)
    }

    /// The grammar pass's dictionary starts small and takes the grammar's
    /// words later: its table keeps the room sphinxbase gave it, and the
    /// words added are found.
    @Test func smallDictionaryKeepsItsRoom() throws {
        let model = try AcousticModel()
        let dictionary = try InMemoryFile(named: "small", contents: "sil SIL\nbananas B AH N AE N AH Z\n")
        let decoder = try PocketSphinxDecoder.makeDecoder(["-hmm": model.acousticModel, "-dict": dictionary.path], modelPath: model.acousticModel)
        defer { ps_free(decoder) }
        let table = try #require(HashTables.dictionaryTable(of: decoder))
        #expect(Int(table.pointee.inuse) < HashTables.minimumKeys)
        #expect(Int(table.pointee.size) > 4_096, "room for the dictionary to grow by")
        #expect(HashTables.tightenWordTables(of: decoder) == 0)
        for i in 0..<3_000 { ps_add_word(decoder, "word\(i)", "W ER D", 0) }
        #expect(Int(table.pointee.size) > 4_096)
        #expect((0..<3_000).allSatisfy { i in
            guard let phones = ps_lookup_word(decoder, "word\(i)") else { return false }
            free(phones)
            return true
        })
    }

    /// A decoder as Hark makes it: its dictionary's and n-gram model's
    /// tables are tightened, and every word is found under its id.
    @Test func decoderWordTablesAreTightAndWhole() throws {
        try #require(FileManager.default.fileExists(atPath: pruned), "no \(pruned): scripts/setup.sh runs scripts/prune-lm.py")
        let model = try AcousticModel()
        let decoder = try PocketSphinxDecoder.makeDecoder(["-hmm": model.acousticModel, "-dict": model.dictionary, "-lm": pruned],
                                                          modelPath: model.acousticModel)
        defer { ps_free(decoder) }
        let dictionary = try #require(HashTables.dictionaryTable(of: decoder))
        let words = Int(dictionary.pointee.inuse)
        #expect(words > 100_000)
        #expect(Int(dictionary.pointee.size) <= (words + 4_096) / 4 + 100)
        let d = UnsafeMutableRawPointer(decoder).assumingMemoryBound(to: hark_ps_decoder_t.self).pointee.dict!
        #expect((0..<words).allSatisfy { i in
            var value: UnsafeMutableRawPointer?
            return hash_table_lookup(dictionary, d.pointee.word[i].word, &value) == 0 && Int(bitPattern: value) == i
        })

        let set = try #require(ps_get_lm(decoder, "_default"))
        let lm = try #require(PocketSphinxDecoder.languageModel(of: decoder))
        for model in [set, lm] {
            let table = try #require(HashTables.wordTable(of: model, logmath: ps_get_logmath(decoder)))
            let count = Int(table.pointee.inuse)
            #expect(count > 30_000)
            #expect(Int(table.pointee.size) <= (count + 4_096) / 4 + 100)
            let spellings = UnsafeMutableRawPointer(model).assumingMemoryBound(to: hark_ngram_model_t.self).pointee.word_str!
            #expect((0..<count).allSatisfy { ngram_wid(model, spellings[$0]) == Int32($0) })
        }

        // Words added later go into the tightened tables and are found.
        #expect(ps_add_word(decoder, "bobobanana", "B OW B OW B AH N AE N AH", 1) >= 0)
        let phones = try #require(ps_lookup_word(decoder, "bobobanana"))
        #expect(String(cString: phones) == "B OW B OW B AH N AE N AH")
        free(phones)
        #expect(ngram_wid(set, "bobobanana") != NGRAM_INVALID_WID)
    }
}
