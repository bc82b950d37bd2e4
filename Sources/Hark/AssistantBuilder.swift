import Foundation
import HarkCatalog
import HarkEngine
import HarkExtensions
import HarkGrammar
import HarkIntents
import HarkRecognition
import Logging

/// Swift code that carries out one app's intents inside Hark's process, the
/// way an iOS app's intents extension is compiled with the app: Hark's
/// sample apps, or an embedding program's own app. It is started only when
/// its app is installed (its folder is in the apps folder).
public protocol AppModule: Sendable {
    /// The app's `CFBundleName`, as in its `Info.plist`.
    var appName: String { get }
    /// Whether the app ships with Hark, and so is authorized the first time
    /// the data folder is used (like Apple's own apps); any other app is
    /// authorized by the person (`hark apps authorize APP`).
    var preauthorized: Bool { get }
    /// Opens the app's data and returns its handlers.
    ///
    /// - Throws: when the app's data cannot be opened (naming the file).
    func start(_ context: AppContext) throws -> AppRuntime
}

extension AppModule {
    public var preauthorized: Bool { false }
}

/// What an app module is started with.
public struct AppContext: Sendable {
    /// The installed app (its `Info.plist`, vocabulary and grammars).
    public var app: InstalledApp
    /// Hark's data folder (shared by every app).
    public var dataDirectory: URL
    /// The app's own data folder, `<data>/apps/<CFBundleName>` (created on
    /// first use; an intents extension gets it as `HARK_APP_DATA_DIR`).
    public var appDataDirectory: URL { AssistantBuilder.appDataDirectory(app: app.name, in: dataDirectory) }
    public var logger: Logger
}

/// A started app module: its handlers and the vocabulary it registers.
public struct AppRuntime: Sendable {
    /// Intent name → handler.
    public var handlers: [String: any IntentHandler]
    /// The user vocabulary the app registers on first run (type → strings,
    /// most important first), as a SiriKit app calls `INVocabulary`.
    public var vocabulary: [String: [String]]
    /// The app's current vocabulary, asked after each request it carried
    /// out; nil when it has nothing new.
    public var vocabularySource: (@Sendable () async -> [String: [String]]?)?

    public init(handlers: [String: any IntentHandler], vocabulary: [String: [String]] = [:],
                vocabularySource: (@Sendable () async -> [String: [String]]?)? = nil) {
        self.handlers = handlers
        self.vocabulary = vocabulary
        self.vocabularySource = vocabularySource
    }
}

/// Who carries out an app's intent.
public enum HandlerKind: Sendable, Equatable, CustomStringConvertible {
    /// An app module compiled into the program (Hark's sample apps).
    case builtIn
    /// A Swift handler the embedding program registered.
    case swift
    /// The app's intents extension process, with its command.
    case extensionCommand([String])
    /// Nobody: Hark understands the intent but nothing carries it out.
    case none

    public var description: String {
        switch self {
        case .builtIn: return "built in"
        case .swift: return "Swift handler"
        case .extensionCommand(let command): return "extension: " + command.joined(separator: " ")
        case .none: return "nobody (no handler: Hark answers that the app can't do that yet)"
        }
    }
}

/// Builds an assistant: the installed apps, the domain grammars, where the
/// data lives, the recognizer, and who handles each intent — Swift handlers
/// registered here, app modules, and apps' intents extensions (their
/// `Info.plist` `HarkExtension` command).
///
/// ```swift
/// var builder = AssistantBuilder(appsDirectory: "apps", dataDirectory: dataFolder)
/// builder.register(OrderHandler(), for: "orderDrink", app: "Barista")
/// let assistant = try builder.build()
/// print(await assistant.read("can I get a large latte").speech)
/// ```
public struct AssistantBuilder: Sendable {
    /// Installed apps: one folder per app with an `Info.plist`.
    public var appsDirectory: String
    /// The SiriKit domain grammars (`*.hark`); Hark's own by default.
    public var domainsDirectory: String
    /// Hark's `models/` folder (the dictation vocabulary).
    public var modelsDirectory: String
    /// Where apps keep their data and Hark keeps vocabulary and authorizations.
    public var dataDirectory: URL
    /// The recognizer; nil for an assistant that only reads typed text.
    public var recognizer: (any SpeechRecognizer)?
    public var logger: Logger
    /// How long apps may take.
    public var configuration: EngineConfiguration
    /// Whether the device starts locked.
    public var locked: Bool
    /// Whether a heard request that names no app is taken while several
    /// apps are installed (by default Hark asks for the app's name:
    /// ``Assistant/sayTheApp``).
    public var takesUnnamedHeardRequests = false
    /// How long an intents extension may take to print its handshake.
    public var extensionHandshakeTimeout: Duration = .seconds(10)

