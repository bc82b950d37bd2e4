import Foundation
import HarkCatalog
import HarkEngine
import HarkGrammar
import HarkIntents
import HarkRecognition
import Logging

/// The assistant: hears an utterance (or reads typed text), finds the app
/// and intent, runs the app's handler through the SiriKit lifecycle, and
/// says what happened. One conversation at a time; follow-up answers are
/// heard against a grammar narrowed to the question.
public actor Assistant {
    public private(set) var catalog: Catalog
    let handlers: [IntentKey: any IntentHandler]
    let decoder: PocketSphinxDecoder?
    let dictation: DictationVocabulary
    let logger: Logger
    /// Where user vocabulary persists; nil keeps it in memory only.
    let vocabularyStore: UserVocabularyStore?
    private var vocabularyStamp: [String: Date] = [:]

    private var mainGraph: IntentGraph
    private var mainParser: TextParser
    private var mainGrammar: DecoderGrammar
    private var conversation: Conversation?
    private var pendingQuestion: Question?
    private var answerParser: TextParser?
    private var answerGrammar: DecoderGrammar?
    /// The app to name in the next answer (set when the request named none).
    private var announcing: String?

    /// - Parameters:
    ///   - catalog: Installed apps and vocabulary.
    ///   - handlers: The apps' intent handlers.
    ///   - decoder: The recognizer; nil for a text-only assistant.
    ///   - dictation: Words free-text slots may take; the apps' words are added.
    ///   - vocabularyStore: The user's vocabulary on disk: loaded now (it
    ///     replaces the catalog's for the apps it has), written by
    ///     ``setVocabulary(_:type:app:)``, and re-read before an utterance
    ///     when another process (`hark vocab set`) changed it.
    /// - Throws: ``GrammarError`` when the grammars do not compile,
    ///   ``CatalogError`` when the stored vocabulary cannot be read.
    public init(catalog: Catalog, handlers: [IntentKey: any IntentHandler], decoder: PocketSphinxDecoder?,
                dictation: DictationVocabulary, vocabularyStore: UserVocabularyStore? = nil,
                logger: Logger = Logger(label: "hark")) throws {
        var catalog = catalog
        if let vocabularyStore {
            vocabularyStamp = vocabularyStore.stamp()
            for app in vocabularyStore.apps() {
                catalog.removeVocabulary(app: app)
                for (type, strings) in try vocabularyStore.vocabulary(app: app) {
                    catalog.setVocabulary(strings, type: type, app: app)
                }
            }
        }
        self.catalog = catalog
        self.handlers = handlers
        self.decoder = decoder
        self.logger = logger
        self.vocabularyStore = vocabularyStore
        // Free text may use the apps' own words too ("bananas").
        let graph = try catalog.compile()
        var dictation = dictation
        dictation.add(graph.vocabulary)
        self.dictation = dictation
        mainGraph = graph
        mainParser = TextParser(graph: graph)
        mainGrammar = DecoderGrammar(graph: graph, dictation: dictation)
        if let decoder { try decoder.prepare(mainGrammar) }
    }

    /// Replaces a type of user vocabulary for an app (SiriKit's
    /// `INVocabulary.setVocabularyStrings`), most important first; the next
    /// utterance is heard with it, and it is stored when the assistant has
    /// a vocabulary store.
    ///
    /// - Throws: ``CatalogError`` for an unknown type, a string over 1024
    ///   UTF-16 code units or a failed write; ``GrammarError``.
    public func setVocabulary(_ strings: [String], type: String, app: String) throws {
        let kind = try VocabularyStringType.named(type)
        let normalized = try UserVocabularyStore.normalize(strings, type: kind)
        if let vocabularyStore {
            try vocabularyStore.set(normalized, type: kind, app: app)
            vocabularyStamp = vocabularyStore.stamp()
        }
        catalog.setVocabulary(normalized, type: type, app: app)
        try rebuildMainGrammar()
    }

    /// Removes all of an app's user vocabulary (SiriKit's
    /// `removeAllVocabularyStrings`, on reset or logout).
    public func removeAllVocabulary(app: String) throws {
        if let vocabularyStore {
            try vocabularyStore.removeAll(app: app)
            vocabularyStamp = vocabularyStore.stamp()
        }
        catalog.removeVocabulary(app: app)
        try rebuildMainGrammar()
    }

    /// Picks up vocabulary another process stored since the last look.
    private func refreshVocabulary() {
        guard let vocabularyStore, pendingQuestion == nil else { return }
        let stamp = vocabularyStore.stamp()
        guard stamp != vocabularyStamp else { return }
        do {
            var updated = catalog
            for app in Set(stamp.keys).union(vocabularyStamp.keys) where stamp[app] != vocabularyStamp[app] {
                updated.removeVocabulary(app: app)
                for (type, strings) in try vocabularyStore.vocabulary(app: app) {
                    updated.setVocabulary(strings, type: type, app: app)
                }
            }
            catalog = updated
            vocabularyStamp = stamp
            try rebuildMainGrammar()
            logger.debug("user vocabulary reloaded", metadata: ["vocabulary.apps": "\(stamp.keys.sorted())"])
        } catch {
            logger.error("user vocabulary not reloaded", metadata: ["error": "\(error)"])
        }
    }

    private func rebuildMainGrammar() throws {
        mainGraph = try catalog.compile()
        mainParser = TextParser(graph: mainGraph)
        mainGrammar = DecoderGrammar(graph: mainGraph, dictation: dictation)
        if let decoder { try decoder.prepare(mainGrammar) }
    }

    /// Whether the assistant is waiting for an answer.
    public var isAsking: Bool { pendingQuestion != nil }

    // MARK: - Turns

    /// Hears one utterance of 16 kHz mono samples and answers it.
    ///
    /// - Throws: ``RecognitionError`` when decoding fails.
    public func hear(_ samples: [Int16]) async throws -> Turn {
        guard let decoder else { throw RecognitionError("this assistant has no recognizer") }
        refreshVocabulary()
        let recognition = try decoder.recognize(samples, grammar: answerGrammar ?? mainGrammar)
        logger.debug("recognised", metadata: [
            "asr.hypothesis": "\(recognition.text)", "asr.confidence": "\(recognition.confidence)",
            "asr.rtf": "\(recognition.realTimeFactor)",
        ])
        var turn = await read(recognition.text)
        turn.confidence = recognition.confidence
        turn.audioSeconds = recognition.audioSeconds
        turn.decodeSeconds = recognition.decodeSeconds
        turn.words = recognition.words.map { TimedWord(word: $0.word, start: $0.start, end: $0.end) }
        return turn
    }

    /// Reads one typed turn and answers it.
    public func read(_ text: String) async -> Turn {
        if let conversation, let question = pendingQuestion, let answerParser {
            guard let parse = answerParser.parse(text).first, let answer = AnswerGrammar.answer(from: parse) else {
                let reply = EngineReply(speech: "Sorry, I didn't get that. " + Conversation.speech(for: question, intent: await conversation.intent),
                                        code: nil, question: question, intent: await conversation.intent)
                return turn(heard: text, reply: reply)
            }
            return turn(heard: text, reply: await conversation.answer(answer))
        }
        refreshVocabulary()
        let parses = mainParser.parse(text)
        let route = Self.route(parses, defaultApp: catalog.defaultApp)
        let best: Parse
        switch route {
        case .notUnderstood:
            return Turn(heard: text, confidence: 1, app: nil, intent: nil, slots: [:],
                        speech: "Sorry, I didn't understand that.", code: "notUnderstood", prompt: false,
                        audioSeconds: 0, decodeSeconds: 0)
        case .whichApp(let apps, let parse):
            let names = apps.map { catalog.app(named: $0)?.info.displayName ?? $0 }
            return Turn(heard: text, confidence: 1, app: nil, intent: parse.intent, slots: Self.parameters(parse),
                        speech: "Which app? \(names.dropLast().joined(separator: ", ")) or \(names.last!)?",
                        code: "whichApp", prompt: false, audioSeconds: 0, decodeSeconds: 0)
        case .app(let parse, let announce):
            best = parse
            announcing = announce ? catalog.app(named: parse.app)?.info.displayName ?? parse.app : nil
        }
        let key = IntentKey(app: best.app, intent: best.intent)
        guard let handler = handlers[key], let description = Domains.all[best.intent] else {
            return Turn(heard: text, confidence: 1, app: best.app, intent: best.intent, slots: Self.parameters(best),
                        speech: "Sorry, \(best.app) can't do that yet.", code: "unsupported", prompt: false,
                        audioSeconds: 0, decodeSeconds: 0)
        }
        var intent = Intent(app: best.app, name: best.intent)
        for slot in best.slots where intent[slot.name] == nil && slot.name != Catalog.appSlot {
            intent[slot.name] = ParameterValue(spoken: slot.raw, value: slot.value)
        }
        let conversation = Conversation(intent: intent, description: description, handler: handler)
        self.conversation = conversation
        return turn(heard: text, reply: await conversation.start())
    }

    private func turn(heard: String, reply: EngineReply) -> Turn {
        defer { announcing = nil }
        pendingQuestion = reply.question
        if let question = reply.question {
            let vocabulary = catalog.userVocabulary[reply.intent.app] ?? [:]
            do {
                let graph = try AnswerGrammar.graph(for: question, vocabulary: vocabulary)
                answerParser = TextParser(graph: graph)
                answerGrammar = DecoderGrammar(graph: graph, dictation: dictation)
            } catch {
                logger.error("answer grammar failed to compile", metadata: ["error": "\(error)"])
                answerParser = nil
                answerGrammar = nil
            }
        } else {
            conversation = nil
            answerParser = nil
            answerGrammar = nil
        }
        return Turn(
            heard: heard, confidence: 1, app: reply.intent.app, intent: reply.intent.name,
            slots: reply.intent.parameters.mapValues(\.value),
            speech: announcing.map { "\($0): \(reply.speech)" } ?? reply.speech, code: reply.outcome,
            prompt: reply.question != nil, audioSeconds: 0, decodeSeconds: 0)
    }
}

