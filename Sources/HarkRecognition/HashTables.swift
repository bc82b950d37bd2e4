import CPocketSphinx
#if canImport(Glibc)
import Glibc
#endif

/// sphinxbase's hash tables, read and rebuilt smaller.
///
/// sphinxbase sizes a table by the number of keys it is told to expect,
/// half again, rounded to a prime (`hash_table_new`), and every bucket is a
/// whole 32-byte entry. The tables of word ids by spelling are large: the
/// n-gram pass's dictionary (34,951 words with 31,000 reading words; with
/// 40,000 it was 44,600: 80,000 buckets, 2.6 MB), its language model and
/// the class set around it (31,002 words each; with 40,000, 60,000 buckets,
/// 1.9 MB each). They are read only when words are looked up by spelling
/// (building a search, adding a word), never while decoding.
/// ``tighten(_:keysPerBucket:growth:)`` rebuilds such a table with a bucket
/// per four keys (and per four of the 4,096 words a dictionary may grow by):
/// the same keys and values, found the same way, in 1.5 MB instead of 2.9
/// for the dictionary. Small tables are left alone: sphinxbase never
/// resizes a table, and the grammar pass's small dictionary takes the
/// grammar's words later. ``chainInOneBucket(_:)`` rebuilds a table that
/// is only walked, never searched (the grammar's transitions, ``FSGBuilder``),
/// as one chain.
enum HashTables {
    /// A table's entries in the order sphinxbase's iterator visits them:
    /// bucket by bucket, each bucket's own entry, then its chain.
    static func entries(of table: UnsafeMutablePointer<hash_table_t>) -> [hash_entry_t] {
        var result: [hash_entry_t] = []
        let buckets = table.pointee.table!
        for bucket in 0..<Int(table.pointee.size) where buckets[bucket].key != nil {
            result.append(buckets[bucket])
            var next = buckets[bucket].next
            while let entry = next {
                result.append(entry.pointee)
                next = entry.pointee.next
            }
        }
        return result
    }

    /// Rebuilds `table`, a table of string keys, with one bucket per
    /// `keysPerBucket` keys, allocated as sphinxbase's `ckd_calloc` does so
    /// that `hash_table_free` frees it, and sphinxbase goes on adding keys
    /// to it as before. Every key is looked up again through sphinxbase
    /// before the old table is freed; any key not found as before, and the
    /// old table is put back. Tables of binary keys, and tables already as
    /// small, are left alone.
    ///
    /// - Returns: whether the table was rebuilt.
    @discardableResult
    static func tighten(_ table: UnsafeMutablePointer<hash_table_t>, keysPerBucket: Int = 4, growth: Int = 4_096) -> Bool {
        let oldSize = Int(table.pointee.size)
        guard let old = table.pointee.table, oldSize > 0, keysPerBucket > 0 else { return false }
        let kept = entries(of: table)
        guard kept.count == Int(table.pointee.inuse) else { return false }
        // Room for words added later (a grammar's, the user's) at the same
        // chain length: as many as sphinxbase gives a dictionary to grow by.
        let size = prime(atLeast: max((kept.count + growth) / keysPerBucket, 1))
        guard size < oldSize else { return false }
        // Only string keys: a binary key's length is its own, not strlen's.
        guard kept.allSatisfy({ entry in entry.key.map { strlen($0) == entry.len } ?? false }) else { return false }
        let nocase = table.pointee.nocase != 0
        let stride = MemoryLayout<hash_entry_t>.stride
        guard let fresh = calloc(size, stride)?.assumingMemoryBound(to: hash_entry_t.self) else { return false }
        // Each bucket's first key sits in the bucket; the others are
        // chained after it, newest first, as `hash_table_enter` chains them.
        for entry in kept {
            let slot = fresh + bucket(of: entry.key!, nocase: nocase, size: size)
            if slot.pointee.key == nil {
                slot.pointee = hash_entry_t(key: entry.key, len: entry.len, val: entry.val, next: nil)
            } else {
                let chained = calloc(1, stride)!.assumingMemoryBound(to: hash_entry_t.self)
                chained.pointee = hash_entry_t(key: entry.key, len: entry.len, val: entry.val, next: slot.pointee.next)
                slot.pointee.next = chained
            }
        }
        table.pointee.table = fresh
        table.pointee.size = Int32(size)
        let same = kept.allSatisfy { entry in
            var value: UnsafeMutableRawPointer?
            return hash_table_lookup(table, entry.key, &value) == 0 && value == entry.val
        }
        if same {
            freeBuckets(old, count: oldSize)
        } else {
            table.pointee.table = old
            table.pointee.size = Int32(oldSize)
            freeBuckets(fresh, count: size)
        }
        return same
    }

