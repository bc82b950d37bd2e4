import ArgumentParser
import Foundation
import Hark
import HarkBench

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
                  hark bench --labels barista-dev/labels.json --audio-dir barista-dev/audio
                Command acceptance: the intent is right and every labelled slot has exactly the labelled
                value (trimmed); extra slots are not counted against it; no answer is an error.
                """)

        @Argument(help: "A JSON Lines manifest: audio (relative to the manifest), text, app, intent, slots.")
        var manifest: String?

        @Option(help: ArgumentHelp("Labels in the speech-to-intent benchmark's format instead of a manifest: {\"<file>.wav\": {\"intent\": ..., \"slots\": {...}}}.", valueName: "labels.json"))
        var labels: String?

        @Option(help: "Folder of the audio files the labels name (default: the labels' audio/ folder, else their folder).")
        var audioDir: String?

        @Option(help: "Folder to write report.json into.")
        var report: String?

        @OptionGroup var options: AssistantOptions

        func validate() throws {
            switch (manifest, labels) {
            case (nil, nil): throw ValidationError("give a MANIFEST.jsonl or --labels labels.json")
            case (.some, .some): throw ValidationError("give either a MANIFEST.jsonl or --labels, not both")
            default: break
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
                let decoder = try Wiring.decoder(options)
                let result = try await Bench.run(utterances, makeAssistant: { try Wiring.assistant(options, decoder: decoder) }) { done, total in
                    FileHandle.standardError.write(Data("\r\(Self.bar(done, total)) \(done)/\(total)".utf8))
                    if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
                }
                print(result.markdown)
                if let report {
                    try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    try encoder.encode(result).write(to: URL(fileURLWithPath: report).appendingPathComponent("report.json"))
                }
            }
        }

        static func bar(_ done: Int, _ total: Int, width: Int = 30) -> String {
            let filled = total > 0 ? width * done / total : width
            return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        }
    }
}
