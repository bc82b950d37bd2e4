import ArgumentParser
import Foundation
import HarkText
import Hark
import HarkCatalog
import HarkSampleApps

extension HarkCommand {
    /// `hark vocab set|list|remove-all`: the user's vocabulary (SiriKit's INVocabulary).
    struct Vocab: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vocab",
            abstract: "Manage the user's vocabulary per app (contacts, playlists, workout names, ...), as SiriKit's INVocabulary.",
            discussion: """
                Changes are stored under the data directory and reach a running `hark listen` before its next utterance.

                Types: \(VocabularyStringType.allCases.map(\.rawValue).joined(separator: ", ")).
                Limits (checked by `set` and whenever a file is loaded): \(UserVocabularyStore.maximumStringLength) UTF-16 units \
                per string, \(UserVocabularyStore.maximumStringsPerType) strings per type, \(UserVocabularyStore.maximumFileSize / 1024) KiB per app.

                Examples:
                  hark vocab set --app MonkeyChat --type contactName Bobo "Little Bobo"
                  hark vocab list --app MonkeyChat --json
                  hark vocab remove-all --app MonkeyChat
                """,
            subcommands: [Set.self, List.self, RemoveAll.self])
    }
}

/// Options the `vocab` subcommands share.
struct VocabularyOptions: ParsableArguments {
    @Option(help: "Where Hark keeps its data (default: $HARK_DATA_DIR, $XDG_DATA_HOME/hark or ~/.local/share/hark).", completion: .directory)
    var dataDir: String?

    @Option(help: "Whose vocabulary.")
    var user: String = "default"

    @Option(help: "Folder of installed apps, to check the app's name.", completion: .directory)
    var apps: String?

    /// The store, seeded with the sample apps' first-run vocabulary as the assistant would.
    func store() throws -> UserVocabularyStore {
        let data = dataDir.map { URL(fileURLWithPath: $0) } ?? AppGroupContainer.defaultDataDirectory()
        let store = try UserVocabularyStore(dataDirectory: data, user: user)
        if user == "default" { try store.seed([MonkeyChat.appName: ["contactName": MonkeyChat.defaultContacts]]) }
        return store
    }

    /// Fails unless `app` is the bundle name of an installed app.
    func checkInstalled(_ app: String) throws {
        let folder = apps ?? (Resources.modelsDirectory() as NSString).appendingPathComponent("apps")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().compactMap { name -> String? in
            let plist = ((folder as NSString).appendingPathComponent(name) as NSString).appendingPathComponent("Info.plist")
            return FileManager.default.fileExists(atPath: plist) ? try? AppInfo(contentsOf: plist).bundleName : nil
        }
        guard names.contains(app) else {
            throw CommandFailure(description: "'\(app)' is not an installed app in \(folder)\(Suggestions.didYouMean(app, in: names)) (installed: \(names.joined(separator: ", ")))")
        }
    }
}

extension HarkCommand.Vocab {
    /// `hark vocab set --app APP --type TYPE STRING...`
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the app's strings of one type, most important first (no strings: remove the type).",
            usage: "hark vocab set --app <app> --type <type> [<strings> ...] [<options>]",
            discussion: """
                Example:
                  hark vocab set --app MonkeyChat --type contactName Bobo Koko
                """)

        @Option(help: "The app's bundle name (CFBundleName).", completion: .custom { arguments, _, _ in Suggestions.installedAppNames(arguments) })
        var app: String
        @Option(help: "The vocabulary type, e.g. contactName.", completion: .list(VocabularyStringType.allCases.map(\.rawValue)))
        var type: String
        @Argument(help: "The strings, most important first.")
        var strings: [String] = []
        @OptionGroup var options: VocabularyOptions

        func run() async throws {
            try await Self.reportingErrors {
                let kind = try VocabularyStringType.named(type)
                try options.checkInstalled(app)
                let stored = try options.store().set(strings, type: kind, app: app)
                try Output.line(escapingControlCharacters("\(app) \(kind.rawValue): \(stored.count) string\(stored.count == 1 ? "" : "s")"))
            }
        }
    }

    /// `hark vocab list [--app APP] [--type TYPE]`
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the stored vocabulary, most important first.",
            usage: "hark vocab list [--app <app>] [--type <type>] [--json] [<options>]")

        @Option(help: "Only this app.", completion: .custom { arguments, _, _ in Suggestions.installedAppNames(arguments) })
        var app: String?
        @Option(help: "Only this type.", completion: .list(VocabularyStringType.allCases.map(\.rawValue)))
        var type: String?
        @Flag(help: "Print JSON: {app: {type: [strings]}}.")
        var json = false
        @OptionGroup var options: VocabularyOptions

        func run() async throws {
            try await Self.reportingErrors {
                let kind = try type.map { try VocabularyStringType.named($0) }
                let store = try options.store()
                var all: [String: [String: [String]]] = [:]
                for name in app.map({ [$0] }) ?? store.apps() {
                    var types = try store.vocabulary(app: name)
                    if let kind { types = types.filter { $0.key == kind.rawValue } }
                    if !types.isEmpty { all[name] = types }
                }
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    try Output.line(String(decoding: try encoder.encode(all), as: UTF8.self))
                    return
                }
                for (name, types) in all.sorted(by: { $0.key < $1.key }) {
                    for (type, strings) in types.sorted(by: { $0.key < $1.key }) {
                        try Output.line(escapingControlCharacters("\(name) \(type):"))
                        for string in strings { try Output.line("  " + escapingControlCharacters(string)) }
                    }
                }
            }
        }
    }

    /// `hark vocab remove-all --app APP`
    struct RemoveAll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-all", abstract: "Remove all of the app's vocabulary (as on reset or logout).",
            usage: "hark vocab remove-all --app <app> [<options>]")

        @Option(help: "The app's bundle name (CFBundleName).", completion: .custom { arguments, _, _ in Suggestions.installedAppNames(arguments) })
        var app: String
        @OptionGroup var options: VocabularyOptions

        func run() async throws {
            try await Self.reportingErrors {
                try options.store().removeAll(app: app)
                try Output.line(escapingControlCharacters("\(app): vocabulary removed"))
            }
        }
    }
}
