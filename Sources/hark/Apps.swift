import ArgumentParser
import Foundation
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

            func load() throws -> (apps: [InstalledApp], store: AuthorizationStore) {
                let catalog = try Catalog.load(appsDirectory: appsDirectory,
                                               domainsDirectory: (Resources.modelsDirectory() as NSString).appendingPathComponent("domains"))
                return (catalog.apps, try AuthorizationStore(dataDirectory: dataDirectory, preauthorized: SampleApps.appNames))
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
            static let configuration = CommandConfiguration(abstract: "List the installed apps, their intents and authorization.")
            @OptionGroup var location: Location

            func run() async throws {
                try await Self.reportingErrors {
                    let (apps, store) = try location.load()
                    let statuses = try store.statuses()
                    for app in apps {
                        let status = statuses[app.name]?.rawValue ?? "not authorized"
                        print("\(app.info.displayName)  [\(status)]")
                        if let usage = app.info.usageDescription { print("  \(usage)") }
                        print("  intents: \(app.info.intentsSupported.joined(separator: ", "))")
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
                    print("\(found.info.displayName) would like to use Hark.")
                    print("  \(found.info.usageDescription ?? "(the app does not say why: it has no NSSiriUsageDescription)")")
                    try store.set(.authorized, for: found.name)
                    print("\(found.info.displayName) is now authorized.")
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
                    print("\(found.info.displayName) can no longer work with Hark.")
                }
            }
        }
    }
}