    /// Rebuilds `table` with one bucket, its entries chained in the order
    /// sphinxbase's iterator visited them (sphinxbase finds any key in it by
    /// walking the chain), allocated as sphinxbase's `ckd_calloc` does, so
    /// `hash_table_free` frees it.
    static func chainInOneBucket(_ table: UnsafeMutablePointer<hash_table_t>) {
        guard table.pointee.size > 1 else { return }
        let kept = entries(of: table)
        freeBuckets(table.pointee.table!, count: Int(table.pointee.size))
        let stride = MemoryLayout<hash_entry_t>.stride
        let head = calloc(1, stride)!.assumingMemoryBound(to: hash_entry_t.self)
        var last = head
        for (i, entry) in kept.enumerated() {
            let slot = i == 0 ? head : calloc(1, stride)!.assumingMemoryBound(to: hash_entry_t.self)
            slot.pointee = hash_entry_t(key: entry.key, len: entry.len, val: entry.val, next: nil)
            if i > 0 { last.pointee.next = slot }
            last = slot
        }
        table.pointee.table = head
        table.pointee.size = 1
    }

    /// Frees a bucket array and the entries chained from it, as
    /// `hash_table_free` does (not the keys or values: they are the table
    /// owner's).
    private static func freeBuckets(_ buckets: UnsafeMutablePointer<hash_entry_t>, count: Int) {
        for i in 0..<count {
            var next = buckets[i].next
            while let entry = next {
                next = entry.pointee.next
                free(entry)
            }
        }
        free(buckets)
    }

    /// The bucket sphinxbase's `key2hash` (hash_table.c) puts `key` in, in a
    /// table of `size` buckets.
    static func bucket(of key: UnsafePointer<CChar>, nocase: Bool, size: Int) -> Int {
        var hash: UInt32 = 0
        var shift: UInt32 = 0
        var p = key
        while p.pointee != 0 {
            // The characters as C reads them: `unsigned char` when case is
            // folded, the platform's (signed) `char` otherwise.
            let c: Int32
            if nocase {
                var u = UInt8(bitPattern: p.pointee)
                if u >= UInt8(ascii: "a") && u <= UInt8(ascii: "z") { u -= 32 }
                c = Int32(u)
            } else {
                c = Int32(p.pointee)
            }
            hash &+= UInt32(bitPattern: c << Int32(shift))
            shift += 5
            if shift >= 25 { shift -= 24 }
            p += 1
        }
        return Int(hash % UInt32(size))
    }

    /// The smallest prime at least `n`.
    static func prime(atLeast n: Int) -> Int {
        var candidate = max(n, 2)
        while !isPrime(candidate) { candidate += 1 }
        return candidate
    }

    private static func isPrime(_ n: Int) -> Bool {
        guard n >= 2 else { return false }
        var d = 2
        while d * d <= n {
            if n % d == 0 { return false }
            d += 1
        }
        return true
    }
}

