import ArgumentParser
import Foundation
import Hark
import HarkEngine
import HarkSampleApps
import HarkVisualCode
import Logging

extension HarkCommand {
    /// `hark converse`: the whole engine on typed turns, one per line.
    struct Converse: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Talk to the apps by typing: one turn per line on standard input; Hark answers each.",
            usage: "hark converse [<options>] < requests.txt",
            discussion: """
                Same conversation as spoken (follow-up questions, confirmation, disambiguation), without audio.

                Examples:
                  echo "What can you do?" | hark converse
                  printf 'send a MonkeyChat message\\nBobo\\nplease send more bananas\\nsend it\\n' |
                      hark converse --json
                """)

        @Flag(help: "Print one JSON object per turn (as `hark replay --json`).")
        var json = false

        @Flag(help: "Behave as on a locked device: payments, rides and the apps' IntentsRestrictedWhileLocked are refused.")
        var locked = false

        @Option(help: "Seconds a handler may take before the person is told it is in progress.")
        var progressBudget: Double = 2.5

        @Option(help: "Seconds after which a handler that has not answered fails.")
        var timeout: Double = 15

        @Option(help: "Folder of installed apps (one folder per app with an Info.plist).", completion: .directory)
        var apps: String?

        @Option(help: "Folder of built-in domain grammars (*.hark).", completion: .directory)
        var domains: String?

        @Option(help: "Where the apps keep their data (default: $HARK_DATA_DIR, $XDG_DATA_HOME/hark or ~/.local/share/hark).", completion: .directory)
        var dataDir: String?

        @Flag(name: .shortAndLong, help: "Log what each stage does to standard error.")
        var verbose = false

        func validate() throws {
            guard progressBudget > 0, timeout >= progressBudget else {
                throw ValidationError("--progress-budget must be positive and at most --timeout")
            }
        }

        func run() async throws {
            bootstrapLogging(verbose: verbose)
            try await Self.reportingErrors {
                let installed = try Wiring.builder(
                    apps: apps, domains: domains, dataDirectory: Wiring.dataDirectory(dataDir), locked: locked,
                    configuration: EngineConfiguration(progressBudget: .milliseconds(Int(progressBudget * 1000)),
                                                       timeout: .milliseconds(Int(timeout * 1000)))).start()
                let assistant = try installed.makeAssistant()
                let size = await assistant.graphSize
                Logger(label: "hark").debug("intent graph", metadata: [
                    "graph.states": "\(size.states)", "graph.arcs": "\(size.arcs)", "graph.free_text_arcs": "\(size.freeTextArcs)"])
                let interactive = isatty(STDIN_FILENO) == 1
                if interactive, !json {
                    FileHandle.standardError.write(Data("hark: type a request (\"What can you do?\"); end with Ctrl-D\n".utf8))
                }
                while let line = readLine() {
                    let text = line.trimmingCharacters(in: .whitespaces)
                    guard !text.isEmpty else { continue }
                    let turn = await assistant.read(text)
                    try Output.line(json ? turn.jsonLine : turn.terminalCard + "\n")
                    // A visual code is drawn for the person (the JSON has its payload and PNG path).
                    if !json, let payload = turn.output["visualCode"], let code = try? QRCode(payload) {
                        try Output.line(code.terminal + "\n")
                    }
                    // A slow handler's result is reported when it arrives,
                    // before the next turn is read.
                    for late in await assistant.lateResults() {
                        try Output.line(json ? late.jsonLine : late.terminalCard + "\n")
                    }
                }
                await installed.shutdown()
            }
        }
    }
}
