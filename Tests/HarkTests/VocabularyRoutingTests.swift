import Foundation
import Hark
import HarkCatalog
import HarkGrammar
@testable import HarkRecognition
import HarkSampleApps
import Testing

/// Test grammars for the seed apps' intents, standing in for the domain
/// grammars until they exist, so that what the plists teach can be heard.
private let seedGrammars = """
    slot workoutName: workoutActivityName
    slot title: notebookItemTitle
    slot note: text

    intent INStartWorkoutIntent:
        start [a | an | my] {workoutName} [workout] [in <app> | with <app> | on <app>]

    intent INSearchForNotebookItemsIntent:
        [in <app>] show [me] [the | my] {title} [in <app>]

    intent INCreateNoteIntent:
        create a note in <app> saying {note}
    """

/// A domains folder with the real messaging grammar and the seed grammars.
private func seedDomains() throws -> String {
    let dir = try temporaryDirectory("domains")
    // messaging.hark uses the shared rules of _common.hark (<please>, ...).
    for file in ["messaging.hark", "_common.hark"] {
        try FileManager.default.copyItem(atPath: Repo.models + "/domains/" + file, toPath: dir.appendingPathComponent(file).path)
    }
    try Data(seedGrammars.utf8).write(to: dir.appendingPathComponent("seeds.hark"))
    return dir.path
}

/// An apps folder with MonkeyChat and `extra` apps (name → Info.plist keys).
private func appsFolder(_ extra: [String: [String: Any]]) throws -> String {
    let dir = try temporaryDirectory("apps")
    try FileManager.default.copyItem(atPath: Repo.models + "/apps/MonkeyChat", toPath: dir.appendingPathComponent("MonkeyChat").path)
    for (name, keys) in extra {
        let folder = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: keys, format: .xml, options: 0)
            .write(to: folder.appendingPathComponent("Info.plist"))
    }
    return dir.path
}

private var chimpChat: [String: Any] { [
    "CFBundleName": "ChimpChat", "CFBundleDisplayName": "ChimpChat",
    "INAlternativeAppNames": [["INAlternativeAppName": "Chimpy"]],
    "IntentsSupported": ["INSendMessageIntent"],
] }

/// An assistant over `apps` whose messaging apps all use MonkeyChat's handler and contacts.
private func assistant(apps: String, data: URL? = nil, recognizer: Bool = false) throws -> Assistant {
    let data = try data ?? temporaryDirectory("data")
    let catalog = try Catalog.load(appsDirectory: apps, domainsDirectory: try seedDomains())
    let samples = try SampleApps(dataDirectory: data)
    var handlers = samples.handlers
    for app in catalog.apps where app.info.intentsSupported.contains("INSendMessageIntent") {
        handlers[IntentKey(app: app.name, intent: "INSendMessageIntent")] = samples.handlers[IntentKey(app: MonkeyChat.appName, intent: "INSendMessageIntent")]
    }
    let store = try UserVocabularyStore(dataDirectory: data)
    try store.seed(Dictionary(uniqueKeysWithValues: catalog.apps.map { ($0.name, ["contactName": MonkeyChat.defaultContacts]) }))
    return try Assistant(catalog: catalog, handlers: handlers, decoder: recognizer ? sharedDecoder : nil,
                         dictation: try Resources.dictation(modelsDirectory: Repo.models), vocabularyStore: store,
                         configuration: patient)
}

@Suite("App names gate requests")
struct AppRoutingTests {
    @Test("a named app takes the request wherever its name stands, display or alternative name", arguments: [
        ("Send a message to Bobo on MonkeyChat saying these were great bananas", "MonkeyChat"),
        ("MonkeyChat Bobo these were great bananas", "MonkeyChat"),
        ("Tell Bobo with ChimpChat these were great bananas", "ChimpChat"),
        ("Send a message to Bobo using Chimpy saying hello", "ChimpChat"),
        ("Chimpy Bobo the Great see you at the tree", "ChimpChat"),
    ])
    func named(text: String, app: String) async throws {
        let turn = await (try assistant(apps: try appsFolder(["ChimpChat": chimpChat]))).read(text)
        #expect(turn.app == app && turn.intent == "INSendMessageIntent", "\(turn)")
        // Read back before it is sent.
        #expect(turn.code == "prompt" && turn.speech.hasPrefix("Your message to Bobo"), "\(turn.speech)")
        #expect(!turn.speech.hasPrefix("\(app):"), "a named app needs no introduction")
        #expect(turn.slots[Catalog.appSlot] == nil, "the app's name is not a parameter")
    }