    private var modules: [any AppModule] = []
    private var swiftHandlers: [IntentKey: any IntentHandler] = [:]

    /// - Parameters:
    ///   - appsDirectory: Installed apps (default: `models/apps`).
    ///   - domainsDirectory: Domain grammars (default: `models/domains`).
    ///   - modelsDirectory: Hark's models folder (default: ``Resources/modelsDirectory(environment:)``).
    ///   - dataDirectory: Where data lives.
    public init(appsDirectory: String? = nil, domainsDirectory: String? = nil, modelsDirectory: String? = nil,
                dataDirectory: URL, recognizer: (any SpeechRecognizer)? = nil, logger: Logger = Logger(label: "hark"),
                configuration: EngineConfiguration = EngineConfiguration(), locked: Bool = false) {
        let models = modelsDirectory ?? Resources.modelsDirectory()
        self.modelsDirectory = models
        self.appsDirectory = appsDirectory ?? (models as NSString).appendingPathComponent("apps")
        self.domainsDirectory = domainsDirectory ?? (models as NSString).appendingPathComponent("domains")
        self.dataDirectory = dataDirectory
        self.recognizer = recognizer
        self.logger = logger
        self.configuration = configuration
        self.locked = locked
    }

    /// Adds an app module; it starts only if its app is installed.
    public mutating func add(_ module: any AppModule) {
        modules.append(module)
    }

    /// Registers a Swift handler for one intent of one app (a SiriKit
    /// domain's or the app's own). It takes precedence over an app module's
    /// and over the app's extension.
    public mutating func register(_ handler: any IntentHandler, for intent: String, app: String) {
        swiftHandlers[IntentKey(app: app, intent: intent)] = handler
    }

    /// The data folder of `app`: `<data>/apps/<app>`.
    public static func appDataDirectory(app: String, in dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent("apps", isDirectory: true).appendingPathComponent(app, isDirectory: true)
    }

    /// Loads the apps, starts the modules of the installed ones and prepares
    /// their extensions (started on first use).
    ///
    /// - Throws: ``CatalogError`` or ``GrammarError`` naming the file at
    ///   fault; an app module's error opening its data.
    public func start() throws -> InstalledApps {
        let catalog = try Catalog.load(appsDirectory: appsDirectory, domainsDirectory: domainsDirectory)
        var handlers: [IntentKey: any IntentHandler] = [:]
        var kinds: [IntentKey: HandlerKind] = [:]
        var vocabulary: [String: [String: [String]]] = [:]
        var sources: [String: @Sendable () async -> [String: [String]]?] = [:]
        var preauthorized: [String] = []
        var extensions: [ExtensionProcess] = []
        let installed = Set(catalog.apps.map(\.name))
        for module in modules where installed.contains(module.appName) {
            guard let app = catalog.app(named: module.appName) else { continue }
            let runtime = try module.start(AppContext(app: app, dataDirectory: dataDirectory, logger: logger))
            for (intent, handler) in runtime.handlers {
                handlers[IntentKey(app: app.name, intent: intent)] = handler
                kinds[IntentKey(app: app.name, intent: intent)] = .builtIn
            }
            if !runtime.vocabulary.isEmpty { vocabulary[app.name] = runtime.vocabulary }
            if let source = runtime.vocabularySource { sources[app.name] = source }
            if module.preauthorized { preauthorized.append(app.name) }
        }
        // An answer that takes longer than this stops the extension; the
        // engine's own limit is a little later, so the person hears that the
        // app isn't responding.
        let extensionTimeout = max(configuration.progressBudget, configuration.timeout - .milliseconds(500))
        for app in catalog.apps {
            guard let declaration = app.info.extensionDeclaration else { continue }
            let process = ExtensionProcess(
                app: app.name, command: declaration.command, folder: URL(fileURLWithPath: app.folder, isDirectory: true),
                dataDirectory: Self.appDataDirectory(app: app.name, in: dataDirectory),
                handshakeTimeout: extensionHandshakeTimeout, logger: logger)
            extensions.append(process)
            for intent in app.intents where handlers[IntentKey(app: app.name, intent: intent)] == nil {
                guard app.description(of: intent) != nil else { continue }
                let key = IntentKey(app: app.name, intent: intent)
                handlers[key] = ExtensionHandler(process: process, timeout: extensionTimeout)
                kinds[key] = .extensionCommand(declaration.command)
            }
        }
        for (key, handler) in swiftHandlers {
            handlers[key] = handler
            kinds[key] = .swift
        }
        return InstalledApps(
            catalog: catalog, handlers: handlers, kinds: kinds, vocabulary: vocabulary, vocabularySources: sources,
            preauthorized: preauthorized, extensions: extensions, builder: self)
    }

