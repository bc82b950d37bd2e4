#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A model file pocketsphinx memory-maps, once per decoder.
///
/// Each decoder maps the acoustic model's definition (`mdef`, 2.9 MB for
/// en-us) on its own, and a page mapped three times counts three times in
/// resident memory. The definition is read through when a decoder is made
/// and when words are added (the triphone tree, the phone table); decoding
/// reads only its senone sequences, a small part of it. ``releasePages()``
/// gives the mapped pages back after those readings (they are clean: a
/// later read brings a page back from the page cache, as a minor fault), so
/// only what decoding reads stays resident.
struct MappedModelFile {
    /// The file's path with symbolic links resolved, as `/proc/self/maps` names it.
    let path: String

    init(_ path: String) {
        self.path = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// Releases every mapping of the file in this process; returns how many
    /// bytes of address space were released.
    @discardableResult
    func releasePages() -> Int {
        guard let maps = Self.read("/proc/self/maps") else { return 0 }
        var released = 0
        // The path ends the line, after the inode and spaces (a file
        // deleted since it was mapped ends in " (deleted)" and is left alone).
        for line in maps.split(separator: "\n") where line.hasSuffix(" " + path) {
            // "start-end perms offset dev inode   path"
            guard let range = line.split(separator: " ", maxSplits: 1).first else { continue }
            let bounds = range.split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start,
                  let base = UnsafeMutableRawPointer(bitPattern: start) else { continue }
            if madvise(base, Int(end - start), MADV_DONTNEED) == 0 { released += Int(end - start) }
        }
        return released
    }

    /// A file of `/proc` read to its end (`String(contentsOfFile:)` reads
    /// one page of it: the length `stat` gives a `/proc` file is zero).
    static func read(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        } catch {
            return nil
        }
    }
}

extension AcousticModel {
    /// The model definition every decoder maps (see ``MappedModelFile``).
    var definitionFile: MappedModelFile {
        MappedModelFile(URL(fileURLWithPath: acousticModel).appendingPathComponent("mdef").path)
    }
}

/// Pages of memory given back to the system.
enum MemoryPages {
    /// Gives back the whole pages inside `bytes` bytes at `pointer` (a heap
    /// buffer: its first and last partial pages may hold the allocator's
    /// bookkeeping or other blocks and are left alone; or a private mapping
    /// of a file, whose clean pages a later read brings back).
    static func release(inside pointer: UnsafeMutableRawPointer, bytes: Int) {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let first = (UInt(bitPattern: pointer) + page - 1) / page * page
        let last = (UInt(bitPattern: pointer) + UInt(bytes)) / page * page
        guard last > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        madvise(start, Int(last - first), MADV_DONTNEED)
    }
}
