import Foundation
import HarkFuzzTargets
import Testing

/// The checkout's Fuzz/ folder.
private let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz")

/// The files of a corpus folder (the seeds, and what fuzzing kept).
private func inputs(_ target: FuzzTarget) -> [URL] {
    let folder = fuzz.appendingPathComponent("corpus").appendingPathComponent(target.rawValue)
    return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}

/// Replays the fuzzers' corpora through the same entry points libFuzzer
/// drives (`scripts/fuzz.sh`), so every input that once crashed or hung
/// Hark, kept in the corpus after its fix, stays fixed in every test run.
@Suite("Fuzzing corpora, replayed")
struct CorpusTests {
    @Test("every corpus input is read without a crash or a hang", arguments: FuzzTarget.allCases)
    func replay(_ target: FuzzTarget) throws {
        let files = inputs(target)
        #expect(files.count >= 3, "Fuzz/corpus/\(target.rawValue) has \(files.count) inputs")
        // The text target reads the checkout's grammars.
        setenv("HARK_MODELS", fuzz.deletingLastPathComponent().appendingPathComponent("models").path, 1)
        for file in files {
            target.run(try Data(contentsOf: file))
        }
    }
}