    @Test("no app named and several could take it: Hark asks which, and delivers nothing")
    func whichApp() async throws {
        let data = try temporaryDirectory()
        let assistant = try assistant(apps: try appsFolder(["ChimpChat": chimpChat]), data: data)
        let turn = await assistant.read("Send a message to Bobo saying these were great bananas")
        #expect(turn.code == "whichApp")
        #expect(turn.app == nil)
        #expect(turn.speech == "Which app? ChimpChat or MonkeyChat?")
        let sent = await (try SampleApps(dataDirectory: data)).monkeyChat.sentMessages()
        #expect(sent.isEmpty, "nothing was sent")
    }

    @Test("no app named and only one app can take it: it goes there, and the answer says which app")
    func onlyApp() async throws {
        // A second app, which cannot send messages.
        let caller: [String: Any] = ["CFBundleName": "ChimpCall", "IntentsSupported": ["INStartAudioCallIntent"]]
        let assistant = try assistant(apps: try appsFolder(["ChimpCall": caller]))
        let readBack = await assistant.read("Send a message to Bobo saying these were great bananas")
        #expect(readBack.app == "MonkeyChat" && readBack.code == "prompt")
        #expect(readBack.speech == "MonkeyChat: Your message to Bobo says: these were great bananas. Ready to send it?")
        // Named once, at the first answer.
        let turn = await assistant.read("yes")
        #expect(turn.app == "MonkeyChat" && turn.code == "success")
        #expect(turn.speech == "Your message to Bobo was sent.")
    }

    @Test("with one app installed, the answer does not name it")
    func soleApp() async throws {
        let assistant = try assistant(apps: try appsFolder([:]))
        let readBack = await assistant.read("Send a message to Bobo saying these were great bananas")
        #expect(readBack.speech == "Your message to Bobo says: these were great bananas. Ready to send it?")
        let turn = await assistant.read("yes")
        #expect(turn.app == "MonkeyChat" && turn.code == "success")
        #expect(turn.speech == "Your message to Bobo was sent.")
    }

    @Test("the device's default app (HarkDefaultApp) takes unnamed requests others could take too")
    func defaultApp() async throws {
        var chimp = chimpChat
        chimp["HarkDefaultApp"] = true
        let assistant = try assistant(apps: try appsFolder(["ChimpChat": chimp]))
        let unnamed = await assistant.read("Send a message to Bobo saying these were great bananas")
        #expect(unnamed.app == "ChimpChat" && unnamed.code == "prompt", "\(unnamed)")
        let named = await assistant.read("Send a message to Bobo on MonkeyChat saying hello")
        #expect(named.app == "MonkeyChat", "naming an app beats the default")
    }

    @Test("the Barista benchmark app routes without its name")
    func barista() async throws {
        let catalog = try Catalog.load(appsDirectory: Repo.models + "/benchmark-apps", domainsDirectory: Repo.models + "/domains")
        #expect(catalog.defaultApp == "Barista")
        let assistant = try Assistant(catalog: catalog, handlers: [:], decoder: nil,
                                      dictation: try Resources.dictation(modelsDirectory: Repo.models), configuration: patient)
        let turn = await assistant.read("can I get a large latte")
        #expect(turn.app == "Barista" && turn.intent == "orderDrink", "\(turn)")
        #expect(turn.slots["size"] == "large" && turn.slots["coffeeDrink"] == "latte")
    }

