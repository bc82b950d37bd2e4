import ArgumentParser
import Foundation
import HarkCatalog
import HarkGrammar
import HarkRecognition

extension HarkCommand {
    /// `hark import FORMAT ...`: grammars from other tools as Hark apps.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Turn another tool's grammar into a Hark app folder.",
            subcommands: [Rhino.self])

        /// `hark import rhino FILE.yaml --out models/apps/NAME [--name NAME]`.
        struct Rhino: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Import a Picovoice Rhino context (YAML) as an app: <out>/NAME.hark and <out>/Info.plist.",
                usage: "hark import rhino <file.yaml> --out <folder> [<options>]",
                discussion: """
                    The grammar is written as readable Hark grammar text; edit it freely.

                    Examples:
                      hark import rhino Fuzz/corpus/rhino/lights.yaml --out apps/Lights
                      hark import rhino Fuzz/corpus/rhino/macros.yaml --out apps/Timer --json
                    """)

            @Argument(help: "The Rhino context file (YAML).", completion: .file(extensions: ["yaml", "yml"]))
            var file: String

            @Option(help: "The app folder to write (created if needed).", completion: .directory)
            var out: String

            @Flag(help: "Print what was written as JSON: {app, grammar, info_plist, intents}.")
            var json = false

            struct Summary: Encodable {
                var app: String
                var grammar: String
                var infoPlist: String
                var intents: [String]

                enum CodingKeys: String, CodingKey { case app, grammar, intents, infoPlist = "info_plist" }
            }

            @Option(help: "The app's name (default: the last component of --out).")
            var name: String?

            @Option(help: "Acoustic model folder, to check every word has a pronunciation.", completion: .directory)
            var model: String = AcousticModel.defaultDirectory

            var appName: String {
                name ?? URL(fileURLWithPath: out).standardizedFileURL.lastPathComponent
            }

            func validate() throws {
                let name = appName
                guard !name.isEmpty, name != ".", name != "..", !name.contains("/"),
                      name.allSatisfy({ $0.isLetter || $0.isNumber || " _-.".contains($0) }) else {
                    throw ValidationError("'\(name)' cannot be an app name; pass --name NAME (letters, digits, space, _ - .)")
                }
            }

            func run() async throws {
                try await Self.reportingErrors {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        throw CommandFailure(description: "\(file): cannot read the file")
                    }
                    guard let yaml = String(data: data, encoding: .utf8) else {
                        throw CommandFailure(description: "\(file): not UTF-8 text")
                    }
                    let result = try RhinoImporter.translate(yaml, path: file)
                    let name = appName
                    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                    let folder = URL(fileURLWithPath: out)
                    let grammarURL = folder.appendingPathComponent("\(name).hark")
                    let plistURL = folder.appendingPathComponent("Info.plist")
                    try Data(result.grammar.utf8).write(to: grammarURL, options: .atomic)
                    let declarations = try GrammarParser.parse(result.grammar, path: grammarURL.path)
                    try Self.infoPlist(name: name, intents: result.intents, grammar: declarations).write(to: plistURL, options: .atomic)
                    // Check the folder loads as an app, as the assistant will load it.
                    _ = try AppInfo(contentsOf: plistURL.path)
                    if json {
                        try printJSON(Summary(app: name, grammar: grammarURL.path, infoPlist: plistURL.path, intents: result.intents))
                    } else {
                        try Output.line("wrote \(grammarURL.path) (intents: \(result.intents.joined(separator: ", ")))")
                        try Output.line("wrote \(plistURL.path)")
                    }
                    Self.warnAboutUnpronounceableWords(grammar: result.grammar, path: grammarURL.path, model: model)
                }
            }

            /// The app's `Info.plist`: its name, its intents, and a
            /// `HarkIntents` declaration for each intent with every slot as
            /// an optional parameter and a question to ask for it, and
            /// plain response sentences — to edit (docs/apps.md).
            static func infoPlist(name: String, intents: [String], grammar: GrammarFile) throws -> Data {
                var declarations: [String: Any] = [:]
                for intent in grammar.intents where intents.contains(intent.name) {
                    let parameters: [[String: Any]] = grammar.slotNames(of: intent).map { slot in
                        ["Name": slot, "Required": false, "Prompt": "What \(InstalledApp.phrase(slot)) would you like?"]
                    }
                    declarations[intent.name] = [
                        "Summary": InstalledApp.phrase(intent.name).prefix(1).uppercased() + InstalledApp.phrase(intent.name).dropFirst() + ".",
                        "Parameters": parameters,
                        "Responses": ["Success": "Okay.", "Failure": "Sorry, {app} couldn't do that."],
                    ]
                }
                let plist: [String: Any] = [
                    "CFBundleName": name, "CFBundleDisplayName": name, "IntentsSupported": intents, "HarkIntents": declarations,
                ]
                return try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            }

            /// Words the recognizer could not say stop the assistant from
            /// starting; name them now, while the grammar is fresh.
            static func warnAboutUnpronounceableWords(grammar: String, path: String, model: String) {
                guard let file = try? GrammarParser.parse(grammar, path: path),
                      let graph = try? GrammarCompiler.compile([GrammarInstance(app: "import", grammar: file,
                                                                                 externalRules: ["app": .word("app")])]),
                      let dictionary = try? AcousticModel(directory: model).dictionary,
                      let lexicon = try? Lexicon(contentsOf: dictionary) else { return }
                let missing = graph.vocabulary.filter { !lexicon.contains($0) }.sorted()
                guard !missing.isEmpty else { return }
                FileHandle.standardError.write(Data("""
                    hark: warning: \(path): no pronunciation in \(dictionary) for \(missing.map { "'\($0)'" }.joined(separator: ", ")); \
                    the assistant will not start until they are respelled in the grammar\n
                    """.utf8))
            }
        }
    }
}
