import ArgumentParser
import Foundation
import Hark
import HarkBench
import HarkRecognition
import HarkSpeech

extension HarkCommand {
    /// `hark bench MANIFEST.jsonl` or `hark bench --labels labels.json
    /// --audio-dir DIR`: accuracy and speed on labelled audio.
    struct BenchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Replay labelled audio through the whole pipeline and report accuracy and speed.",
            discussion: """
                Examples:
                  hark bench audio-fixtures/manifest.jsonl --set core --report bench-report
                  sox -n -r 16000 hum.wav synth 5 brownnoise vol 0.3
                  hark bench audio-fixtures/manifest.jsonl --set out-of-grammar \\
                      --noise hum.wav --snr 6 --report bench-noisy
                  hark bench --typed models/dev/requests.jsonl

                With --typed, each line is a typed request ({"text": ..., "app": ..., "intent": ... or null for a sentence no app should act on, "slots": {...}, "set": ...}), read as a new request without running any handler: the report gives coverage (app, intent and values right), the right app and intent, and the out-of-domain sentences that became an action or a "Which app?" question.

                With --noise, every utterance is decoded clean and at each SNR (noise mixed as the speech-to-intent benchmark defines it, excerpts chosen by a fixed seed); --report then also writes accuracy-vs-snr.svg.

                Command acceptance: the intent is right and every labelled slot has exactly the labelled value (trimmed); extra slots are not counted against it; no answer is an error.

                report.json holds the settings (version, date, host, decoder options, denoise, rejection, seed, noise, SNRs), the figures, figures per intent and per manifest set, and every utterance's result. Interrupted (Ctrl-C, SIGTERM), hark bench writes what it decoded so far, marked "partial": true, removes its temporary files and exits 130 (143 on SIGTERM).
                """)

        @Argument(help: "A JSON Lines manifest: audio (relative to the manifest), text, app, intent, slots, set.",
                  completion: .file(extensions: ["jsonl"]))
        var manifest: String?

        @Option(help: ArgumentHelp("Labels in the speech-to-intent benchmark's format instead of a manifest: {\"<file>.wav\": {\"intent\": ..., \"slots\": {...}}}.", valueName: "labels.json"),
                completion: .file(extensions: ["json"]))
        var labels: String?

        @Option(help: ArgumentHelp("Typed requests instead of audio: a JSON Lines development set (text, app, intent or null, slots, set).", valueName: "requests.jsonl"),
                completion: .file(extensions: ["jsonl"]))
        var typed: String?

        @Option(help: "Folder of the audio files the labels name (default: the labels' audio/ folder, else their folder).",
                completion: .directory)
        var audioDir: String?

        @Option(name: .customLong("set"), help: ArgumentHelp("Only the manifest's utterances of this set (e.g. core); repeatable.", valueName: "set"))
        var sets: [String] = []

        @Option(help: "Folder to write report.json (and accuracy-vs-snr.svg) into.", completion: .directory)
        var report: String?

        @Option(help: "A WAV of noise to mix into every utterance (e.g. barista-dev/kitchen-noise.wav).",
                completion: .file(extensions: ["wav"]))
        var noise: String?

        @Option(help: "Signal-to-noise ratios in dB for --noise, comma-separated.")
        var snr: String = "24,18,12,6"

        @Option(help: "Seed choosing the noise excerpts (the same seed mixes the same audio).")
        var seed: UInt64 = 1234

        @Option(help: "Conversations decoded at once, each worker with its own decoder (figures other than timings do not change).")
        var jobs: Int = 1

        @Option(help: "A peer decoding the same audio in the same run: 'pocketsphinx' is Debian's stock pocketsphinx_batch with the JSGF export of the same grammar, parsed by Hark's parser.")
        var baseline: Baseline?

        @Option(help: "Exit non-zero when clean command acceptance (in %) is below this floor.")
        var minCommandAcceptance: Double?

        @Flag(help: "Feed each recording through the live loop in 20 ms pieces, as hark listen hears a microphone (streaming recognition, grammar-aware endpointing), and report finalize_ms, end_of_speech_ms and the first sample of the spoken answer.")
        var streaming = false

        @Flag(help: "With --streaming: hear each conversation as a hark listen just started does (the model's starting cepstral mean), not as a session that has heard its speaker before (adapted to their first recording).")
        var coldStart = false

        @OptionGroup var endpointing: EndpointingOptions

        @OptionGroup var options: AssistantOptions

        /// `--baseline`: the peers Hark can be measured beside.
        enum Baseline: String, ExpressibleByArgument, CaseIterable {
            case pocketsphinx
        }

        func validate() throws {
            switch [manifest, labels, typed].compactMap({ $0 }).count {
            case 0: throw ValidationError("give a MANIFEST.jsonl, --labels labels.json or --typed requests.jsonl")
            case 1: break
            default: throw ValidationError("give one of a MANIFEST.jsonl, --labels and --typed, not several")
            }
            if coldStart, !streaming { throw ValidationError("--cold-start goes with --streaming") }
            if streaming, baseline != nil {
                throw ValidationError("--baseline decodes whole files with stock pocketsphinx; it does not go with --streaming")
            }
            if typed != nil, noise != nil || baseline != nil || !sets.isEmpty || streaming {
                throw ValidationError("--typed reads text: --noise, --baseline, --set and --streaming do not apply")
            }
            if noise != nil, snrs == nil {
                throw ValidationError("--snr takes numbers in dB separated by commas, e.g. 24,18,12,6")
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
                if let typed {
                    try await runTyped(typed)
                    return
                }
                var utterances: [LabelledUtterance]
                if let labels {
                    utterances = try Labels.load(labels, audioDirectory: audioDir ?? Labels.defaultAudioDirectory(for: labels))
                } else {
                    utterances = try Manifest.load(manifest!)
                }
                if !sets.isEmpty {
                    let known = Set(utterances.compactMap(\.set))
                    for set in sets where !known.contains(set) {
                        throw CommandFailure(description: "no utterance of \(manifest ?? labels!) is in the set '\(set)'\(Suggestions.didYouMean(set, in: known.sorted())) (sets: \(known.sorted().joined(separator: ", ")))")
                    }
                    utterances = utterances.filter { $0.set.map(sets.contains) ?? false }
                }
                let decoders = try (0..<jobs).map { _ in try Wiring.decoder(options) }
                let mixer = try noise.map { try NoiseMixer(noisePath: $0, seed: seed) }
                let conditions: [Double?] = [nil] + (mixer == nil ? [] : snrs!.map(Optional.some))
                let settings = BenchSettings(
                    manifest: manifest, labels: labels, audioDirectory: labels.map { audioDir ?? Labels.defaultAudioDirectory(for: $0) },
                    sets: sets, model: options.model, apps: options.apps, domains: options.domains,
                    decoderOptions: options.decoderArguments, rejection: options.rejection,
                    denoise: options.denoise.rawValue, denoiseActive: options.denoise.enabled,
                    noise: noise, seed: seed, snrs: mixer == nil ? [] : snrs!, jobs: jobs, baseline: baseline?.rawValue,
                    streaming: streaming ? (coldStart ? "cold start" : "adapted") : nil)
                let live = streaming ? Bench.StreamingSettings(
                    endpointer: endpointing.configuration, synthesizer: try ESpeakSynthesizer(), coldStart: coldStart) : nil
                let recorder = BenchRecorder()
                let terminal = isatty(STDERR_FILENO) == 1
                let interrupts = Interrupts { signal in
                    // The workers finish the conversation they are in (its
                    // turns are scored), then no temporary files are left
                    // behind, and what was decoded is reported.
                    FileHandle.standardError.write(Data("\nhark: interrupted; finishing the conversations being decoded\n".utf8))
                    Scratch.removeAll()
                    let partial = recorder.partialReport(settings: settings)
                    FileHandle.standardError.write(Data("hark: \(partial.map { "the partial report of \($0.utterances) utterances" + (report.map { " is in \($0)/report.json" } ?? "") } ?? "nothing was decoded")\n".utf8))
                    if let partial {
                        try? Output.line(partial.markdown)
                        if let report { try? Self.write(partial, to: report) }
                    }
                }
                defer { interrupts.cancel() }
                var result: BenchReport?
                var bySnr: [BenchReport.Condition] = []
                var stock: StockPocketSphinx?
                let scratch = Scratch.make("jsgf")
                defer { Scratch.remove(scratch) }
                if baseline != nil {
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
                    let progress = BenchProgress(label: label, total: utterances.count, terminal: terminal) { text in
                        FileHandle.standardError.write(Data(text.utf8))
                    }
                    recorder.begin(snr: condition)
                    let report = try await Bench.run(utterances, jobs: jobs, makeAssistant: { worker, data in
                        try Wiring.assistant(options, decoder: decoders[worker], dataDirectory: data)
                    }, noise: mixer, snr: condition, streaming: live, progress: { done, _ in progress.update(done: done) },
                       onResult: { recorder.record($0) })
                    recorder.finish(report, snr: condition)
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
                final.settings = settings
                if mixer != nil { final.bySnr = bySnr }
                if let peer {
                    final.baseline = BenchReport.Baseline(name: "stock pocketsphinx_batch (JSGF)", peer: peer, hark: final)
                    if mixer != nil { final.baseline?.bySnr = peerBySnr }
                }
                final.peakRssMb = Bench.peakResidentMegabytes()
                try Output.line(final.markdown)
                if let report {
                    try Self.write(final, to: report)
                    if let noise, mixer != nil {
                        let title = "Hark: \(URL(fileURLWithPath: manifest ?? labels!).deletingLastPathComponent().lastPathComponent), \(utterances.count) utterances"
                        let svg = AccuracyPlot.svg(bySnr, title: title, noise: URL(fileURLWithPath: noise).lastPathComponent,
                                                   baseline: peer == nil ? nil : (name: "stock pocketsphinx", conditions: peerBySnr))
                        try Data(svg.utf8).write(to: URL(fileURLWithPath: report).appendingPathComponent("accuracy-vs-snr.svg"))
                    }
                }
                if let floor = minCommandAcceptance, final.commandAcceptance * 100 < floor {
                    throw CommandFailure(description: String(format: "command acceptance %.1f%% is below the floor of %.1f%%", final.commandAcceptance * 100, floor))
                }
            }
        }

        /// `--typed`: the development set read by a text-only assistant on the
        /// apps' initial data.
        func runTyped(_ path: String) async throws {
            let requests = try TypedBench.load(path)
            let readings = try await Scratch.using {
                let data = Scratch.make("typed")
                defer { Scratch.remove(data) }
                let assistant = try Wiring.assistant(options, textOnly: true, dataDirectory: data)
                var readings: [TextReading] = []
                for request in requests { readings.append(await assistant.reading(of: request.text)) }
                let size = await assistant.graphSize
                return (readings, size)
            }
            var final = TypedBench.run(requests, readings: readings.0)
            final.graph = .init(states: readings.1.states, arcs: readings.1.arcs, freeTextArcs: readings.1.freeTextArcs)
            final.settings = ["file": path, "apps": options.apps ?? "the sample apps", "domains": options.domains ?? "the built-in domains",
                              "version": HarkVersion.number]
            try Output.line(final.markdown)
            if let folder = self.report { try Self.write(final, to: folder) }
            if let floor = minCommandAcceptance, final.coverage * 100 < floor {
                throw CommandFailure(description: String(format: "coverage %.1f%% is below the floor of %.1f%%", final.coverage * 100, floor))
            }
        }

        /// Writes `report` as `folder/report.json`.
        static func write(_ report: some Encodable, to folder: String) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(report).write(to: URL(fileURLWithPath: folder).appendingPathComponent("report.json"), options: .atomic)
        }

        /// The SNRs of --snr, or nil when one is not a number.
        var snrs: [Double]? {
            let values = snr.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            return values.isEmpty || values.contains(nil) ? nil : values.compactMap { $0 }
        }
    }
}
