import ArgumentParser
import Foundation
import HarkText
import Hark
import HarkCatalog
import HarkEngine
import HarkSampleApps

extension HarkCommand {
    /// `hark apps`: the installed apps and whether Hark may talk to them.
    struct Apps: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the installed apps, and authorize or revoke them.",
            subcommands: [List.self, Authorize.self, Revoke.self], defaultSubcommand: List.self)

        struct Location: ParsableArguments {
            @Option(help: "Folder of installed apps (one folder per app with an Info.plist).", completion: .directory)
            var apps: String?

            @Option(help: "Where Hark keeps its data (default: $HARK_DATA_DIR, $XDG_DATA_HOME/hark or ~/.local/share/hark).", completion: .directory)
            var dataDir: String?

            var appsDirectory: String { apps ?? (Resources.modelsDirectory() as NSString).appendingPathComponent("apps") }
            var dataDirectory: URL { dataDir.map { URL(fileURLWithPath: $0) } ?? AppGroupContainer.defaultDataDirectory() }

            /// The installed apps, with the sample apps' code for those of them installed.
            func installed() throws -> InstalledApps {
                try Wiring.builder(apps: apps, domains: nil, dataDirectory: dataDirectory).start()
            }

            func load() throws -> (apps: [InstalledApp], store: AuthorizationStore) {
                let installed = try installed()
                return (installed.catalog.apps, try installed.authorizations())
            }

            func app(named name: String, in apps: [InstalledApp]) throws -> InstalledApp {
                let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
                if let app = apps.first(where: { app in
                    ([app.name, app.info.displayName] + app.info.alternativeNames.map(\.name))
                        .contains { $0.lowercased().filter { $0.isLetter || $0.isNumber } == key }
                }) { return app }
                let names = apps.flatMap { [$0.name, $0.info.displayName] }
                throw CommandFailure(description: "no installed app is called '\(name)'\(Suggestions.didYouMean(name, in: Array(Set(names)).sorted())) (installed: \(apps.map(\.name).joined(separator: ", ")))")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the installed apps, their intents, who handles each, and authorization.",
                discussion: "Each intent is handled by code built into Hark (the sample apps), the app's intents extension (its command), a Swift handler registered by the program embedding Hark, or nobody.")
            @OptionGroup var location: Location

            @Flag(help: "Print one JSON object per app.")
            var json = false

            struct Entry: Encodable {
                struct IntentEntry: Encodable {
                    var name: String
                    var domain: String
                    var custom: Bool
                    var handler: String
                    var command: [String]?
                }
                var name: String
                var displayName: String
                var folder: String
                var authorization: String
                var usageDescription: String?
                var intents: [IntentEntry]
                var examples: [String]
                enum CodingKeys: String, CodingKey {
                    case name, folder, authorization, intents, examples
                    case displayName = "display_name"
                    case usageDescription = "usage_description"
                }
            }

            func run() async throws {
                try await Self.reportingErrors {
                    let installed = try location.installed()
                    let statuses = try installed.authorizations().statuses()
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    for app in installed.catalog.apps {
                        let intents = app.intents.map { intent -> Entry.IntentEntry in
                            let kind = installed.handlerKind(app: app.name, intent: intent)
                            let handler: String, command: [String]?
                            switch kind {
                            case .builtIn: (handler, command) = ("built-in", nil)
                            case .swift: (handler, command) = ("swift", nil)
                            case .extensionCommand(let words): (handler, command) = ("extension", words)
                            case .none: (handler, command) = ("none", nil)
                            }
                            return .init(name: intent, domain: app.description(of: intent)?.domain ?? "unknown",
                                         custom: app.customIntents[intent] != nil, handler: handler, command: command)
                        }
                        let entry = Entry(name: app.name, displayName: app.info.displayName, folder: app.folder,
                                          authorization: statuses[app.name]?.rawValue ?? "not authorized",
                                          usageDescription: app.info.usageDescription, intents: intents,
                                          examples: app.examplePhrases)
                        if json {
                            try Output.line(String(decoding: try encoder.encode(entry), as: UTF8.self))
                            continue
                        }
                        try Output.line(escapingControlCharacters("\(entry.displayName)  [\(entry.authorization)]  \(entry.folder)"))
                        if let usage = entry.usageDescription { try Output.line("  " + escapingControlCharacters(usage)) }
                        for intent in app.intents {
                            let own = app.customIntents[intent] != nil ? " (the app's own)" : ""
                            try Output.line("  \(intent)\(own): \(installed.handlerKind(app: app.name, intent: intent))")
                        }
                    }
                }
            }
        }

        struct Authorize: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Allow an app to work with Hark (shows what the app says it uses Hark for).")
            @Argument(help: "The app's name.", completion: .custom { arguments, _, _ in Suggestions.installedAppNames(arguments) }) var app: String
            @OptionGroup var location: Location

            func run() async throws {
                try await Self.reportingErrors {
                    let (apps, store) = try location.load()
                    let found = try location.app(named: app, in: apps)
                    let name = escapingControlCharacters(found.info.displayName)
                    try Output.line("\(name) would like to use Hark.")
                    try Output.line("  " + escapingControlCharacters(found.info.usageDescription ?? "(the app does not say why: it has no NSSiriUsageDescription)"))
                    try store.set(.authorized, for: found.name)
                    try Output.line("\(name) is now authorized.")
                }
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Stop an app from working with Hark.")
            @Argument(help: "The app's name.", completion: .custom { arguments, _, _ in Suggestions.installedAppNames(arguments) }) var app: String
            @OptionGroup var location: Location

            func run() async throws {
                try await Self.reportingErrors {
                    let (apps, store) = try location.load()
                    let found = try location.app(named: app, in: apps)
                    try store.set(.denied, for: found.name)
                    try Output.line("\(escapingControlCharacters(found.info.displayName)) can no longer work with Hark.")
                }
            }
        }
    }
}
