import ArgumentParser
import Foundation
import Hark
import HarkBench
import HarkRecognition

extension HarkCommand {
    /// `hark bench MANIFEST.jsonl` or `hark bench --labels labels.json
    /// --audio-dir DIR`: accuracy and speed on labelled audio.
    struct BenchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Replay labelled audio through the whole pipeline and report accuracy and speed.",
            discussion: """
                Examples:
                  hark bench audio-fixtures/manifest.jsonl --report bench-report
                  hark bench --labels barista-dev/labels.json --audio-dir barista-dev/audio \\
                             --noise barista-dev/kitchen-noise.wav --snr 24,18,12,6 --report bench-report
                With --noise, every utterance is decoded clean and at each SNR (noise mixed as the
                speech-to-intent benchmark defines it, excerpts chosen by a fixed seed); --report then also
                writes accuracy-vs-snr.svg.
                Command acceptance: the intent is right and every labelled slot has exactly the labelled
                value (trimmed); extra slots are not counted against it; no answer is an error.
                """)

        @Argument(help: "A JSON Lines manifest: audio (relative to the manifest), text, app, intent, slots.")
        var manifest: String?

        @Option(help: ArgumentHelp("Labels in the speech-to-intent benchmark's format instead of a manifest: {\"<file>.wav\": {\"intent\": ..., \"slots\": {...}}}.", valueName: "labels.json"))
        var labels: String?

        @Option(help: "Folder of the audio files the labels name (default: the labels' audio/ folder, else their folder).")
        var audioDir: String?

        @Option(help: "Folder to write report.json (and accuracy-vs-snr.svg) into.")
        var report: String?

        @Option(help: "A WAV of noise to mix into every utterance (e.g. barista-dev/kitchen-noise.wav).")
        var noise: String?

        @Option(help: "Signal-to-noise ratios in dB for --noise, comma-separated.")
        var snr: String = "24,18,12,6"

        @Option(help: "Seed choosing the noise excerpts (the same seed mixes the same audio).")
        var seed: UInt64 = 1234

        @Option(help: "Conversations decoded at once, each worker with its own decoder (figures other than timings do not change).")
        var jobs: Int = 1

        @Option(help: ArgumentHelp("A peer decoding the same audio in the same run: 'pocketsphinx' is Debian's stock pocketsphinx_batch with the JSGF export of the same grammar, parsed by Hark's parser.", valueName: "pocketsphinx"))
        var baseline: String?

        @Option(help: "Exit non-zero when clean command acceptance (in %) is below this floor.")
        var minCommandAcceptance: Double?

        @OptionGroup var options: AssistantOptions

        func validate() throws {
            switch (manifest, labels) {
            case (nil, nil): throw ValidationError("give a MANIFEST.jsonl or --labels labels.json")
            case (.some, .some): throw ValidationError("give either a MANIFEST.jsonl or --labels, not both")
            default: break
            }
            if noise != nil, snrs == nil {
                throw ValidationError("--snr takes numbers in dB separated by commas, e.g. 24,18,12,6")
            }
            if let baseline, baseline != "pocketsphinx" {
                throw ValidationError("--baseline takes 'pocketsphinx' (stock pocketsphinx_batch), got '\(baseline)'")
            }
            guard (1...64).contains(jobs) else { throw ValidationError("--jobs takes 1 to 64 workers") }
            if options.dataDir != nil {
                throw ValidationError("hark bench starts every conversation from the apps' initial data in a temporary folder; --data-dir does not apply")
            }
            if audioDir != nil, labels == nil {
                throw ValidationError("--audio-dir goes with --labels (a manifest names its audio relative to itself)")
            }
        }

        func run() async throws {
            bootstrapLogging(verbose: options.verbose)
            try await Self.reportingErrors {
                let utterances: [LabelledUtterance]
                if let labels {
                    utterances = try Labels.load(labels, audioDirectory: audioDir ?? Labels.defaultAudioDirectory(for: labels))
                } else {
                    utterances = try Manifest.load(manifest!)
                }
                let decoders = try (0..<jobs).map { _ in try Wiring.decoder(options) }
                let mixer = try noise.map { try NoiseMixer(noisePath: $0, seed: seed) }
                let conditions: [Double?] = [nil] + (mixer == nil ? [] : snrs!.map(Optional.some))
                var result: BenchReport?
                var bySnr: [BenchReport.Condition] = []
                var stock: StockPocketSphinx?
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hark-bench-jsgf-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: scratch) }
                if baseline != nil {
                    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                    let exported = try JSGFExport.make(apps: options.apps, domains: options.domains,
                                                       dataDirectory: scratch.appendingPathComponent("data"), model: options.model)
                    let grammar = scratch.appendingPathComponent("hark.gram"), dictionary = scratch.appendingPathComponent("hark.dict")
                    try Data(exported.grammar.utf8).write(to: grammar)
                    try Data((exported.dictionary ?? "").utf8).write(to: dictionary)
                    stock = StockPocketSphinx(acousticModel: try AcousticModel(directory: options.model).acousticModel,
                                              grammar: grammar.path, dictionary: dictionary.path)
                }
                var peer: BenchReport?
                var peerBySnr: [BenchReport.Condition] = []
                for condition in conditions {
                    let label = condition.map { String(format: "%g dB", $0) } ?? "clean"
                    let report = try await Bench.run(utterances, jobs: jobs, makeAssistant: { worker, data in
                        try Wiring.assistant(options, decoder: decoders[worker], dataDirectory: data)
                    }, noise: mixer, snr: condition) { done, total in
                        FileHandle.standardError.write(Data("\r\(label): \(Self.bar(done, total)) \(done)/\(total)".utf8))
                        if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
                    }
                    if result == nil { result = report }
                    bySnr.append(report.condition(snr: condition))
                    if let stock {
                        FileHandle.standardError.write(Data("\(label): stock pocketsphinx_batch...\n".utf8))
                        let stockReport = try await Bench.baseline(utterances, stock: stock, jobs: jobs, makeReader: { data in
                            try Wiring.assistant(options, textOnly: true, dataDirectory: data)
                        }, noise: mixer, snr: condition)
                        if peer == nil { peer = stockReport }
                        peerBySnr.append(stockReport.condition(snr: condition))
                    }
                }
                var final = result!
                if mixer != nil { final.bySnr = bySnr }
                if let peer {
                    final.baseline = BenchReport.Baseline(name: "stock pocketsphinx_batch (JSGF)", peer: peer, hark: final)
                    if mixer != nil { final.baseline?.bySnr = peerBySnr }
                }
                final.peakRssMb = Bench.peakResidentMegabytes()
                try Output.line(final.markdown)
                if let report {
                    try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    let folder = URL(fileURLWithPath: report)
                    try encoder.encode(final).write(to: folder.appendingPathComponent("report.json"))
                    if mixer != nil {
                        let title = "Hark: \(URL(fileURLWithPath: manifest ?? labels!).deletingLastPathComponent().lastPathComponent), \(utterances.count) utterances"
                        try Data(AccuracyPlot.svg(bySnr, title: title).utf8).write(to: folder.appendingPathComponent("accuracy-vs-snr.svg"))
                    }
                }
                if let floor = minCommandAcceptance, final.commandAcceptance * 100 < floor {
                    throw CommandFailure(description: String(format: "command acceptance %.1f%% is below the floor of %.1f%%", final.commandAcceptance * 100, floor))
                }
            }
        }

        /// The SNRs of --snr, or nil when one is not a number.
        var snrs: [Double]? {
            let values = snr.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            return values.isEmpty || values.contains(nil) ? nil : values.compactMap { $0 }
        }

        static func bar(_ done: Int, _ total: Int, width: Int = 30) -> String {
            let filled = total > 0 ? width * done / total : width
            return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        }
    }
}
