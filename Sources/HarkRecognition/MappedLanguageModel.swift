import CPocketSphinx
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The n-gram pass's bigrams and trigrams read from a mapping of the model's
/// file, one for the whole process, instead of from sphinxbase's copy of
/// them in each decoder.
///
/// sphinxbase reads a binary (trie) model's n-grams into one buffer of the
/// heap: 15.3 MB for the pruned model, in every n-gram pass — `hark serve`
/// keeps one per decoder of its pool, `hark bench` one per worker. Pointing
/// the trie's tables at a private mapping of the same bytes of the file, the
/// passes read one copy (clean pages of the page cache, which the system can
/// take back and read again), and each copy's pages go back to the system.
/// One pass alone gains little: reading free text looks up n-grams all over
/// the tables, so most pages come back (`hark listen` peaks the same), and
/// the copy was in memory while the model was read.
///
/// The structures reached are private to sphinxbase 5prealpha (the `hark_*`
/// n-gram mirrors in the `CPocketSphinx` shim). Each is checked against the
/// public API first, and the copy is found in the file and compared with it
/// byte for byte: any mismatch, and the model keeps its own copy.
///
/// Nothing is changed for sphinxbase to free: the trie still owns its
/// buffer (`lm_trie_free` frees it); only its tables read elsewhere. The
/// mapping must outlive the model: ``unmap()`` after the decoder is freed.
struct MappedLanguageModel: @unchecked Sendable {
    private let mapping: UnsafeMutableRawPointer
    /// Where in the mapping the n-grams are.
    private let ngrams: UnsafeMutableRawPointer
    /// Bytes of n-grams now read from the file rather than the heap.
    let bytes: Int
    /// Where in the mapping the quantisation tables are, if they are read from it.
    private let quantisation: UnsafeMutableRawPointer?
    /// Bytes of the quantisation tables (the values the n-grams' bits
    /// index: 768 KB for a trigram model) read from the file, or 0.
    let quantisationBytes: Int
    /// Where the file is mapped (one mapping per file in the process).
    var address: UInt { UInt(bitPattern: mapping) }

    /// Maps the n-grams of `decoder`'s n-gram model from `path`, the file it
    /// was read from; nil, with nothing changed, unless the model is a
    /// sphinxbase 5prealpha trie laid out as expected whose n-grams are
    /// exactly a run of the file's bytes.
    static func map(_ decoder: OpaquePointer, file path: String) -> MappedLanguageModel? {
        guard let model = PocketSphinxDecoder.languageModel(of: decoder), let logmath = ps_get_logmath(decoder) else { return nil }
        return map(model, logmath: logmath, file: path)
    }

    /// Maps the n-grams of `model`, read from `path` with `logmath` (a
    /// model of no decoder's n-gram search: the phone pass's).
    static func map(_ model: OpaquePointer, logmath: OpaquePointer, file path: String) -> MappedLanguageModel? {
        guard let trie = trie(of: model, logmath: logmath),
              let memory = trie.pointee.ngram_mem, trie.pointee.ngram_mem_size > 0 else { return nil }
        let size = trie.pointee.ngram_mem_size
        let start = UInt(bitPattern: memory), end = start + UInt(size)
        // Every table the lookups read lies inside the copy.
        var tables: [UnsafeMutablePointer<hark_lm_trie_base_t>] = []
        // `trie(of:)` checked that there is one middle table per order between 2 and n-1.
        if let begin = trie.pointee.middle_begin, let last = trie.pointee.middle_end {
            for i in 0..<(last - begin) { tables.append(UnsafeMutableRawPointer(begin + i).assumingMemoryBound(to: hark_lm_trie_base_t.self)) }
        }
        if let longest = trie.pointee.longest { tables.append(UnsafeMutableRawPointer(longest).assumingMemoryBound(to: hark_lm_trie_base_t.self)) }
        guard !tables.isEmpty, tables.allSatisfy({ table in
            table.pointee.base.map { UInt(bitPattern: $0) >= start && UInt(bitPattern: $0) < end } ?? false
        }) else { return nil }

        guard let (mapped, length) = FileMapping.acquire(path, atLeast: size) else { return nil }
        // Where the copy sits in the file: sphinxbase read it in one piece
        // after the quantisation tables and unigrams; found by its first
        // bytes, then compared whole. Lookups read up to 8 bytes past a
        // table's last bit, which the file must also have.
        guard let found = find(memory, bytes: min(size, 4_096), in: mapped, length: length) else {
            FileMapping.release(mapped)
            return nil
        }
        let offset = mapped.distance(to: found)
        MemoryPages.release(inside: mapped, bytes: offset)
        guard offset + size + 8 <= length, sameBytes(found, memory, size) else {
            FileMapping.release(mapped)
            return nil
        }
        for table in tables {
            let at = Int(UInt(bitPattern: table.pointee.base!) - start)
            table.pointee.base = found.advanced(by: at).assumingMemoryBound(to: UInt8.self)
        }
        MemoryPages.release(inside: UnsafeMutableRawPointer(memory), bytes: size)
        let quantised = mapQuantisation(trie, in: mapped, length: length)
        return MappedLanguageModel(mapping: mapped, ngrams: found, bytes: size,
                                   quantisation: quantised?.at, quantisationBytes: quantised?.bytes ?? 0)
    }

