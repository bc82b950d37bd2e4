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
    public let handlers: [IntentKey: any IntentHandler]
    /// App → vocabulary type → strings, most important first.
    public let vocabulary: [String: [String: [String]]]
    public let monkeyChat: MonkeyChat.SendMessageHandler

    /// Opens every sample app's data under `dataDirectory`.
    ///
    /// - Throws: when a data folder cannot be created or read.
    public init(dataDirectory: URL) throws {
        monkeyChat = try MonkeyChat.SendMessageHandler(
            container: AppGroupContainer(dataDirectory: dataDirectory, group: MonkeyChat.group))
        handlers = [IntentKey(app: MonkeyChat.appName, intent: "INSendMessageIntent"): monkeyChat]
        vocabulary = [MonkeyChat.appName: ["contactName": monkeyChat.contacts]]
    }
}


extension SampleApps {
    /// An assistant with the apps under `modelsDirectory/apps`, the domain
    /// grammars under `modelsDirectory/domains`, and the sample apps'
    /// handlers and vocabulary.
    ///
    /// - Parameters:
    ///   - modelsDirectory: Hark's `models/` folder.
    ///   - appsDirectory: Installed apps, when not `models/apps`.
    ///   - domainsDirectory: Domain grammars, when not `models/domains`.
    ///   - dataDirectory: Where the apps keep their data.
    ///   - decoder: The recognizer; nil for typed turns only.
    /// - Throws: the first error loading apps, grammars or data, naming the file.
    public static func assistant(
        modelsDirectory: String, appsDirectory: String? = nil, domainsDirectory: String? = nil,
        dataDirectory: URL, decoder: PocketSphinxDecoder?, logger: Logger = Logger(label: "hark")
    ) throws -> Assistant {
        var catalog = try Catalog.load(
            appsDirectory: appsDirectory ?? (modelsDirectory as NSString).appendingPathComponent("apps"),
            domainsDirectory: domainsDirectory ?? (modelsDirectory as NSString).appendingPathComponent("domains"))
        let samples = try SampleApps(dataDirectory: dataDirectory)
        for (app, types) in samples.vocabulary {
            for (type, strings) in types { catalog.setVocabulary(strings, type: type, app: app) }
        }
        // The apps' vocabulary is the user's from the first run on (`hark vocab`).
        let store = try UserVocabularyStore(dataDirectory: dataDirectory)
        try store.seed(samples.vocabulary)
        return try Assistant(catalog: catalog, handlers: samples.handlers, decoder: decoder,
                             dictation: try Resources.dictation(modelsDirectory: modelsDirectory),
                             vocabularyStore: store, logger: logger)
    }
}