    /// An assistant over the installed apps (``start()`` then ``InstalledApps/makeAssistant(recognizer:)``).
    public func build() throws -> Assistant {
        try start().makeAssistant()
    }
}

/// The installed apps with their handlers started: one set of app data and
/// extension processes, from which any number of assistants (one per
/// conversation: a terminal, a satellite) are made.
public struct InstalledApps: Sendable {
    public let catalog: Catalog
    /// Who handles each intent.
    public let handlers: [IntentKey: any IntentHandler]
    let kinds: [IntentKey: HandlerKind]
    let vocabulary: [String: [String: [String]]]
    let vocabularySources: [String: @Sendable () async -> [String: [String]]?]
    /// The apps authorized on first run.
    public let preauthorized: [String]
    /// The apps' intents extensions (started on first use).
    public let extensions: [ExtensionProcess]
    let builder: AssistantBuilder

    /// Who carries out `intent` of `app`.
    public func handlerKind(app: String, intent: String) -> HandlerKind {
        kinds[IntentKey(app: app, intent: intent)] ?? .none
    }

    /// The authorizations store of the data folder (created, with the
    /// preauthorized apps, on first use).
    public func authorizations() throws -> AuthorizationStore {
        try AuthorizationStore(dataDirectory: builder.dataDirectory, preauthorized: preauthorized)
    }

    /// A new assistant (its own conversation) over these apps.
    ///
    /// - Parameter recognizer: The recognizer, when not the builder's.
    public func makeAssistant(recognizer: (any SpeechRecognizer)? = nil) throws -> Assistant {
        let authorizations = try self.authorizations()
        // The apps' vocabulary is the user's from the first run on (`hark vocab`).
        let store = try UserVocabularyStore(dataDirectory: builder.dataDirectory)
        try store.seed(vocabulary)
        let sources = vocabularySources
        return try Assistant(
            catalog: catalog, handlers: handlers, decoder: recognizer ?? builder.recognizer,
            dictation: try Resources.dictation(modelsDirectory: builder.modelsDirectory),
            vocabularyStore: store,
            reportedVocabulary: try UserVocabularyStore(dataDirectory: builder.dataDirectory, user: Self.reportedVocabularyFolder),
            logger: builder.logger, configuration: builder.configuration,
            authorizations: authorizations, locked: builder.locked,
            takesUnnamedHeardRequests: builder.takesUnnamedHeardRequests,
            vocabularySource: { app in await sources[app]?() })
    }

    /// The folder under `vocabulary/` that keeps what the apps last reported of their data.
    static let reportedVocabularyFolder = "reported-by-apps"

    /// Stops the apps' extension processes.
    public func shutdown() async {
        for process in extensions { await process.shutdown() }
    }
}
