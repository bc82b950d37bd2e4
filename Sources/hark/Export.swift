import ArgumentParser
import Foundation
import Hark
import HarkCatalog
import HarkGrammar
import HarkRecognition
import HarkSampleApps

extension HarkCommand {
    /// `hark export FORMAT ...`: the installed apps' grammars for other tools.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the installed apps' compiled grammar in another tool's format.",
            subcommands: [JSGF.self])

        /// `hark export jsgf [--apps DIR] [--domains DIR] [--out FILE]`.
        struct JSGF: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Write the grammar of every installed app and domain as one JSGF 1.0 grammar.",
                usage: "hark export jsgf [<options>] [--out <file.gram>]",
                discussion: """
                    The public rule <command> is the choice of every app's intents; rules, lists and built-in types (numbers, times, ...) are shared JSGF rules. Free-text slots take the dictation words (models/dictation/words.txt) as the rule <dictation> = (w1 | w2 | ...)+.

                    With --out, the words' pronunciations (names and hint pieces that the CMU dictionary lacks included) go to a dictionary next to it (FILE.dict, or --dict), ready for `pocketsphinx_continuous -jsgf FILE.gram -dict FILE.dict`.

                    Examples:
                      hark export jsgf --out hark.gram
                      hark export jsgf --apps models/benchmark-apps --out barista.gram --json
                    """)

            @Option(help: "Folder of installed apps (default: models/apps).", completion: .directory)
            var apps: String?

            @Option(help: "Folder of built-in domain grammars (default: models/domains).", completion: .directory)
            var domains: String?

            @Option(help: "Where the apps keep their data, for user vocabulary such as contacts (default: $HARK_DATA_DIR, $XDG_DATA_HOME/hark or ~/.local/share/hark).", completion: .directory)
            var dataDir: String?

            @Option(help: "The file to write (default: standard output).")
            var out: String?

            @Option(help: "Where to write the pronunciation dictionary of the grammar's words (default with --out: the same name ending .dict).")
            var dict: String?

            @Option(help: "The JSGF grammar name.")
            var name: String = "hark"

            @Option(help: "How many of the most likely dictation words free text may take (0: only the grammar's own words; default: all).")
            var dictationWords: Int?

            @Flag(help: "Make every intent rule public too (pocketsphinx then needs -toprule NAME.command).")
            var publicIntents = false

            @Flag(help: "With --out, print what was written as JSON: {grammar, dictionary, name, words}.")
            var json = false

            struct Summary: Encodable {
                var grammar: String
                var dictionary: String?
                var name: String
                /// Words in the pronouncing dictionary.
                var words: Int

                func encode(to encoder: any Encoder) throws {
                    var c = encoder.container(keyedBy: CodingKeys.self)
                    try c.encode(grammar, forKey: .grammar)
                    try c.encode(dictionary, forKey: .dictionary)
                    try c.encode(name, forKey: .name)
                    try c.encode(words, forKey: .words)
                }

                enum CodingKeys: String, CodingKey { case grammar, dictionary, name, words }
            }

            func validate() throws {
                if let dictationWords, dictationWords < 0 { throw ValidationError("--dictation-words must be 0 or more") }
                if json, out == nil { throw ValidationError("--json summarises the files --out writes; give --out FILE") }
                guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                    throw ValidationError("--name takes letters, digits and '_' (a JSGF grammar name), got '\(name)'")
                }
            }

            func run() async throws {
                try await Self.reportingErrors {
                    let exported = try JSGFExport.make(
                        apps: apps, domains: domains,
                        dataDirectory: dataDir.map { URL(fileURLWithPath: $0) } ?? AppGroupContainer.defaultDataDirectory(),
                        name: name, dictationWords: dictationWords, publicIntents: publicIntents,
                        dictionary: dict != nil || out != nil)
                    if let out {
                        try Data(exported.grammar.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
                        if !json { FileHandle.standardError.write(Data("wrote \(out)\n".utf8)) }
                    }
                    var written: String?
                    if let dictPath = dict ?? out.map({ (($0 as NSString).deletingPathExtension as NSString).appendingPathExtension("dict")! }),
                       let dictionary = exported.dictionary {
                        try Data(dictionary.utf8).write(to: URL(fileURLWithPath: dictPath), options: .atomic)
                        if !json { FileHandle.standardError.write(Data("wrote \(dictPath)\n".utf8)) }
                        written = dictPath
                    }
                    if json, let out {
                        let words = exported.dictionary.map { $0.split(separator: "\n").count } ?? 0
                        try printJSON(Summary(grammar: out, dictionary: written, name: name, words: words))
                    }
                    if out == nil {
                        try Output.write(exported.grammar)
                    }
                }
            }
        }
    }
}

/// The installed apps' grammar as JSGF, and the pronouncing dictionary of
/// its words: for `hark export jsgf` and the stock baseline of `hark bench`.
enum JSGFExport {
    static func make(apps: String?, domains: String?, dataDirectory: URL, name: String = "hark",
                     dictationWords: Int? = nil, publicIntents: Bool = false,
                     dictionary: Bool = true, model: String = AcousticModel.defaultDirectory) throws -> (grammar: String, dictionary: String?) {
        let models = Resources.modelsDirectory()
        var catalog = try Catalog.load(
            appsDirectory: apps ?? (models as NSString).appendingPathComponent("apps"),
            domainsDirectory: domains ?? (models as NSString).appendingPathComponent("domains"))
        for (app, types) in try SampleApps(dataDirectory: dataDirectory).vocabulary {
            for (type, strings) in types { catalog.setVocabulary(strings, type: type, app: app) }
        }
        var words: [String] = []
        if dictationWords != 0 {
            let vocabulary = try Resources.dictation(modelsDirectory: models)
            let ranked = vocabulary.logProbabilities.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
            words = dictationWords.map { Array(ranked.prefix($0)) } ?? ranked
        }
        let text = try JSGFExporter.export(catalog.grammarInstances(), grammarName: name, dictation: words,
                                           publicIntents: publicIntents)
        guard dictionary else { return (text, nil) }
        let graphWords = try GrammarCompiler.compile(catalog.grammarInstances()).vocabulary
        let lexicon = try Lexicon(contentsOf: try AcousticModel(directory: model).dictionary)
        let (entries, missing) = lexicon.pronouncingDictionary(for: graphWords.union(words))
        guard missing.isEmpty else {
            throw CommandFailure(description: "no pronunciation for \(missing.map { "'\($0)'" }.joined(separator: ", ")); add a pronunciation hint for it in the app's vocabulary")
        }
        return (text, entries)
    }
}
