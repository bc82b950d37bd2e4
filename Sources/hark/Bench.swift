import ArgumentParser
import Foundation
import Hark
import HarkBench

extension HarkCommand {
    /// `hark bench MANIFEST.jsonl`: accuracy and speed on labelled audio.
    struct BenchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Replay labelled audio through the whole pipeline and report accuracy and speed.",
            discussion: "Example: hark bench audio-fixtures/manifest.jsonl --report bench-report")

        @Argument(help: "A JSON Lines manifest: audio (relative to the manifest), text, app, intent, slots.")
        var manifest: String

        @Option(help: "Folder to write report.json into.")
        var report: String?

        @OptionGroup var options: AssistantOptions

        func run() async throws {
            bootstrapLogging(verbose: options.verbose)
            try await Self.reportingErrors {
                let utterances = try Manifest.load(manifest)
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
