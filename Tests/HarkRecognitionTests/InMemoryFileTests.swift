import CPocketSphinx
import Foundation
@testable import HarkRecognition
import Testing

/// The dictionaries pocketsphinx starts from are anonymous files in memory,
/// so that a process killed while it makes a decoder leaves nothing in the
/// temporary folder.
@Suite struct InMemoryFileTests {
    @Test func holdsTheTextOutsideTheFileSystem() throws {
        let leftovers = { (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))?
            .filter { $0.hasPrefix("hark-probe-\(getpid())-") } ?? [] }
        var file: InMemoryFile? = try InMemoryFile(named: "probe", contents: "sil SIL\nbobo B OW B OW\n")
        let path = try #require(file?.path)
        #expect(file?.isAnonymous == true)
        #expect(path.hasPrefix("/proc/self/fd/"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "sil SIL\nbobo B OW B OW\n")
        #expect(leftovers().isEmpty)
        var before = stat()
        #expect(stat(path, &before) == 0)
        file = nil
        // Closed with the value: the descriptor is gone, or (reused by
        // another test's file meanwhile) names a different file.
        var after = stat()
        #expect(stat(path, &after) != 0 || after.st_ino != before.st_ino || after.st_dev != before.st_dev)
    }

    @Test func pocketsphinxReadsADictionaryFromIt() throws {
        let model = try AcousticModel()
        let dictionary = try InMemoryFile(named: "probe", contents: "sil SIL\nbobo B OW B OW\n")
        let decoder = try PocketSphinxDecoder.makeDecoder(["-hmm": model.acousticModel, "-dict": dictionary.path], modelPath: model.acousticModel)
        defer { ps_free(decoder) }
        let phones = try #require(ps_lookup_word(decoder, "bobo"))
        defer { free(phones) }
        #expect(String(cString: phones) == "B OW B OW")
        #expect(ps_lookup_word(decoder, "banana") == nil)
    }
}