// MARK: - Routing

extension Assistant {
    /// Where a request goes.
    enum Route: Equatable {
        case notUnderstood
        /// To this parse's app; `announce` when the request did not name
        /// it, so the answer says which app handled it.
        case app(Parse, announce: Bool)
        /// Several apps could take it and none was named: ask.
        case whichApp([String], Parse)
    }

    /// Routes parses (best first) by the app rules: a request that names an
    /// app (display or alternative name, anywhere in the sentence) goes to
    /// that app; one that names none goes to the only app that can take
    /// it, else to the device's default app if it can, else nowhere — Hark
    /// asks "Which app?" and never picks silently.
    static func route(_ parses: [Parse], defaultApp: String?) -> Route {
        let named = parses.filter { $0.slotValues[Catalog.appSlot] != nil }
        if let best = named.first {
            let apps = Set(named.filter { $0.cost == best.cost }.map(\.app))
            return apps.count > 1 ? .whichApp(apps.sorted(), best) : .app(best, announce: false)
        }
        guard let best = parses.first else { return .notUnderstood }
        let tied = parses.filter { $0.cost == best.cost }
        let apps = Set(tied.map(\.app))
        if apps.count == 1 { return .app(best, announce: best.app != defaultApp) }
        if let defaultApp, let parse = tied.first(where: { $0.app == defaultApp }) {
            return .app(parse, announce: false)
        }
        return .whichApp(apps.sorted(), best)
    }

    /// A parse's slot values without the app name.
    static func parameters(_ parse: Parse) -> [String: String] {
        parse.slotValues.filter { $0.key != Catalog.appSlot }
    }
}