extension HashTables {
    /// Tightens `decoder`'s tables of word ids by spelling: its
    /// dictionary's and, with an n-gram model, the model's and the class
    /// set's around it. Tables whose private layout does not check out are
    /// left alone.
    ///
    /// - Returns: how many tables were rebuilt.
    @discardableResult
    static func tightenWordTables(of decoder: OpaquePointer) -> Int {
        var tables: [UnsafeMutablePointer<hash_table_t>] = []
        if let table = dictionaryTable(of: decoder) { tables.append(table) }
        if let set = ps_get_lm(decoder, "_default"), let logmath = ps_get_logmath(decoder) {
            if let table = wordTable(of: set, logmath: logmath) { tables.append(table) }
            if let iterator = ngram_model_set_iter(set) {
                var iterated: OpaquePointer? = iterator
                while let it = iterated {
                    var name: UnsafePointer<CChar>?
                    if let model = ngram_model_set_iter_model(it, &name), let table = wordTable(of: model, logmath: logmath) {
                        tables.append(table)
                    }
                    iterated = ngram_model_set_iter_next(it)
                }
            }
        }
        // Only tables of a whole vocabulary: sphinxbase never resizes a
        // table, and a small dictionary the grammar's words are added to
        // later (the grammar pass's) needs the room it was given.
        return tables.filter { Int($0.pointee.inuse) >= minimumKeys && tighten($0) }.count
    }

    /// The fewest keys a table of word ids must hold to be tightened.
    static let minimumKeys = 16_384

    /// The decoder's dictionary's table of word ids (`dict_t`'s `ht`), if
    /// the private layout holds: the dictionary is the decoder's, over its
    /// acoustic model's phones, holds as many words as the table, and the
    /// words sampled are found in it under their own ids.
    static func dictionaryTable(of decoder: OpaquePointer) -> UnsafeMutablePointer<hash_table_t>? {
        let d = UnsafeMutableRawPointer(decoder).assumingMemoryBound(to: hark_ps_decoder_t.self)
        guard let config = ps_get_config(decoder), d.pointee.config == config,
              let acmod = d.pointee.acmod, acmod.pointee.config == config, acmod.pointee.lmath == ps_get_logmath(decoder),
              let dict = d.pointee.dict, dict.pointee.refcnt > 0, dict.pointee.mdef == acmod.pointee.mdef,
              let words = dict.pointee.word, let table = dict.pointee.ht,
              dict.pointee.n_word > 0, dict.pointee.n_word <= dict.pointee.max_words,
              table.pointee.inuse == dict.pointee.n_word, table.pointee.size > 0
        else { return nil }
        return findsSampledIds(in: table, count: Int(dict.pointee.n_word), spelling: { words[$0].word }) { word, _ in
            guard let phones = ps_lookup_word(decoder, word) else { return false }
            free(phones)
            return true
        } ? table : nil
    }

    /// An n-gram model's (or class set's) table of word ids
    /// (`ngram_model_t`'s `wid`), if the private layout holds: the fields
    /// reached agree with the public API, the table holds every word, and
    /// the words sampled are found in it under their own ids.
    static func wordTable(of model: OpaquePointer, logmath: OpaquePointer) -> UnsafeMutablePointer<hash_table_t>? {
        let m = UnsafeMutableRawPointer(model).assumingMemoryBound(to: hark_ngram_model_t.self)
        guard m.pointee.refcount > 0, let counts = ngram_model_get_counts(model), m.pointee.n_counts == counts,
              Int32(m.pointee.n) == ngram_model_get_size(model), m.pointee.lmath == logmath,
              let spellings = m.pointee.word_str, let table = m.pointee.wid,
              m.pointee.n_words > 0, table.pointee.inuse == m.pointee.n_words, table.pointee.size > 0
        else { return nil }
        return findsSampledIds(in: table, count: Int(m.pointee.n_words), spelling: { spellings[$0] }) { word, id in
            ngram_wid(model, word) == Int32(id)
        } ? table : nil
    }

    /// Whether every sixteenth of the `count` words (by id) is found in
    /// `table` under its own id, and the public API agrees (`alsoKnown`).
    private static func findsSampledIds(in table: UnsafeMutablePointer<hash_table_t>, count: Int,
                                        spelling: (Int) -> UnsafeMutablePointer<CChar>?,
                                        alsoKnown: (UnsafeMutablePointer<CChar>, Int) -> Bool) -> Bool {
        stride(from: 0, to: count, by: max(1, count / 16)).allSatisfy { i in
            guard let word = spelling(i) else { return false }
            var value: UnsafeMutableRawPointer?
            return hash_table_lookup(table, word, &value) == 0 && Int(bitPattern: value) == i && alsoKnown(word, i)
        }
    }
}
