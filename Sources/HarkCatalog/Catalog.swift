import Foundation
import HarkGrammar
import HarkIntents
import HarkText

/// An installed app: its folder, `Info.plist`, app vocabulary and
/// custom-intent grammars.
public struct InstalledApp: Sendable {
    public var folder: String
    /// The `Info.plist`, localised by `<lang>.lproj/InfoPlist.strings`.
    public var info: AppInfo
    /// `<lang>.lproj/AppIntentVocabulary.plist`, when the app has one.
    public var vocabulary: AppIntentVocabulary?
    /// The app's own grammars (`*.hark` in its folder): custom intents,
    /// routed to this app whether or not its name is said.
    public var grammars: [GrammarFile] = []
    /// The app's own intents (those its grammars define) as the engine
    /// drives them, from its `HarkIntents` declarations
    /// (``describeCustomIntents()``); filled by ``Catalog/load(appsDirectory:domainsDirectory:language:)``.
    public var customIntents: [String: IntentDescription] = [:]

    public init(folder: String, info: AppInfo, vocabulary: AppIntentVocabulary? = nil, grammars: [GrammarFile] = []) {
        self.folder = folder
        self.info = info
        self.vocabulary = vocabulary
        self.grammars = grammars
    }

    /// Every intent the app offers: its SiriKit intents (`IntentsSupported`)
    /// and its own, in that order.
    public var intents: [String] {
        var result = info.intentsSupported
        for name in customIntents.keys.sorted() where !result.contains(name) { result.append(name) }
        return result
    }

    /// How the engine drives `intent` for this app: the app's own
    /// declaration, or the SiriKit domain's.
    public func description(of intent: String) -> IntentDescription? {
        customIntents[intent] ?? Domains.all[intent]
    }

    /// Example requests, as the app gives them (`IntentPhrases` in its
    /// `AppIntentVocabulary.plist`), for "What can … do?".
    public var examplePhrases: [String] {
        vocabulary?.intentPhrases.flatMap(\.examples) ?? []
    }

    /// The app's identity: `CFBundleName`.
    public var name: String { info.bundleName }

    /// The names a person may call the app by, as grammar words: the display
    /// name, each alternative name, and each pronunciation hint's pieces
    /// (so "list oh mat" is heard as the app, through the pieces' phones).
    public var spokenNames: [[String]] {
        var names = [SpokenForm.words(of: info.displayName)]
        for alternative in info.alternativeNames {
            for spelling in [alternative.name, alternative.pronunciationHint].compactMap({ $0 }) {
                let words = SpokenForm.words(of: spelling)
                if !names.contains(words) { names.append(words) }
            }
        }
        return names.filter { !$0.isEmpty }
    }
}

/// The installed apps, the domain grammars and the user's vocabulary: what
/// compiles into the intent graph.
///
/// Every `<app>` in a grammar becomes the slot ``appSlot`` whose value is
/// the app's bundle name, so a parse tells whether the app was named; the
/// assistant routes unnamed requests (see `Assistant.read`).
public struct Catalog: Sendable {
    public var apps: [InstalledApp]
    /// Built-in SiriKit domain grammars.
    public var domains: [GrammarFile]
    /// User vocabulary: app → vocabulary type → strings, most important first.
    public var userVocabulary: [String: [String: [String]]] = [:]
    /// Rules and lists every domain grammar shares (from `_*.hark` files in
    /// the domains folder: numbers, amounts, times, attribute names).
    public var common = GrammarFile(path: "<common>")

    /// The slot `<app>` fills with the app's bundle name when the request
    /// names it. Not an intent parameter.
    public static let appSlot = "@app"

    /// The slot `<app>` fills instead when the request names an app that
    /// is not installed ("… on Venmo"), with that app's name: a parse with
    /// it is no request for any installed app. Its values are the shared
    /// grammar's list ``otherAppList``, less the installed apps' names.
    public static let otherAppSlot = "@otherApp"

    /// The shared grammar's list of apps people name that may not be
    /// installed (`list otherApp:` in `models/domains/_common.hark`).
    public static let otherAppList = "otherApp"

    public init(apps: [InstalledApp], domains: [GrammarFile]) {
        self.apps = apps
        self.domains = domains
    }

    /// The app that takes requests naming no app when several could
    /// (`HarkDefaultApp` in its `Info.plist`).
    public var defaultApp: String? { apps.first { $0.info.isDefaultApp }?.name }

    /// The app called `name` (bundle name).
    public func app(named name: String) -> InstalledApp? { apps.first { $0.name == name } }