    @Test("the seed apps: alternative names, hints and app vocabulary route to the right app, intent and value", arguments: [
        ("Start a Bananarific in MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Bananarific"]),
        ("start a ba nana ri fic with MonkeyFit", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Bananarific"]),
        ("In ListOMat show the grocery list", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "Grocery"]),
        ("Show my shopping list in List-o-Mat", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "Grocery"]),
        ("in list oh mat show the banana stash", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "Banana Stash"]),
        ("Create a note in MonkeyNotes saying buy more bananas", "TasksNotes", "INCreateNoteIntent", ["note": "buy more bananas"]),
        ("create a note in MonkeyTodo saying peel the bananas", "TasksNotes", "INCreateNoteIntent", ["note": "peel the bananas"]),
    ])
    func seedApps(text: String, app: String, intent: String, slots: [String: String]) async throws {
        let assistant = try assistant(apps: Repo.models + "/apps")
        let turn = await assistant.read(text)
        #expect(turn.app == app && turn.intent == intent, "\(turn)")
        #expect(turn.slots == slots)
    }

    @Test("the apps' own example phrases parse to their app and intent wherever a grammar exists")
    func intentPhrases() throws {
        var catalog = try Catalog.load(appsDirectory: Repo.models + "/apps", domainsDirectory: try seedDomains())
        catalog.setVocabulary(MonkeyChat.defaultContacts, type: "contactName", app: MonkeyChat.appName)
        let parser = TextParser(graph: try catalog.compile())
        var checked = 0
        for app in catalog.apps {
            for phrase in app.vocabulary?.intentPhrases ?? [] {
                let hasGrammar = catalog.domains.contains { $0.intents.contains { $0.name == phrase.intentName } }
                guard hasGrammar else { continue }
                for example in phrase.examples {
                    let parse = parser.parse(example).first
                    #expect(parse?.app == app.name && parse?.intent == phrase.intentName, "\(app.name): '\(example)'")
                    checked += 1
                }
            }
        }
        #expect(checked >= 6)
    }
}

@Suite("User vocabulary in the assistant")
struct AssistantVocabularyTests {
    @Test("setVocabulary persists: a new assistant over the same data hears it; removeAll too")
    func persists() async throws {
        let data = try temporaryDirectory()
        let apps = try appsFolder([:])
        let first = try assistant(apps: apps, data: data)
        try await first.setVocabulary(["Zuzu", "Bobo"], type: "contactName", app: "MonkeyChat")
        let second = try assistant(apps: apps, data: data)
        #expect(await second.catalog.userVocabulary["MonkeyChat"] == ["contactName": ["Zuzu", "Bobo"]])
        #expect(await second.read("MonkeyChat Zuzu see you at the river").heard == "MonkeyChat Zuzu see you at the river")
        let replaced = await second.read("MonkeyChat little bobo see you")
        #expect(replaced.slots["recipients"] != "Little Bobo", "Little Bobo was replaced: \(replaced)")
        try await second.removeAllVocabulary(app: "MonkeyChat")
        let third = try assistant(apps: apps, data: data)
        #expect(await third.catalog.userVocabulary["MonkeyChat"] == nil)
        #expect(await third.read("MonkeyChat bobo see you").code == "notUnderstood", "seeding does not undo remove-all")
    }

    @Test("a change of vocabulary lets go of the old grammar's search before the new grammar is compiled and built")
    func releasesBeforeRebuilding() async throws {
        let log = GrammarLog(try PocketSphinxDecoder(model: AcousticModel()))
        let data = try temporaryDirectory()
        let catalog = try Catalog.load(appsDirectory: try appsFolder([:]), domainsDirectory: try seedDomains())
        let store = try UserVocabularyStore(dataDirectory: data)
        try store.seed(["MonkeyChat": ["contactName": MonkeyChat.defaultContacts]])
        let assistant = try Assistant(catalog: catalog, handlers: try SampleApps(dataDirectory: data).handlers, decoder: log,
                                      dictation: try Resources.dictation(modelsDirectory: Repo.models), vocabularyStore: store,
                                      configuration: patient)
        let first = try #require(log.events.first)
        #expect(log.events.map(\.call) == ["prepare"] && first.held == 1)
        try await assistant.setVocabulary(["Zuzu"] + MonkeyChat.defaultContacts, type: "contactName", app: "MonkeyChat")
        let events = log.events
        #expect(events.map(\.call) == ["prepare", "release", "prepare"], "\(events)")
        guard events.count == 3 else { return }
        // The grammar being replaced, let go of completely, before its replacement.
        #expect(events[1].grammar == first.grammar && events[1].held == 0)
        #expect(events[2].grammar != first.grammar && events[2].held == 1)
        let turn = await assistant.read("Send a message to zuzu on MonkeyChat saying hi")
        #expect(turn.app == "MonkeyChat" && turn.code != "notUnderstood", "\(turn)")
    }

