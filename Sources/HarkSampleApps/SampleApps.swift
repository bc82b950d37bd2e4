import Foundation
import Hark
import HarkCatalog
import HarkEngine
import HarkGrammar
import HarkIntents
import HarkRecognition
import Logging

/// The sample apps' handlers and the user vocabulary they register.
public struct SampleApps: Sendable {
    /// The sample apps, by `CFBundleName`.
    public static let appNames = [MonkeyChat.appName, ListOMat.appName, TasksNotes.appName, MonkeyFit.appName,
                                  MonkeyPay.appName, MonkeyRide.appName]

    public let handlers: [IntentKey: any IntentHandler]
    /// App → vocabulary type → strings, most important first.
    public let vocabulary: [String: [String: [String]]]
    public let monkeyChat: MonkeyChat.Store
    public let listOMat: NotebookStore
    public let tasksNotes: NotebookStore
    public let monkeyFit: MonkeyFit.Store
    public let monkeyPay: MonkeyPay.Store
    public let monkeyRide: MonkeyRide.Store

    /// Opens every sample app's data under `dataDirectory` (each in its app
    /// group container, created with the app's starting data on first use).
    ///
    /// - Throws: when a data folder cannot be created or a document read.
    public init(dataDirectory: URL) throws {
        let chat = try Self.openMonkeyChat(dataDirectory), lists = try Self.openNotebook(ListOMat.self, dataDirectory)
        let notes = try Self.openNotebook(TasksNotes.self, dataDirectory), fit = try Self.openMonkeyFit(dataDirectory)
        let pay = try Self.openMonkeyPay(dataDirectory), ride = try Self.openMonkeyRide(dataDirectory)
        monkeyChat = chat.store
        listOMat = lists.store
        tasksNotes = notes.store
        monkeyFit = fit.store
        monkeyPay = pay.store
        monkeyRide = ride.store
        let runtimes = [MonkeyChat.appName: chat.runtime, ListOMat.appName: lists.runtime, TasksNotes.appName: notes.runtime,
                        MonkeyFit.appName: fit.runtime, MonkeyPay.appName: pay.runtime, MonkeyRide.appName: ride.runtime]
        var handlers: [IntentKey: any IntentHandler] = [:]
        for (app, runtime) in runtimes {
            for (intent, handler) in runtime.handlers { handlers[IntentKey(app: app, intent: intent)] = handler }
        }
        self.handlers = handlers
        vocabulary = runtimes.compactMapValues { $0.vocabulary.isEmpty ? nil : $0.vocabulary }
    }

    /// The six sample apps as app modules: each opens its data (in its app
    /// group container under the data folder) only when it is installed.
    public static var modules: [any AppModule] {
        [
            SampleAppModule(appName: MonkeyChat.appName) { try openMonkeyChat($0).runtime },
            SampleAppModule(appName: ListOMat.appName) { try openNotebook(ListOMat.self, $0).runtime },
            SampleAppModule(appName: TasksNotes.appName) { try openNotebook(TasksNotes.self, $0).runtime },
            SampleAppModule(appName: MonkeyFit.appName) { try openMonkeyFit($0).runtime },
            SampleAppModule(appName: MonkeyPay.appName) { try openMonkeyPay($0).runtime },
            SampleAppModule(appName: MonkeyRide.appName) { try openMonkeyRide($0).runtime },
        ]
    }

    static func container(_ group: String, _ dataDirectory: URL) throws -> AppGroupContainer {
        try AppGroupContainer(dataDirectory: dataDirectory, group: group)
    }

    // The vocabulary each app registers is read from its store on disk, so
    // the person's own contacts and lists are what is heard.

