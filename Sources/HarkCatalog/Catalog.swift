import Foundation
import HarkGrammar

/// An installed app: its folder, `Info.plist` and custom-intent grammars.
public struct InstalledApp: Sendable {
    public var folder: String
    public var info: AppInfo
    /// The app's own grammars (`*.hark` in its folder): custom intents,
    /// routed to this app whether or not its name is said.
    public var grammars: [GrammarFile] = []

    public var name: String { info.bundleName }

    /// The names a person may call the app by, as grammar words: the display
    /// name and each alternative name.
    public var spokenNames: [[String]] {
        var names = [SpokenForm.words(of: info.displayName)]
        for alternative in info.alternativeNames {
            let words = SpokenForm.words(of: alternative.name)
            if !names.contains(words) { names.append(words) }
        }
        return names.filter { !$0.isEmpty }
    }
}

/// The installed apps, the domain grammars and the user's vocabulary: what
/// compiles into the intent graph.
public struct Catalog: Sendable {
    public var apps: [InstalledApp]
    /// Built-in SiriKit domain grammars.
    public var domains: [GrammarFile]
    /// User vocabulary: app → vocabulary type → strings, most important first.
    public var userVocabulary: [String: [String: [String]]] = [:]
    /// Rules and lists every domain grammar shares (from `_*.hark` files in
    /// the domains folder: numbers, amounts, times, attribute names).
    public var common = GrammarFile(path: "<common>")

    public init(apps: [InstalledApp], domains: [GrammarFile]) {
        self.apps = apps
        self.domains = domains
    }

    /// Loads every app folder under `appsDirectory` (each with an
    /// `Info.plist`) and every `*.hark` grammar under `domainsDirectory`.
    ///
    /// - Throws: ``CatalogError`` or ``GrammarError`` naming the file at fault.
    public static func load(appsDirectory: String, domainsDirectory: String) throws -> Catalog {
        let fm = FileManager.default
        guard let appNames = try? fm.contentsOfDirectory(atPath: appsDirectory) else {
            throw CatalogError("\(appsDirectory): cannot read the apps folder (pass --apps DIR)")
        }
        var apps: [InstalledApp] = []
        for name in appNames.sorted() {
            let folder = (appsDirectory as NSString).appendingPathComponent(name)
            let plist = (folder as NSString).appendingPathComponent("Info.plist")
            guard fm.fileExists(atPath: plist) else { continue }
            var app = InstalledApp(folder: folder, info: try AppInfo(contentsOf: plist))
            app.grammars = try loadGrammars(in: folder)
            apps.append(app)
        }
        guard fm.fileExists(atPath: domainsDirectory) else {
            throw CatalogError("\(domainsDirectory): cannot read the domain grammars folder")
        }
        var domains: [GrammarFile] = []
        var common = GrammarFile(path: "<common>")
        for grammar in try loadGrammars(in: domainsDirectory) {
            guard (grammar.path as NSString).lastPathComponent.hasPrefix("_") else {
                domains.append(grammar)
                continue
            }
            common.rules.merge(grammar.rules) { first, _ in first }
            common.lists.merge(grammar.lists) { first, _ in first }
            common.slots.merge(grammar.slots) { first, _ in first }
        }
        // Each domain grammar sees the shared rules and lists unless it
        // defines its own of the same name.
        for i in domains.indices {
            domains[i].rules.merge(common.rules) { own, _ in own }
            domains[i].lists.merge(common.lists) { own, _ in own }
            domains[i].slots.merge(common.slots) { own, _ in own }
        }
        var catalog = Catalog(apps: apps, domains: domains)
        catalog.common = common
        return catalog
    }

    /// Every `*.hark` file in `folder`, parsed, in name order.
    static func loadGrammars(in folder: String) throws -> [GrammarFile] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw CatalogError("\(folder): cannot read the folder")
        }
        var grammars: [GrammarFile] = []
        for name in names.sorted() where name.hasSuffix(".hark") {
            let path = (folder as NSString).appendingPathComponent(name)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CatalogError("\(path): cannot read the file as UTF-8 text")
            }
            grammars.append(try GrammarParser.parse(text, path: path))
        }
        return grammars
    }

    /// Replaces the user's vocabulary of one type for an app, most important first.
    public mutating func setVocabulary(_ strings: [String], type: String, app: String) {
        userVocabulary[app, default: [:]][type] = strings
    }

    /// The grammars as they apply to each app.
    public func grammarInstances() -> [GrammarInstance] {
        var instances: [GrammarInstance] = []
        for app in apps {
            let names = GrammarExpression.alternatives(app.spokenNames.map { .sequence($0.map(GrammarExpression.word)) })
            var lists: [String: GrammarExpression] = [:]
            for (type, strings) in userVocabulary[app.name] ?? [:] {
                lists[type] = Self.valueList(strings)
            }
            for grammar in app.grammars {
                instances.append(GrammarInstance(
                    app: app.name, grammar: grammar, externalRules: ["app": names], externalLists: lists))
            }
            for domain in domains {
                let supported = Set(domain.intents.map(\.name)).intersection(app.info.intentsSupported)
                guard !supported.isEmpty else { continue }
                // A vocabulary type the app has not registered (no photo
                // albums yet) leaves those sentences unreachable, not broken.
                var domainLists = lists
                for case .list(let type) in domain.slots.values where domain.lists[type] == nil && domainLists[type] == nil {
                    domainLists[type] = .alternatives([])
                }
                instances.append(GrammarInstance(
                    app: app.name, grammar: domain, intents: supported,
                    externalRules: ["app": names], externalLists: domainLists))
            }
        }
        return instances
    }

    /// Compiles every app's grammars into one graph.
    public func compile() throws -> IntentGraph {
        try GrammarCompiler.compile(grammarInstances())
    }

    /// A list whose values are spoken as the strings' words and stand for the strings.
    public static func valueList(_ strings: [String]) -> GrammarExpression {
        .alternatives(strings.compactMap { string in
            let words = SpokenForm.words(of: string)
            guard !words.isEmpty else { return nil }
            return .value(spoken: .sequence(words.map(GrammarExpression.word)), canonical: string)
        })
    }
}