    @Test("a change another process stores reaches the running assistant before its next utterance")
    func otherProcess() async throws {
        let data = try temporaryDirectory()
        let assistant = try assistant(apps: try appsFolder([:]), data: data)
        // Typed in lower case, a name is one only if the contacts have it (with
        // a capital, one no list has is handed to the app: docs/grammar.md).
        #expect(await assistant.read("Send a message to zuzu on MonkeyChat saying hi").code == "notUnderstood")
        // What `hark vocab set` does.
        try UserVocabularyStore(dataDirectory: data).set(["Zuzu"], type: .contactName, app: "MonkeyChat")
        let turn = await assistant.read("Send a message to zuzu on MonkeyChat saying hi")
        #expect(turn.app == "MonkeyChat" && turn.code != "notUnderstood", "\(turn)")
    }

    @Test("bad vocabulary is refused with a clear error and changes nothing")
    func refused() async throws {
        let assistant = try assistant(apps: try appsFolder([:]))
        await #expect(throws: CatalogError.self) { try await assistant.setVocabulary(["x"], type: "contactNames", app: "MonkeyChat") }
        await #expect(throws: CatalogError.self) {
            try await assistant.setVocabulary([String(repeating: "x", count: 1025)], type: "contactName", app: "MonkeyChat")
        }
        await #expect(throws: CatalogError.self) { try await assistant.setVocabulary(["x"], type: "contactName", app: "../x") }
        #expect(await assistant.catalog.userVocabulary["MonkeyChat"]?["contactName"] == MonkeyChat.defaultContacts)
    }

    @Test("a domain grammar's slot of a built-in type (currency) takes its values: typed amounts of any size, with cents; a number is never cut in two")
    func builtInTypeInDomainGrammar() async throws {
        // payments.hark and rides.hark take a whole amount typed as the
        // built-in `currency` type, typed only. Before, every slot without
        // a list got an empty vocabulary list under its type's name, and
        // "currency" matched nothing; and _common.hark's list of currency
        // codes was called `currency`, hiding the type in every domain.
        let domains = try temporaryDirectory("domains")
        for file in try FileManager.default.contentsOfDirectory(atPath: Repo.models + "/domains") where file.hasSuffix(".hark") {
            try FileManager.default.copyItem(atPath: Repo.models + "/domains/" + file, toPath: domains.appendingPathComponent(file).path)
        }
        let assistant = try SampleApps.assistant(modelsDirectory: Repo.models, domainsDirectory: domains.path,
                                                 dataDirectory: try temporaryDirectory(), decoder: nil, configuration: patient)
        func paid(_ text: String) async -> String? {
            guard case .understood(_, _, let slots) = await assistant.reading(of: text) else { return nil }
            return slots["currencyAmount"] ?? slots["transactionAmount"] ?? slots["tip"]
        }
        #expect(await paid("send Bobo two hundred fifty dollars with MonkeyPay") == "250 USD")
        #expect(await paid("send Bobo 250 dollars on MonkeyPay") == "250 USD")
        #expect(await paid("request $12.99 from Bobo on MonkeyPay") == "12.99 USD")
        #expect(await paid("transfer $250 from savings to checking on MonkeyPay") == "250 USD")
        #expect(await paid("tip the driver $5.50 on MonkeyRide") == "5.50 USD")
        // A heard amount still reads as heard: the list's amount and currency in parts.
        #expect(await paid("send Bobo twenty dollars on MonkeyPay") == "twenty dollars")
        // The comma of "$1,200" is no clause break, and text around a
        // request is not cut beside a number: these were payments of 1, 2
        // and 12 dollars.
        #expect(await paid("send Bobo $1,200 with MonkeyPay") == "1200 USD")
        #expect(await paid("send Bobo $2,000 with MonkeyPay") == "2000 USD")
        let cents = await paid("pay Bobo twelve dollars fifty with MonkeyPay")
        #expect(cents == "12.50 USD" || cents == "12.5 USD", "\(cents ?? "nil")")
    }
}