    static func openMonkeyChat(_ data: URL) throws -> (store: MonkeyChat.Store, runtime: AppRuntime) {
        let container = try container(MonkeyChat.group, data)
        let store = try MonkeyChat.Store(container: container)
        // Its contacts as they change (added, renamed, deleted, messaged).
        let source: @Sendable () async -> [String: [String]]? = {
            ["contactName": titlesAndWords(await store.contactsByImportance())]
        }
        func read<T: Decodable>(_ type: T.Type, _ file: String) throws -> T? {
            try JSONDocumentFile.read(type, at: container.url.appendingPathComponent(file))
        }
        let contacts = MonkeyChat.byImportance(
            contacts: try read([String].self, "contacts.json") ?? MonkeyChat.defaultContacts,
            favorites: try read([String].self, "favorites.json") ?? [],
            messages: try read([MonkeyChat.Message].self, "messages.json") ?? [],
            calls: try read([MonkeyChat.Call].self, "calls.json") ?? [])
        return (store, AppRuntime(handlers: MonkeyChat.handlers(store), vocabulary: ["contactName": titlesAndWords(contacts)],
                                  vocabularySource: source))
    }

    static func openNotebook(_ app: (some NotebookApp).Type, _ data: URL) throws -> (store: NotebookStore, runtime: AppRuntime) {
        let container = try container(app.group, data)
        let store = try NotebookStore(container: container, initial: app.initial)
        let book = try JSONDocumentFile.read(NotebookStore.Notebook.self, at: container.url.appendingPathComponent("notebook.json"))
            ?? app.initial
        // The notebook apps' titles change as lists and notes are made.
        let source: @Sendable () async -> [String: [String]]? = {
            ["notebookItemTitle": app.vocabulary(in: await store.notebook)]
        }
        return (store, AppRuntime(handlers: app.handlers(store), vocabulary: ["notebookItemTitle": app.vocabulary(in: book)],
                                  vocabularySource: source))
    }

    static func openMonkeyFit(_ data: URL) throws -> (store: MonkeyFit.Store, runtime: AppRuntime) {
        let store = try MonkeyFit.Store(container: container(MonkeyFit.group, data))
        return (store, AppRuntime(handlers: MonkeyFit.handlers(store), vocabulary: ["workoutActivityName": MonkeyFit.workouts]))
    }

    static func openMonkeyPay(_ data: URL) throws -> (store: MonkeyPay.Store, runtime: AppRuntime) {
        let container = try container(MonkeyPay.group, data)
        let store = try MonkeyPay.Store(container: container)
        let ledger = try JSONDocumentFile.read(MonkeyPay.Ledger.self, at: container.url.appendingPathComponent("ledger.json"))
            ?? MonkeyPay.initial
        return (store, AppRuntime(handlers: MonkeyPay.handlers(store),
                                  vocabulary: ["contactName": titlesAndWords(MonkeyPay.contacts),
                                               "paymentsAccountNickname": ledger.accounts.map(\.nickname)]))
    }

    static func openMonkeyRide(_ data: URL) throws -> (store: MonkeyRide.Store, runtime: AppRuntime) {
        // MonkeyRide's ride options are app vocabulary (its AppIntentVocabulary.plist), not the user's.
        let store = try MonkeyRide.Store(container: container(MonkeyRide.group, data))
        return (store, AppRuntime(handlers: MonkeyRide.handlers(store)))
    }

    /// Titles (or contact names), then each word of them not already one,
    /// so a partial name ("store", "Bobo") can be said and the app can
    /// resolve it (confirm one match, offer a choice of several).
    static func titlesAndWords(_ titles: [String]) -> [String] {
        var result = titles
        var seen = Set(titles.map { $0.lowercased() })
        // Words that never name anything alone ("the" of "Bobo the Great").
        let minor: Set<String> = ["the", "a", "an", "of", "and", "for", "to", "my", "in", "on", "at", "jr", "jr.", "sr", "sr.",
                                  "junior", "senior", "little", "big", "great", "old", "new"]
        for title in titles {
            for word in title.split(separator: " ").map(String.init)
            where !minor.contains(word.lowercased()) && seen.insert(word.lowercased()).inserted {
                result.append(word)
            }
        }
        return result
    }
}

