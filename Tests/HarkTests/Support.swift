import Foundation
import HarkTestSupport
import Hark
import HarkEngine
import HarkBench
import HarkRecognition
import HarkSampleApps
import Testing

/// Paths of the checkout the tests run in.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let models = root.appendingPathComponent("models").path
    static let fixtures = root.appendingPathComponent("audio-fixtures")

    /// The `hark` executable built beside the test bundle.
    static var hark: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hark").path
    }
}

/// A fresh temporary folder.
func temporaryDirectory(_ name: String = #function) throws -> URL {
    try Scratch.directory(name)
}

/// 0.4 s of loud white noise at 16 kHz, about as loud as speech: a pan
/// dropped. The same `seed` gives the same samples.
func clatter(seed: UInt32) -> [Int16] {
    var state = seed
    return (0..<6_400).map { _ -> Int16 in
        state = state &* 1_664_525 &+ 1_013_904_223
        return Int16(truncatingIfNeeded: Int32(state >> 16) - 32_768) / 6
    }
}

/// One line of `audio-fixtures/manifest.jsonl`.
struct Fixture: Decodable, Sendable, CustomTestStringConvertible {
    var audio: String
    var text: String
    var app: String?
    var intent: String?
    var slots: [String: String]
    var conversation: String?
    var turn: Int?
    var code: String?
    /// "core" (MonkeyChat in the four original voices: what these tests
    /// replay one by one), "domains", "seeds" or "out-of-grammar" (scored
    /// as a whole by `hark bench` in `make test`).
    var set: String?

    var path: String { Repo.fixtures.appendingPathComponent(audio).path }
    var testDescription: String { audio }

    static let all: [Fixture] = {
        let url = Repo.fixtures.appendingPathComponent("manifest.jsonl")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Fixture.self, from: Data($0.utf8)) }
    }()

    static var core: [Fixture] { all.filter { $0.set == "core" } }
    static var singleTurn: [Fixture] { core.filter { $0.conversation == nil } }
    static var conversations: [[Fixture]] {
        Dictionary(grouping: core.filter { $0.conversation != nil }, by: { $0.conversation! })
            .values.map { $0.sorted { $0.turn! < $1.turn! } }.sorted { $0[0].audio < $1[0].audio }
    }
}

/// One decoder per test process: loading the acoustic model is the slow part.
let sharedDecoder: PocketSphinxDecoder = {
    try! PocketSphinxDecoder(model: AcousticModel())
}()

/// Time limits for assistants in tests that are not about time: the suite
/// runs in parallel on two cores, and a scheduler seconds late must not turn
/// an answer into "still working on it".
let patient = EngineConfiguration(progressBudget: .seconds(60), timeout: .seconds(120))

func makeAssistant(recognizer: Bool = true) throws -> Assistant {
    try makeAssistant(decoder: recognizer ? sharedDecoder : nil)
}

/// An assistant for the sample apps hearing through `decoder`.
func makeAssistant(decoder: PocketSphinxDecoder?) throws -> Assistant {
    try SampleApps.assistant(modelsDirectory: Repo.models, dataDirectory: try temporaryDirectory(),
                             decoder: decoder, configuration: patient)
}

/// Runs the `hark` executable, with `stdin` (a file path) as its standard
/// input when given; returns exit status, stdout and stderr.
func runHark(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> (status: Int32, out: String, err: String) {
    var env = ProcessInfo.processInfo.environment
    env["HARK_DATA_DIR"] = try temporaryDirectory("cli").path
    for (k, v) in environment { env[k] = v }
    let result = try ProcessRunner.run(Repo.hark, arguments, currentDirectory: Repo.root, environment: env, inputFile: stdin)
    return (result.status, result.out, result.err)
}

/// Runs a command-line tool the tests use to make inputs (sox).
func run(_ tool: String, _ arguments: [String]) throws {
    let result = try ProcessRunner.run(tool, arguments)
    #expect(result.status == 0, "\(tool) \(arguments.joined(separator: " ")) failed: \(result.err)")
}

/// Word error rate of `hypothesis` against `reference`.
func wordErrorRate(_ reference: String, _ hypothesis: String) -> Double {
    let r = WordErrorRate.words(reference)
    return Double(WordErrorRate.edits(r, WordErrorRate.words(hypothesis))) / Double(max(1, r.count))
}

/// Speech synthesised at test time with flite voices the fixtures do not use.
func flite(_ text: String, voice: String = "kal16") throws -> [Int16] {
    let wav = try temporaryDirectory("flite").appendingPathComponent("utterance.wav")
    try run("/usr/bin/flite", ["-voice", voice, "-t", text, "-o", wav.path])
    return try TurnAudio.read(path: wav.path)
}
