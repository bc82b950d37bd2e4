import Foundation
import HarkAudio
import Synchronization

/// The peer of `hark bench --baseline pocketsphinx`: Debian's stock
/// `pocketsphinx_batch`, with its default settings, decoding the same audio
/// with the JSGF export of the same grammar (`hark export jsgf`) — what a
/// developer gets from pocketsphinx and the grammar alone.
public struct StockPocketSphinx: Sendable {
    /// The stock tool.
    public var executable: String
    /// The acoustic model folder (`-hmm`).
    public var acousticModel: String
    /// The JSGF grammar and the pronouncing dictionary of its words.
    public var grammar: String
    public var dictionary: String

    public init(executable: String = "/usr/bin/pocketsphinx_batch", acousticModel: String, grammar: String, dictionary: String) {
        self.executable = executable
        self.acousticModel = acousticModel
        self.grammar = grammar
        self.dictionary = dictionary
    }

    /// What the stock decoder made of a batch.
    public struct Output: Sendable {
        /// One transcript per utterance, in order ("" when it heard nothing).
        public var transcripts: [String]
        /// Seconds of decoding (wall clock) per second of speech, as the tool reports it.
        public var realTimeFactor: Double
    }

    /// Decodes each utterance (16 kHz mono samples, as a microphone gives
    /// them: not trimmed), split over `jobs` runs of the tool at once.
    ///
    /// - Throws: ``BenchError`` when the tool is missing, fails, or leaves
    ///   no transcript for an utterance.
    public func decode(_ utterances: [[Int16]], jobs: Int = 1) throws -> Output {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchError("\(executable): not found; the stock baseline needs Debian's 'pocketsphinx' package (apt-get install pocketsphinx)")
        }
        let parts = max(1, min(jobs, utterances.count))
        let chunk = (utterances.count + parts - 1) / max(1, parts)
        let ranges = stride(from: 0, to: utterances.count, by: max(1, chunk)).map { $0..<min(utterances.count, $0 + chunk) }
        let outcomes = Mutex<[Int: Result<Run, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: ranges.count) { i in
            let outcome = Result { try run(Array(utterances[ranges[i]])) }
            outcomes.withLock { $0[i] = outcome }
        }
        var transcripts: [String] = [], speech = 0.0, wall = 0.0
        for i in ranges.indices {
            let run = try outcomes.withLock { $0[i]! }.get()
            transcripts += run.transcripts
            speech += run.speechSeconds
            wall += run.wallSeconds
        }
        return Output(transcripts: transcripts, realTimeFactor: speech > 0 ? wall / speech : 0)
    }

    struct Run {
        var transcripts: [String]
        var speechSeconds: Double
        var wallSeconds: Double
    }

    /// One run of the tool over `utterances`.
    private func run(_ utterances: [[Int16]]) throws -> Run {
        let folder = Scratch.make("stock")
        defer { Scratch.remove(folder) }
        var ids: [String] = []
        for (i, samples) in utterances.enumerated() {
            let id = String(format: "u%06d", i)
            do {
                try WAVWriter.write(PCMAudio(int16: samples, sampleRate: PCMAudio.recognitionRate), to: folder.appendingPathComponent(id + ".wav").path)
            } catch {
                throw BenchError("writing audio for the stock baseline: \(error)")
            }
            ids.append(id)
        }
        let control = folder.appendingPathComponent("batch.ctl"), hypotheses = folder.appendingPathComponent("batch.hyp")
        let log = folder.appendingPathComponent("batch.log")
        try Data((ids.joined(separator: "\n") + "\n").utf8).write(to: control)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-hmm", acousticModel, "-jsgf", grammar, "-dict", dictionary,
                             "-ctl", control.path, "-cepdir", folder.path, "-cepext", ".wav", "-adcin", "yes", "-adchdr", "44",
                             "-hyp", hypotheses.path, "-logfn", log.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let logText = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let last = logText.split(separator: "\n").last { $0.contains("ERROR") } ?? "no log"
            throw BenchError("\(executable) failed (exit \(process.terminationStatus)): \(last)")
        }
        var byID: [String: String] = [:]
        for line in ((try? String(contentsOf: hypotheses, encoding: .utf8)) ?? "").split(separator: "\n") {
            // "words words (u000001 -1234)"
            guard let open = line.lastIndex(of: "("), let id = line[line.index(after: open)...].split(separator: " ").first else { continue }
            byID[String(id)] = line[..<open].trimmingCharacters(in: .whitespaces)
        }
        let transcripts = try ids.map { id -> String in
            guard let text = byID[id] else { throw BenchError("\(executable) left no transcript for utterance \(id)") }
            return text
        }
        let (speech, wall) = Self.totals(log: logText)
        return Run(transcripts: transcripts, speechSeconds: speech, wallSeconds: wall)
    }

    /// Seconds of speech and of wall-clock decoding from the tool's closing
    /// line, "TOTAL 11.34 seconds speech, 2.60 seconds CPU, 2.61 seconds wall".
    static func totals(log: String) -> (speech: Double, wall: Double) {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("TOTAL") && $0.contains("seconds wall") }) else { return (0, 0) }
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        guard numbers.count >= 3 else { return (0, 0) }
        return (numbers[0], numbers[2])
    }
}
