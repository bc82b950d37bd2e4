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
        func container(_ group: String) throws -> AppGroupContainer {
            try AppGroupContainer(dataDirectory: dataDirectory, group: group)
        }
        let chat = try container(MonkeyChat.group), lists = try container(ListOMat.group)
        let notes = try container(TasksNotes.group), pay = try container(MonkeyPay.group)
        monkeyChat = try MonkeyChat.Store(container: chat)
        listOMat = try NotebookStore(container: lists, initial: ListOMat.initial)
        tasksNotes = try NotebookStore(container: notes, initial: TasksNotes.initial)
        monkeyFit = try MonkeyFit.Store(container: container(MonkeyFit.group))
        monkeyPay = try MonkeyPay.Store(container: pay)
        monkeyRide = try MonkeyRide.Store(container: container(MonkeyRide.group))

        var handlers: [IntentKey: any IntentHandler] = [:]
        func register(_ app: String, _ intents: [String: any IntentHandler]) {
            for (intent, handler) in intents { handlers[IntentKey(app: app, intent: intent)] = handler }
        }
        register(MonkeyChat.appName, MonkeyChat.handlers(monkeyChat))
        register(ListOMat.appName, ListOMat.handlers(listOMat))
        register(TasksNotes.appName, TasksNotes.handlers(tasksNotes))
        register(MonkeyFit.appName, MonkeyFit.handlers(monkeyFit))
        register(MonkeyPay.appName, MonkeyPay.handlers(monkeyPay))
        register(MonkeyRide.appName, MonkeyRide.handlers(monkeyRide))
        self.handlers = handlers

        // The vocabulary as the stores hold it now (read from disk, so the
        // person's own contacts and lists are what is heard).
        let contacts = try JSONDocumentFile.read([String].self, at: chat.url.appendingPathComponent("contacts.json"))
            ?? MonkeyChat.defaultContacts
        let listBook = try JSONDocumentFile.read(NotebookStore.Notebook.self, at: lists.url.appendingPathComponent("notebook.json"))
            ?? ListOMat.initial
        let noteBook = try JSONDocumentFile.read(NotebookStore.Notebook.self, at: notes.url.appendingPathComponent("notebook.json"))
            ?? TasksNotes.initial
        let ledger = try JSONDocumentFile.read(MonkeyPay.Ledger.self, at: pay.url.appendingPathComponent("ledger.json"))
            ?? MonkeyPay.initial
        vocabulary = [
            MonkeyChat.appName: ["contactName": Self.titlesAndWords(contacts)],
            ListOMat.appName: ["notebookItemTitle": Self.titlesAndWords(listBook.lists.map(\.title))],
            TasksNotes.appName: ["notebookItemTitle": Self.titlesAndWords(noteBook.lists.map(\.title) + noteBook.notes.map(\.title))],
            MonkeyFit.appName: ["workoutActivityName": MonkeyFit.workouts],
            MonkeyPay.appName: ["contactName": Self.titlesAndWords(MonkeyPay.contacts),
                                "paymentsAccountNickname": ledger.accounts.map(\.nickname)],
            // MonkeyRide's ride options are app vocabulary (its AppIntentVocabulary.plist), not the user's.
        ]
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

extension SampleApps {
    /// An assistant with the apps under `modelsDirectory/apps`, the domain
    /// grammars under `modelsDirectory/domains`, and the sample apps'
    /// handlers and vocabulary.
    ///
    /// Authorization: the sample apps are authorized the first time the data
    /// directory is used (they ship with Hark, like Apple's own apps); any
    /// other app must be authorized with `hark apps authorize APP`, and the
    /// person may revoke a sample app with `hark apps revoke APP`.
    ///
    /// - Parameters:
    ///   - modelsDirectory: Hark's `models/` folder.
    ///   - appsDirectory: Installed apps, when not `models/apps`.
    ///   - domainsDirectory: Domain grammars, when not `models/domains`.
    ///   - dataDirectory: Where the apps keep their data.
    ///   - decoder: The recognizer; nil for typed turns only.
    ///   - configuration: How long handlers may take.
    ///   - locked: Whether the device starts locked.
    /// - Throws: the first error loading apps, grammars or data, naming the file.
    public static func assistant(
        modelsDirectory: String, appsDirectory: String? = nil, domainsDirectory: String? = nil,
        dataDirectory: URL, decoder: PocketSphinxDecoder?, logger: Logger = Logger(label: "hark"),
        configuration: EngineConfiguration = EngineConfiguration(), locked: Bool = false,
        extraHandlers: [IntentKey: any IntentHandler] = [:]
    ) throws -> Assistant {
        let catalog = try Catalog.load(
            appsDirectory: appsDirectory ?? (modelsDirectory as NSString).appendingPathComponent("apps"),
            domainsDirectory: domainsDirectory ?? (modelsDirectory as NSString).appendingPathComponent("domains"))
        let samples = try SampleApps(dataDirectory: dataDirectory)
        let authorizations = try AuthorizationStore(dataDirectory: dataDirectory, preauthorized: appNames)
        // The apps' vocabulary is the user's from the first run on (`hark vocab`).
        let store = try UserVocabularyStore(dataDirectory: dataDirectory)
        try store.seed(samples.vocabulary)
        // The notebook apps' titles change as lists and notes are made.
        let listOMat = samples.listOMat, tasksNotes = samples.tasksNotes
        let source: @Sendable (String) async -> [String: [String]]? = { app in
            switch app {
            case ListOMat.appName:
                return ["notebookItemTitle": SampleApps.titlesAndWords(await listOMat.notebook.lists.map(\.title))]
            case TasksNotes.appName:
                let book = await tasksNotes.notebook
                return ["notebookItemTitle": SampleApps.titlesAndWords(book.lists.map(\.title) + book.notes.map(\.title))]
            default:
                return nil
            }
        }
        return try Assistant(catalog: catalog, handlers: samples.handlers.merging(extraHandlers) { _, extra in extra },
                             decoder: decoder, dictation: try Resources.dictation(modelsDirectory: modelsDirectory),
                             vocabularyStore: store, logger: logger, configuration: configuration,
                             authorizations: authorizations, locked: locked, vocabularySource: source)
    }
}