@Suite("Spoken vocabulary", .serialized)
struct SpokenVocabularyTests {
    @Test("a contact set through the API is recognised on the next utterance; after remove-all it no longer is")
    func contactThroughAPI() async throws {
        let samples = try flite("Send a message to Zuzu on MonkeyChat saying see you at the river")
        let assistant = try assistant(apps: try appsFolder([:]), recognizer: true)
        let before = try await assistant.hear(samples)
        // Not a contact yet: no recipient Zuzu (the word may still be dictated as a message).
        #expect(before.slots["recipients"] != "Zuzu" && !before.heard.contains("to zuzu on monkey chat"), "\(before.heard)")
        _ = await assistant.read("cancel")
        try await assistant.setVocabulary(["Zuzu"] + MonkeyChat.defaultContacts, type: "contactName", app: "MonkeyChat")
        let after = try await assistant.hear(samples)
        #expect(after.heard.contains("message to zuzu on monkey chat"), "\(after.heard)")
        #expect(after.app == "MonkeyChat" && after.intent == "INSendMessageIntent")
        _ = await assistant.read("cancel")
        try await assistant.removeAllVocabulary(app: "MonkeyChat")
        let removed = try await assistant.hear(samples)
        #expect(removed.slots["recipients"] != "Zuzu" && !removed.heard.contains("to zuzu on monkey chat"), "\(removed.heard)")
    }

    @Test("heard, with several apps installed, a request that names no app is not taken and Hark asks for the app's name; named, typed, or with one app installed, it is taken")
    func heardRequestNamingNoApp() async throws {
        let samples = try flite("Send a message to Bobo saying see you at the tree")
        let all = try assistant(apps: Repo.models + "/apps", recognizer: true)
        let heard = try await all.hear(samples)
        #expect(heard.heard.contains("message to bobo"), "\(heard.heard)")
        #expect(heard.code == "notUnderstood" && heard.speech == Assistant.sayTheApp && !heard.prompt, "\(heard.heard): \(heard.speech)")
        let named = try await all.hear(try flite("Send a message to Bobo on MonkeyChat saying see you at the tree"))
        #expect(named.app == "MonkeyChat" && named.intent == "INSendMessageIntent", "\(named.heard)")
        _ = await all.read("cancel")
        let typed = await all.read("Send a message to Bobo saying see you at the tree")
        #expect(typed.app == "MonkeyChat" && typed.intent == "INSendMessageIntent", "\(typed.speech)")
        _ = await all.read("cancel")
        // With one app installed there is nothing to tell apart.
        let one = try assistant(apps: try appsFolder([:]), recognizer: true)
        let alone = try await one.hear(samples)
        #expect(alone.app == "MonkeyChat" && alone.intent == "INSendMessageIntent", "\(alone.heard)")
    }

    @Test("of two contacts that sound the same (Koko, Coco), the recognizer hears the earlier one")
    func orderBreaksTies() async throws {
        let samples = try flite("Send a message to Koko on MonkeyChat saying see you at the river", voice: "awb")
        let assistant = try assistant(apps: try appsFolder([:]), recognizer: true)
        for order in [["Koko", "Coco"], ["Coco", "Koko"]] {
            try await assistant.setVocabulary(order + ["Bobo"], type: "contactName", app: "MonkeyChat")
            let turn = try await assistant.hear(samples)
            #expect(turn.heard.hasPrefix("send a message to \(order[0].lowercased()) on monkey chat"), "\(order): \(turn.heard)")
            _ = await assistant.read("cancel")
        }
    }