/// Reads a JSON document's current contents without opening it for writing.
enum JSONDocumentFile {
    /// The document, or nil when there is no file.
    ///
    /// - Throws: ``DataFileError`` when the file exists but cannot be read;
    ///   ``CatalogError`` when it does not decode.
    static func read<T: Decodable>(_ type: T.Type, at url: URL) throws -> T? {
        guard let data = try DataFile.read(url) else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw CatalogError("\(url.path): not valid data for this app (\(error)); move it aside to start afresh")
        }
    }
}

/// A sample app as an app module (they ship with Hark, so they are
/// authorized on first use).
public struct SampleAppModule: AppModule {
    public let appName: String
    public var preauthorized: Bool { true }
    let open: @Sendable (URL) throws -> AppRuntime

    init(appName: String, open: @escaping @Sendable (URL) throws -> AppRuntime) {
        self.appName = appName
        self.open = open
    }

    public func start(_ context: AppContext) throws -> AppRuntime {
        try open(context.dataDirectory)
    }
}

/// ListOMat and TasksNotes: the same notebook store, different apps.
protocol NotebookApp: SendableMetatype {
    static var group: String { get }
    static var initial: NotebookStore.Notebook { get }
    static func handlers(_ store: NotebookStore) -> [String: any IntentHandler]
    /// What the app registers as its `notebookItemTitle` vocabulary.
    static func vocabulary(in book: NotebookStore.Notebook) -> [String]
}

extension ListOMat: NotebookApp {
    /// Its lists' titles, and their words ("the store list").
    static func vocabulary(in book: NotebookStore.Notebook) -> [String] { SampleApps.titlesAndWords(book.lists.map(\.title)) }
}

extension TasksNotes: NotebookApp {
    /// Its lists' and notes' titles and their words, then its tasks' titles
    /// from the last added (SiriKit's `notebookItemTitle` is "the title of a
    /// note, task, or task list"). A task to tick off is one the person
    /// already has; as free text, kitchen clatter was heard as "set that a
    /// done". A task is named whole: a word of it alone ("five" of "run five
    /// k") fitted out-of-grammar speech too easily.
    static func vocabulary(in book: NotebookStore.Notebook) -> [String] {
        let named = SampleApps.titlesAndWords(book.lists.map(\.title) + book.notes.map(\.title))
        var seen = Set(named.map { $0.lowercased() })
        return named + book.lists.flatMap(\.tasks).reversed().map(\.title).filter { seen.insert($0.lowercased()).inserted }
    }
}

extension SampleApps {
    /// An assistant with the apps under `appsDirectory` (default
    /// `modelsDirectory/apps`), the domain grammars, and the sample apps'
    /// handlers for those of them that are installed — built with
    /// ``AssistantBuilder`` like any other program's assistant.
    ///
    /// - Throws: the first error loading apps, grammars or data, naming the file.
    public static func assistant(
        modelsDirectory: String, appsDirectory: String? = nil, domainsDirectory: String? = nil,
        dataDirectory: URL, decoder: (any SpeechRecognizer)?, logger: Logger = Logger(label: "hark"),
        configuration: EngineConfiguration = EngineConfiguration(), locked: Bool = false,
        extraHandlers: [IntentKey: any IntentHandler] = [:]
    ) throws -> Assistant {
        var builder = AssistantBuilder(appsDirectory: appsDirectory, domainsDirectory: domainsDirectory,
                                       modelsDirectory: modelsDirectory, dataDirectory: dataDirectory,
                                       recognizer: decoder, logger: logger, configuration: configuration, locked: locked)
        for module in modules { builder.add(module) }
        for (key, handler) in extraHandlers { builder.register(handler, for: key.intent, app: key.app) }
        return try builder.build()
    }
}
