import Foundation
@testable import HarkRecognition
import Testing

/// A model file mapped once per decoder gives its pages back
/// (``MappedModelFile/releasePages()``).
@Suite("A mapped model file's pages are given back and read again unchanged")
struct MappedModelFileTests {
    /// Kilobytes of the file at `path` resident in this process, per mapping.
    static func residentKB(of path: String) throws -> [Int] {
        var resident: [Int] = []
        var inFile = false
        for line in try #require(MappedModelFile.read("/proc/self/smaps")).split(separator: "\n") {
            if let first = line.split(separator: " ").first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inFile = line.hasSuffix(path)
            } else if inFile, line.hasPrefix("Rss:") {
                resident.append(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1)
            }
        }
        return resident
    }

    @Test("two mappings of one file, read through, hold nothing resident after release, and read the same again")
    func releasesEveryMapping() throws {
        let size = 1 << 20
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hark-mapped-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        // As pocketsphinx's mmio_file_read maps a model file: read-only, shared.
        let maps = (0..<2).map { _ in mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0)! }
        defer { for m in maps { munmap(m, size) } }
        #expect(maps.allSatisfy { $0 != MAP_FAILED })
        func sum(_ m: UnsafeMutableRawPointer) -> Int {
            let p = m.assumingMemoryBound(to: UInt8.self)
            return stride(from: 0, to: size, by: 97).reduce(0) { $0 &+ Int(p[$1]) &* $1 }
        }
        let expected = stride(from: 0, to: size, by: 97).reduce(0) { $0 &+ Int(bytes[$1]) &* $1 }
        #expect(maps.map(sum) == [expected, expected])

        let file = MappedModelFile(url.path)
        let before = try Self.residentKB(of: file.path)
        #expect(before.count == 2)
        #expect(before.allSatisfy { $0 >= 1024 }, "each mapping read through: \(before) KB")

        #expect(file.releasePages() == 2 * size)
        #expect(try Self.residentKB(of: file.path) == [0, 0])
        #expect(maps.map(sum) == [expected, expected])
        #expect(try Self.residentKB(of: file.path).allSatisfy { $0 >= 1024 })
    }

    @Test("a file mapped nowhere releases nothing")
    func unmappedFile() {
        #expect(MappedModelFile("/nonexistent/hark/mdef").releasePages() == 0)
    }
}