    /// Loads every app folder under `appsDirectory` (each with an
    /// `Info.plist`, and optionally `<language>.lproj/AppIntentVocabulary.plist`
    /// and `<language>.lproj/InfoPlist.strings`) and every `*.hark` grammar
    /// under `domainsDirectory`.
    ///
    /// - Throws: ``CatalogError`` or ``GrammarError`` naming the file at fault.
    public static func load(appsDirectory: String, domainsDirectory: String, language: String = "en") throws -> Catalog {
        let fm = FileManager.default
        guard let appNames = try? fm.contentsOfDirectory(atPath: appsDirectory) else {
            throw CatalogError("\(appsDirectory): cannot read the apps folder (pass --apps DIR)")
        }
        var apps: [InstalledApp] = []
        for name in appNames.sorted() {
            let folder = (appsDirectory as NSString).appendingPathComponent(name)
            let plist = (folder as NSString).appendingPathComponent("Info.plist")
            guard fm.fileExists(atPath: plist) else { continue }
            var app = try loadApp(folder: folder, language: language)
            if let other = apps.first(where: { $0.name == app.name }) {
                throw CatalogError("\(plist): CFBundleName: '\(app.name)' is already the name of the app in \(other.folder)")
            }
            // A second app may not pass itself off as another by taking its
            // name as its display name ("MonkeyPay"), spelled in any case.
            let names = Set([app.name, app.info.displayName].map { $0.lowercased() })
            if let other = apps.first(where: { !names.isDisjoint(with: [$0.name, $0.info.displayName].map { $0.lowercased() }) }) {
                let otherNames = Set([other.name, other.info.displayName].map { $0.lowercased() })
                let taken = [app.name, app.info.displayName].first { otherNames.contains($0.lowercased()) } ?? app.info.displayName
                throw CatalogError("\(plist): the name '\(taken)' is also the name of the app in \(other.folder); each installed app needs its own CFBundleName and CFBundleDisplayName")
            }
            app.grammars = try loadGrammars(in: folder)
            app.customIntents = try app.describeCustomIntents()
            apps.append(app)
        }
        let defaults = apps.filter(\.info.isDefaultApp)
        if defaults.count > 1 {
            throw CatalogError("\(defaults[1].folder)/Info.plist: HarkDefaultApp: \(defaults.map(\.name).joined(separator: " and ")) both claim to be the default app; keep it on one")
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

    /// Reads one app folder's plists (not its grammars).
    public static func loadApp(folder: String, language: String = "en") throws -> InstalledApp {
        let fm = FileManager.default
        var info = try AppInfo(contentsOf: (folder as NSString).appendingPathComponent("Info.plist"))
        let lproj = (folder as NSString).appendingPathComponent("\(language).lproj")
        let stringsPath = (lproj as NSString).appendingPathComponent("InfoPlist.strings")
        try checkNames(info, in: (folder as NSString).appendingPathComponent("Info.plist"))
        if fm.fileExists(atPath: stringsPath) {
            info = info.localized(with: try PropertyListFile.strings(at: stringsPath))
            try checkNames(info, in: stringsPath)
        }
        let vocabularyPath = (lproj as NSString).appendingPathComponent("AppIntentVocabulary.plist")
        let vocabulary = fm.fileExists(atPath: vocabularyPath) ? try AppIntentVocabulary(contentsOf: vocabularyPath) : nil
        return InstalledApp(folder: folder, info: info, vocabulary: vocabulary)
    }

    /// Refuses names a person would be misled by: control characters,
    /// bidirectional overrides and zero-width characters make one app's name
    /// look like another's, or scramble the terminal.
    static func checkNames(_ info: AppInfo, in path: String) throws {
        var names = [("CFBundleName", info.bundleName), ("CFBundleDisplayName", info.displayName)]
        for (i, alternative) in info.alternativeNames.enumerated() {
            names.append(("INAlternativeAppNames[\(i)].INAlternativeAppName", alternative.name))
            if let hint = alternative.pronunciationHint {
                names.append(("INAlternativeAppNames[\(i)].INAlternativeAppNamePronunciationHint", hint))
            }
        }
        for (key, value) in names {
            if let bad = firstDisallowedNameCharacter(in: value) {
                throw CatalogError("\(path): \(key): '\(escapingDisallowedNameCharacters(value))' contains \(scalarName(bad)); a name may not hold control, bidirectional-override or zero-width characters")
            }
        }
    }

    /// Every `*.hark` file in `folder`, parsed, in name order.
    static func loadGrammars(in folder: String) throws -> [GrammarFile] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw CatalogError("\(folder): cannot read the folder")
        }
        var grammars: [GrammarFile] = []
        for name in names.sorted() where name.hasSuffix(".hark") {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw CatalogError("\(path): is a folder, not a grammar file; a name ending in .hark is read as a grammar, so rename the folder")
            }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CatalogError("\(path): cannot read the file as UTF-8 text")
            }
            grammars.append(try GrammarParser.parse(text, path: path))
        }
        return grammars
    }

    /// Replaces the user's vocabulary of one type for an app, most important
    /// first. An empty list removes the type.
    public mutating func setVocabulary(_ strings: [String], type: String, app: String) {
        userVocabulary[app, default: [:]][type] = strings.isEmpty ? nil : strings
        if userVocabulary[app]?.isEmpty == true { userVocabulary[app] = nil }
    }

    /// Removes all of an app's user vocabulary.
    public mutating func removeVocabulary(app: String) {
        userVocabulary[app] = nil
    }

    /// The grammars as they apply to each app.
    public func grammarInstances() -> [GrammarInstance] {
        var instances: [GrammarInstance] = []
        let location = SourceLocation(file: "<app names>", line: 1, column: 1)
        let others = otherApps()
        for app in apps {
            let names = GrammarExpression.alternatives(app.spokenNames.map { .sequence($0.map(GrammarExpression.word)) })
            // `<other_app>`: where a grammar lets a request name an app
            // that is not installed (the shared `<via>`); nothing to hear
            // when every app listed is installed. The sentence ends there
            // (any words may follow): it is no request, whatever follows.
            let rules: [String: GrammarExpression] = [
                "app": .slot(Self.appSlot, location),
                "other_app": others == nil ? .alternatives([]) : .slot(Self.otherAppSlot, location),
            ]
            for grammar in app.grammars {
                instances.append(GrammarInstance(
                    app: app.name, grammar: grammar, externalRules: rules,
                    externalLists: lists(for: app, grammar: grammar, intents: nil, names: names, others: others),
                    terminalSlots: [Self.otherAppSlot]))
            }
            for domain in domains {
                let supported = Set(domain.intents.map(\.name)).intersection(app.info.intentsSupported)
                guard !supported.isEmpty else { continue }
                instances.append(GrammarInstance(
                    app: app.name, grammar: domain, intents: supported, externalRules: rules,
                    externalLists: lists(for: app, grammar: domain, intents: supported, names: names, others: others),
                    terminalSlots: [Self.otherAppSlot]))
            }
        }
        return instances
    }

    /// The lists `grammar` takes from outside for `app`: the app's names,
    /// the user's vocabulary by type, and the app's vocabulary for each
    /// parameter (under the list the parameter's slot reads). User
    /// vocabulary comes first: it is the more specific.
    func lists(for app: InstalledApp, grammar: GrammarFile, intents: Set<String>?, names: GrammarExpression,
               others: GrammarExpression? = nil) -> [String: GrammarExpression] {
        var values: [String: [GrammarExpression]] = [:]
        // Every vocabulary-typed slot gets a list, empty when the user has
        // none yet, so an app without contacts still loads. A built-in type
        // (`currency`, `time`, …) is no vocabulary: an empty list under its
        // name would hide it, and the slot would match nothing.
        for (_, source) in grammar.slots {
            if case .list(let list) = source, grammar.lists[list] == nil, SpokenValueType(rawValue: list) == nil {
                values[list] = []
            }
        }
        for (type, strings) in userVocabulary[app.name] ?? [:] {
            values[type, default: []].append(contentsOf: Self.values(strings))
        }
        for entry in app.vocabulary?.parameterVocabularies ?? [] {
            for parameter in entry.parameters {
                guard intents?.contains(parameter.intent) ?? true,
                      grammar.intents.contains(where: { $0.name == parameter.intent }) else { continue }
                let list: String
                if case .list(let name) = grammar.slots[parameter.name] { list = name } else { list = parameter.name }
                guard grammar.lists[list] == nil else { continue }
                values[list, default: []].append(contentsOf: Self.values(entry.items))
            }
        }
        var result = values.mapValues { Self.deduplicated($0) }
        result[Self.appSlot] = .value(spoken: names, canonical: app.name)
        if let others { result[Self.otherAppSlot] = others }
        return result
    }

    /// The apps of the shared grammar's ``otherAppList`` that are not
    /// installed, as values of ``otherAppSlot``: nil when there are none.
    /// One whose spoken name or name is an installed app's is left out, so
    /// installing Venmo makes "on Venmo" a request for it.
    func otherApps() -> GrammarExpression? {
        guard case .alternatives(let values)? = common.lists[Self.otherAppList] else { return nil }
        let installed = Set(apps.flatMap(\.spokenNames))
        let installedNames = Set(apps.flatMap { [$0.name, $0.info.displayName] }.map { $0.lowercased() })
        let kept = values.filter { value in
            guard case .value(let spoken, let canonical) = value else { return false }
            return !installed.contains(Self.spokenWords(spoken)) && !installedNames.contains(canonical.lowercased())
        }
        return kept.isEmpty ? nil : .alternatives(kept)
    }

    /// The lists an answer to one of `app`'s questions may take: the
    /// domains' shared lists, the app's grammars' own lists, and its app
    /// and user vocabulary by list name.
    public func answerLists(app name: String) -> [String: GrammarExpression] {
        var result = common.lists
        guard let app = app(named: name) else { return result }
        let names = GrammarExpression.alternatives(app.spokenNames.map { .sequence($0.map(GrammarExpression.word)) })
        for grammar in app.grammars {
            result.merge(grammar.lists) { _, own in own }
            result.merge(lists(for: app, grammar: grammar, intents: nil, names: names)) { _, supplied in supplied }
        }
        result[Self.appSlot] = nil
        return result
    }

    /// Compiles every app's grammars into one graph.
    public func compile() throws -> IntentGraph {
        try GrammarCompiler.compile(grammarInstances())
    }

    /// A list whose values are spoken as the strings' words and stand for
    /// the strings. When two strings are spoken the same ("Bobo Jr." and
    /// "Bobo Junior"), only the first — the more important — is kept, so
    /// the order decides the tie deterministically.
    public static func valueList(_ strings: [String]) -> GrammarExpression {
        deduplicated(values(strings))
    }

    static func values(_ strings: [String]) -> [GrammarExpression] {
        strings.compactMap { string in
            let words = SpokenForm.words(of: string)
            guard !words.isEmpty else { return nil }
            return .value(spoken: .sequence(words.map(GrammarExpression.word)), canonical: string)
        }
    }

    /// App vocabulary items as values: each synonym's phrase and
    /// pronunciation hint, standing for the item's identifier.
    static func values(_ items: [AppIntentVocabulary.Item]) -> [GrammarExpression] {
        items.flatMap { item in
            item.synonyms.flatMap { synonym in
                [synonym.phrase, synonym.pronunciation].compactMap { $0 }.compactMap { spelling -> GrammarExpression? in
                    let words = SpokenForm.words(of: spelling)
                    guard !words.isEmpty else { return nil }
                    return .value(spoken: .sequence(words.map(GrammarExpression.word)), canonical: item.identifier)
                }
            }
        }
    }

    /// Keeps the first value of each spoken form, and ranks the rest by order.
    static func deduplicated(_ values: [GrammarExpression]) -> GrammarExpression {
        var seen = Set<[String]>()
        return ranked(values.filter { value in
            guard case .value(let spoken, _) = value else { return true }
            return seen.insert(spokenWords(spoken)).inserted
        })
    }

    /// Alternatives whose prior falls with their rank, so that of two
    /// entries that sound alike ("Koko" and "Coco") the recognizer hears the
    /// earlier, more important one.
    ///
    /// The recognizer's grammar splits each state's probability equally
    /// among its arcs, so rank is expressed by structure: the entries are
    /// grouped in tiers of 1, 1, 2, 4, 8, ... (a short last tier joins the
    /// one before), each tier after the first behind a two-way split of
    /// empty paths that halves it. An entry of a tier of size s then has a
    /// prior of 1 / (tiers · 2 · s) — Zipf-like, about 1/rank, so a long
    /// list's last entries are not buried — and the first entry twice the
    /// second's. The text parser ignores the structure.
    static func ranked(_ values: [GrammarExpression]) -> GrammarExpression {
        guard values.count > 1 else { return .alternatives(values) }
        // Tiers of 1, 1, 2, 4, 8, ...; a last tier shorter than the one
        // before joins it, so no entry outranks an earlier one.
        var tiers: [[GrammarExpression]] = [[values[0]]]
        var index = 1
        var size = 1
        while index < values.count {
            let end = min(values.count, index + size)
            tiers.append(Array(values[index..<end]))
            index = end
            size *= 2
        }
        if tiers.count > 2, tiers[tiers.count - 1].count < tiers[tiers.count - 2].count {
            let last = tiers.removeLast()
            tiers[tiers.count - 1] += last
        }
        let halve = GrammarExpression.alternatives([.sequence([]), .sequence([])])
        return .alternatives([tiers[0][0]] + tiers.dropFirst().map { tier in
            .sequence([halve, .alternatives(tier)])
        })
    }

    private static func spokenWords(_ expression: GrammarExpression) -> [String] {
        switch expression {
        case .word(let w): return [w]
        case .sequence(let items): return items.flatMap(spokenWords)
        default: return ["\(expression)"]
        }
    }
}