    @Test("the seed apps' words are heard through their hints and letter-to-sound", arguments: [
        ("Start a Bananarific in MonkeyFit", "awb", "MonkeyFit", "INStartWorkoutIntent", ["workoutName": "Bananarific"]),
        ("In ListOMat show the grocery list", "kal16", "ListOMat", "INSearchForNotebookItemsIntent", ["title": "Grocery"]),
        // Free text is dictation's weak point; these check the app and intent only.
        ("Create a note in MonkeyNotes saying buy more bananas", "kal16", "TasksNotes", "INCreateNoteIntent", [:]),
        ("Create a note in MonkeyTodo saying peel the bananas", "awb", "TasksNotes", "INCreateNoteIntent", [:]),
        ("MonkeyChat Bobo Junior see you at the tree", "awb", "MonkeyChat", "INSendMessageIntent", ["recipients": "Bobo Jr."]),
    ])
    func seeds(text: String, voice: String, app: String, intent: String, slots: [String: String]) async throws {
        let assistant = try assistant(apps: Repo.models + "/apps", recognizer: true)
        let turn = try await assistant.hear(try flite(text, voice: voice))
        #expect(turn.app == app && turn.intent == intent, "heard '\(turn.heard)'")
        for (name, value) in slots { #expect(turn.slots[name] == value, "heard '\(turn.heard)'") }
    }

    @Test("hark vocab set between two hark replay runs: the contact is heard; after remove-all it is not")
    func contactThroughCLI() throws {
        let wav = try temporaryDirectory("cli-audio").appendingPathComponent("zuzu.wav")
        try run("/usr/bin/flite", ["-voice", "kal16", "-t", "Send a message to Zuzu on MonkeyChat saying see you at the river", "-o", wav.path])
        let env = ["HARK_DATA_DIR": try temporaryDirectory("cli-data").path]
        func heard() throws -> String {
            let result = try runHark(["replay", wav.path, "--json"], environment: env)
            #expect(result.status == 0, "\(result.err)")
            let turn = try JSONDecoder().decode(Turn.self, from: Data(result.out.utf8))
            return turn.heard
        }
        #expect(!(try heard()).contains("zuzu"))
        let set = try runHark(["vocab", "set", "--app", "MonkeyChat", "--type", "contactName", "Zuzu", "Bobo"], environment: env)
        #expect(set.status == 0 && set.out == "MonkeyChat contactName: 2 strings\n", "\(set.err)")
        let list = try runHark(["vocab", "list", "--app", "MonkeyChat"], environment: env)
        #expect(list.out == "MonkeyChat contactName:\n  Zuzu\n  Bobo\n")
        #expect(try heard().hasPrefix("send a message to zuzu"))
        #expect(try runHark(["vocab", "remove-all", "--app", "MonkeyChat"], environment: env).status == 0)
        #expect(!(try heard()).contains("zuzu"))
        let bad = try runHark(["vocab", "set", "--app", "MonkeyChat", "--type", "contactNames", "x"], environment: env)
        #expect(bad.status != 0 && bad.err.hasPrefix("hark: error: unknown vocabulary type 'contactNames'"))
    }

    @Test("hark lexicon prints the phones and their source")
    func lexiconCommand() throws {
        let result = try runHark(["lexicon", "Bananarific", "Bobo", "--hint", "ba nana ri fic"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == """
            bananarific\tB AE N AH N AA R IH F IH K\tespeak-ng g2p
            bobo\tB OW B OW\tcmudict
            Bananarific Bobo (hint "ba nana ri fic")\tB AA N AE N AH R AY F IH K\thint (ba: cmudict, nana: cmudict, ri: espeak-ng g2p, fic: espeak-ng g2p)

            """)
    }
}

/// A decoder that writes down, in order, the grammars it is asked to build
/// and to let go of, and how many searches it held after each.
private final class GrammarLog: SpeechRecognizer, @unchecked Sendable {
    struct Event: CustomStringConvertible {
        var call: String
        var grammar: ObjectIdentifier
        var held: Int
        var description: String { "\(call) (\(held) held)" }
    }
    let inner: PocketSphinxDecoder
    private let lock = NSLock()
    private var logged: [Event] = []
    var events: [Event] { lock.withLock { logged } }
    init(_ inner: PocketSphinxDecoder) { self.inner = inner }
    private func note(_ call: String, _ grammar: DecoderGrammar) {
        let held = inner.heldSearches.count
        lock.withLock { logged.append(Event(call: call, grammar: ObjectIdentifier(grammar), held: held)) }
    }
    func recognize(_ samples: [Int16], grammar: DecoderGrammar) async throws -> Recognition {
        try await inner.recognize(samples, grammar: grammar)
    }
    func startStream(grammar: DecoderGrammar) async throws -> any RecognitionStream { try await inner.startStream(grammar: grammar) }
    func spot(_ phrase: String, in samples: [Int16], threshold: Double) async throws -> Int? {
        try await inner.spot(phrase, in: samples, threshold: threshold)
    }
    func phones(of word: String) -> [String]? { inner.phones(of: word) }
    func prepare(_ grammar: DecoderGrammar) throws {
        try inner.prepare(grammar)
        note("prepare", grammar)
    }
    func release(_ grammar: DecoderGrammar) {
        inner.release(grammar)
        note("release", grammar)
    }
}