    /// Points the trie's quantisation tables at their bytes in the mapping
    /// (sphinxbase read them in one piece, each a run of floats) and gives
    /// their copy's pages back; nil, with nothing changed, unless every
    /// table used lies inside the copy and the copy is in the file as it is.
    private static func mapQuantisation(_ trie: UnsafeMutablePointer<hark_lm_trie_t>, in mapped: UnsafeMutableRawPointer,
                                        length: Int) -> (at: UnsafeMutableRawPointer, bytes: Int)? {
        guard let quant = trie.pointee.quant, let memory = quant.pointee.mem, quant.pointee.mem_size > 0,
              let begin = trie.pointee.middle_begin, let end = trie.pointee.middle_end else { return nil }
        // The mirror holds the tables of orders up to sphinxbase's 5.
        let order = (end - begin) + 2
        guard order >= 2, order <= 5 else { return nil }
        let size = quant.pointee.mem_size
        let start = UInt(bitPattern: memory), stop = start + UInt(size)
        // The tables read: a probability and a back-off table per middle
        // order, a probability table for the longest (quant.longest).
        let longest = withUnsafeMutablePointer(to: &quant.pointee.tables) {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: hark_bins_t.self) + (order - 2) * 2
        }
        guard quant.pointee.longest == longest else { return nil }
        var bins: [UnsafeMutablePointer<hark_bins_t>] = [longest]
        for i in 0..<(order - 2) { bins += [longest - (order - 2 - i) * 2, longest - (order - 2 - i) * 2 + 1] }
        guard bins.allSatisfy({ b in
            guard let first = b.pointee.begin, let last = b.pointee.end else { return false }
            let (f, l) = (UInt(bitPattern: first), UInt(bitPattern: last))
            return f >= start && f < l && l <= stop
        }) else { return nil }
        guard let found = find(memory, bytes: min(size, 4_096), in: mapped, length: length) else { return nil }
        MemoryPages.release(inside: mapped, bytes: mapped.distance(to: found))
        guard mapped.distance(to: found) + size <= length, sameBytes(found, memory, size) else { return nil }
        for b in bins {
            let offset = Int(UInt(bitPattern: b.pointee.begin!) - start), count = b.pointee.end! - UnsafePointer(b.pointee.begin!)
            let moved = found.advanced(by: offset).assumingMemoryBound(to: Float.self)
            b.pointee.begin = moved
            b.pointee.end = UnsafePointer(moved + count)
        }
        MemoryPages.release(inside: UnsafeMutableRawPointer(memory), bytes: size)
        return (found, size)
    }

    /// Whether the `size` bytes at `found` in the mapping are those of the
    /// copy at `memory`: compared a megabyte at a time, each given back once
    /// read (reading a whole file through the mapping would keep it all
    /// resident beside the copy, a peak of its own).
    private static func sameBytes(_ found: UnsafeMutableRawPointer, _ memory: UnsafeRawPointer, _ size: Int) -> Bool {
        let chunk = 1 << 20
        var compared = 0
        while compared < size {
            let n = min(chunk, size - compared)
            let same = memcmp(found + compared, memory + compared, n) == 0
            MemoryPages.release(inside: found + compared, bytes: n)
            guard same else { return false }
            compared += n
        }
        return true
    }

    /// Gives the pages of the n-grams read so far back to the system (the
    /// file's clean pages, read again from the page cache when next looked
    /// up): for a model whose answers are cached (``NGramScoreCache``), and
    /// for every model once an utterance is read
    /// (``PocketSphinxDecoder/State/releaseLanguageModelPages()``).
    func releasePages() {
        MemoryPages.release(inside: ngrams, bytes: bytes)
        if let quantisation { MemoryPages.release(inside: quantisation, bytes: quantisationBytes) }
    }

    /// Lets go of the mapping: only once the model that reads it is freed.
    func unmap() {
        FileMapping.release(mapping)
    }

    /// `model`'s trie, if the private layout holds: the fields reached agree
    /// with what the public API says of the model.
    private static func trie(of model: OpaquePointer, logmath: OpaquePointer) -> UnsafeMutablePointer<hark_lm_trie_t>? {
        let m = UnsafeMutableRawPointer(model).assumingMemoryBound(to: hark_ngram_model_trie_t.self)
        guard let counts = ngram_model_get_counts(model), m.pointee.base.n_counts == counts,
              Int32(m.pointee.base.n) == ngram_model_get_size(model), m.pointee.base.n >= 2, m.pointee.base.n <= 6,
              m.pointee.base.lmath == logmath,
              m.pointee.base.funcs != nil,
              let trie = m.pointee.trie, trie.pointee.unigrams != nil
        else { return nil }
        // One middle table per order between 2 and n-1.
        guard let begin = trie.pointee.middle_begin, let end = trie.pointee.middle_end,
              end - begin == Int(m.pointee.base.n) - 2 else { return nil }
        return trie
    }

    /// Where the `bytes` bytes at `needle` first occur in `length` bytes at `haystack`.
    private static func find(_ needle: UnsafeRawPointer, bytes: Int, in haystack: UnsafeMutableRawPointer, length: Int) -> UnsafeMutableRawPointer? {
        let first = Int32(needle.load(as: UInt8.self))
        var at = 0
        while at + bytes <= length {
            guard let hit = memchr(haystack + at, first, length - bytes - at + 1) else { return nil }
            if memcmp(hit, needle, bytes) == 0 { return hit }
            at = haystack.distance(to: hit) + 1
        }
        return nil
    }
}

