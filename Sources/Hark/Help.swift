import HarkCatalog
import HarkGrammar
import HarkIntents

/// "What can you do?" and "What can MonkeyChat do?": Hark's own intents,
/// answered from the installed apps and their example requests.
enum Help {
    static let app = "Hark"
    static let overview = "HarkWhatCanYouDo"
    static let appHelp = "HarkWhatCanAppDo"

    /// The grammar of Hark's own questions, naming every installed app.
    static func instance(apps: [InstalledApp]) throws -> GrammarInstance {
        var file = GrammarFile(path: "<hark help>")
        file.lists["appName"] = .alternatives(apps.flatMap { app in
            app.spokenNames.map { GrammarExpression.value(spoken: .sequence($0.map(GrammarExpression.word)), canonical: app.name) }
        })
        file.slots["app"] = .list("appName")
        func sentence(_ text: String) throws -> GrammarExpression { try GrammarParser.parseExpression(text, path: "<hark help>") }
        let location = SourceLocation(file: "<hark help>", line: 1, column: 1)
        file.intents.append(IntentDefinition(name: overview, sentences: [
            try sentence("what can you do [for me] | what do you do | help [me] | what can i (say | ask [you]) | which apps (can you use | do you know | work with you)"),
        ], location: location))
        if !apps.isEmpty {
            file.intents.append(IntentDefinition(name: appHelp, sentences: [
                try sentence("what can [i do with] {app} do | what can i (say | ask) {app} | what can i do (with | in) {app} | help [me] with {app} | how do i use {app}"),
            ], location: location))
        }
        return GrammarInstance(app: app, grammar: file)
    }

    /// The example requests for `app`: its own (`IntentPhrases` in its
    /// `AppIntentVocabulary.plist`) first, then the examples of each intent
    /// it offers that has none there (the SiriKit domains' examples, an own
    /// intent's declared ones), one per intent.
    static func examples(for app: InstalledApp) -> [String] {
        var examples = app.examplePhrases
        let covered = Set(app.vocabulary?.intentPhrases.filter { !$0.examples.isEmpty }.map(\.intentName) ?? [])
        for intent in app.intents where !covered.contains(intent) {
            guard let example = app.description(of: intent)?.examples.first else { continue }
            examples.append(example.replacingOccurrences(of: "{app}", with: app.info.displayName))
        }
        return examples
    }

    /// What the app does, as short phrases ("send a message", ...).
    static func abilities(of app: InstalledApp) -> [String] {
        app.intents.compactMap { app.description(of: $0)?.summary }.compactMap { ability(summary: $0) }
    }

    /// An intent's one-line summary as what a person can do: "Sends a
    /// message to a contact." → "send a message to a contact"; with
    /// `firstClause`, only up to the first comma or parenthesis ("Finds
    /// messages, optionally from one sender …" → "find messages"). Nil for
    /// an empty summary.
    static func ability(summary: String, firstClause: Bool = false) -> String? {
        var text = summary
        if firstClause, let cut = text.firstIndex(where: { $0 == "," || $0 == "(" || $0 == ";" }) { text = String(text[..<cut]) }
        text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix(".") { text.removeLast() }
        var words = text.split(separator: " ").map(String.init)
        guard let first = words.first else { return nil }
        words[0] = baseForm(of: first.lowercased())
        return words.joined(separator: " ")
    }

    /// "sends" → "send", "searches" → "search", "carries" → "carry",
    /// "does" → "do"; a word not in the third person ("order") as it is.
    static func baseForm(of verb: String) -> String {
        switch verb {
        case "does": return "do"
        case "goes": return "go"
        case "has": return "have"
        case "is": return "be"
        default: break
        }
        if verb.hasSuffix("ies"), verb.count > 4 { return String(verb.dropLast(3)) + "y" }
        for ending in ["ches", "shes", "sses", "xes", "zes"] where verb.hasSuffix(ending) { return String(verb.dropLast(2)) }
        if verb.hasSuffix("s"), !verb.hasSuffix("ss"), !verb.hasSuffix("us"), verb.count > 2 { return String(verb.dropLast()) }
        return verb
    }

    /// The answer to "What can you do?".
    static func overviewSpeech(apps: [InstalledApp]) -> String {
        guard !apps.isEmpty else { return "No apps are installed yet, so there's nothing I can do for you." }
        let names = apps.map(\.info.displayName)
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        let examples = apps.compactMap { Help.examples(for: $0).first }.prefix(3).map { "“\($0)”" }
        guard !examples.isEmpty else {
            return "I can work with \(list). Ask me what " + (names.count == 1 ? "\(list) can do." : "one of them can do.")
        }
        return "I can work with \(list). For example, say " + examples.joined(separator: ", or ") + "."
    }

    /// The answer to "What can MonkeyChat do?".
    static func appSpeech(_ app: InstalledApp) -> String {
        let abilities = Help.abilities(of: app)
        guard !abilities.isEmpty else { return "\(app.info.displayName) doesn't offer anything to Hark yet." }
        let list = abilities.count == 1 ? abilities[0] : abilities.dropLast().joined(separator: "; ") + "; and " + abilities.last!
        let examples = Help.examples(for: app).prefix(4).map { "“\($0)”" }
        guard !examples.isEmpty else { return "With \(app.info.displayName) you can: \(list)." }
        return "With \(app.info.displayName) you can: \(list). Try " + examples.joined(separator: ", ") + "."
    }
}