/// One private mapping per file for the whole process, shared by every
/// decoder that reads it (a page mapped twice is resident twice): the
/// n-gram passes of `hark bench`'s workers, of `hark serve`'s sessions.
private enum FileMapping {
    private struct Key: Hashable {
        var device: UInt, inode: UInt, size: Int, modified: Int
    }
    private struct Entry {
        var key: Key
        var users: Int
    }
    /// Each mapping's address (as an integer: the pointer is not Sendable) and entry.
    private static let entries = Mutex<[UInt: Entry]>([:])

    /// The file at `path` mapped (private, readable and writable: a write
    /// would copy the page rather than fault), if it is longer than `size`.
    static func acquire(_ path: String, atLeast size: Int) -> (UnsafeMutableRawPointer, Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > size else { return nil }
        let key = Key(device: UInt(info.st_dev), inode: UInt(info.st_ino), size: Int(info.st_size),
                      modified: Int(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtim.tv_nsec))
        let address: UInt? = entries.withLock { entries in
            if let (address, _) = entries.first(where: { $0.value.key == key }) {
                entries[address]!.users += 1
                return address
            }
            guard let mapped = mmap(nil, key.size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else { return nil }
            entries[UInt(bitPattern: mapped)] = Entry(key: key, users: 1)
            return UInt(bitPattern: mapped)
        }
        return address.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }.map { ($0, key.size) }
    }

    /// One user fewer of the mapping at `pointer`; unmapped after the last.
    static func release(_ pointer: UnsafeMutableRawPointer) {
        entries.withLock { entries in
            let address = UInt(bitPattern: pointer)
            guard var entry = entries[address] else { return }
            entry.users -= 1
            if entry.users > 0 {
                entries[address] = entry
            } else {
                entries[address] = nil
                munmap(pointer, entry.key.size)
            }
        }
    }
}
