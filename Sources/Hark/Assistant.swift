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
///
/// Before an app is reached, the assistant checks the person authorized it
/// (``AuthorizationStore``) and that the intent may run on a locked device
/// (``AccessPolicy``).
public actor Assistant {
    public private(set) var catalog: Catalog
    let handlers: [IntentKey: any IntentHandler]
    let decoder: (any SpeechRecognizer)?
    let dictation: DictationVocabulary
    let logger: Logger
    let configuration: EngineConfiguration
    let authorizations: AuthorizationStore?
    /// Whether the device is locked (payments, rides and the apps'
    /// `IntentsRestrictedWhileLocked` are refused).
    public private(set) var policy = AccessPolicy()
    /// Where user vocabulary persists; nil keeps it in memory only.
    let vocabularyStore: UserVocabularyStore?
    private var vocabularyStamp: [String: Date] = [:]

    private var mainGraph: IntentGraph
    /// The words of ``mainParser`` indexed for mending typos, made when
    /// first needed (typed text only) and again after the grammar changes.
    var typoIndex: Typos.Index?
    private(set) var mainParser: TextParser
    /// Readings already made during one reading of a request, by text: the
    /// ways of reading a request (without a courtesy, a contrast, a value
    /// said after it, …) reach the same shorter texts many times over.
    /// Emptied when the outermost reading ends (values such as "in two
    /// hours" are read against the clock).
    var readingMemo = ReadingMemo()
    /// The slots of each app's intents declared free text (`slot NAME:
    /// text`); any other slot read as free text is a `{slot or text}` value
    /// that is on no list (a place), which only a request naming its app
    /// may give (see ``wholeRequestParses(of:)``). Fixed for the assistant's
    /// life, like the installed apps and their names (a grammar rebuild
    /// only changes vocabulary).
    let textSlots: [IntentKey: Set<String>]
    /// Each app's intents' slots that take free text somewhere: declared
    /// free text, or used as `{slot or text}` (a place on no list).
    private let slotsTakingText: [IntentKey: Set<String>]
    let appNames: AppNames
    private var mainGrammar: DecoderGrammar
    private var conversation: Conversation?
    private var pendingQuestion: Question?
    private var answerParser: TextParser?
    private var answerGrammar: DecoderGrammar?
    private var late: [PendingResult] = []
    /// Phones of vocabulary words, for breaking ties between homophones.
    private var phoneCache: [String: [String]?] = [:]
    /// Each word of the user's vocabulary and the best (lowest) position of
    /// a string holding it; rebuilt with the grammar when vocabulary changes.
    private var vocabularyRank: [String: Int] = [:]
    private var vocabularySource: (@Sendable (String) async -> [String: [String]]?)?
    /// What each app last reported of its data (see ``refreshAppVocabulary()``):
    /// kept in `reportedVocabulary` when there is one, so a change made
    /// while Hark was not running is noticed at the next start.
    private let reportedVocabulary: UserVocabularyStore?
    private var reported: [String: [String: [String]]] = [:]
    /// The app to name in the next answer (set when the request named none).
    private var announcing: String?
    /// Whether a heard request naming no app is taken among several apps.
    private let takesUnnamedHeardRequests: Bool

    /// - Parameters:
    ///   - catalog: Installed apps and vocabulary.
    ///   - handlers: The apps' intent handlers.
    ///   - decoder: The recognizer; nil for a text-only assistant.
    ///   - dictation: Words free-text slots may take; the apps' words are added.
    ///   - configuration: How long apps may take.
    ///   - authorizations: Which apps the person allowed; nil allows every app.
    ///   - locked: Whether the device starts locked.
    ///   - vocabularySource: An app's current user vocabulary (see ``setVocabularySource(_:)``).
    ///   - vocabularyStore: The user's vocabulary on disk: loaded now (it
    ///     replaces the catalog's for the apps it has), written by
    ///     ``setVocabulary(_:type:app:)``, and re-read before an utterance
    ///     when another process (`hark vocab set`) changed it.
    ///   - reportedVocabulary: Where what the apps last reported of their
    ///     data is kept between runs (see ``refreshAppVocabulary()``).
    ///   - takesUnnamedHeardRequests: Whether a heard request that names no
    ///     app is taken while several apps are installed (by default it is
    ///     not: ``sayTheApp``).
    /// - Throws: ``GrammarError`` when the grammars do not compile,
    ///   ``CatalogError`` or ``DataFileError`` when the stored vocabulary
    ///   cannot be read.
    public init(catalog: Catalog, handlers: [IntentKey: any IntentHandler], decoder: (any SpeechRecognizer)?,
                dictation: DictationVocabulary, vocabularyStore: UserVocabularyStore? = nil,
                reportedVocabulary: UserVocabularyStore? = nil,
                logger: Logger = Logger(label: "hark"),
                configuration: EngineConfiguration = EngineConfiguration(),
                authorizations: AuthorizationStore? = nil, locked: Bool = false,
                takesUnnamedHeardRequests: Bool = false,
                vocabularySource: (@Sendable (String) async -> [String: [String]]?)? = nil) throws {
        self.vocabularySource = vocabularySource
        self.takesUnnamedHeardRequests = takesUnnamedHeardRequests
        self.reportedVocabulary = reportedVocabulary
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
        self.configuration = configuration
        self.authorizations = authorizations
        policy.locked = locked
        let instances = catalog.grammarInstances()
        let graph = try Self.compile(instances, apps: catalog.apps)
        textSlots = Self.textSlots(of: instances)
        slotsTakingText = Self.slotsTakingText(of: instances)
        appNames = AppNames(catalog.apps)
        // Free text may use the apps' own words too ("bananas").
        var dictation = dictation
        dictation.add(graph.vocabulary)
        self.dictation = dictation
        mainGraph = graph
        mainParser = TextParser(graph: graph)
        vocabularyRank = Self.rank(catalog.userVocabulary)
        mainGrammar = Self.mainGrammar(graph, dictation: dictation, catalog: catalog)
        if let decoder { try decoder.prepare(mainGrammar) }
    }

    /// Each app's intents' slots declared free text.
    static func textSlots(of instances: [GrammarInstance]) -> [IntentKey: Set<String>] {
        slotsByIntent(instances) { grammar, _ in Set(grammar.slots.compactMap { $0.value == .text ? $0.key : nil }) }
    }

    /// Each app's intents' slots that take free text somewhere (``GrammarFile/slotsTakingText(of:)``).
    static func slotsTakingText(of instances: [GrammarInstance]) -> [IntentKey: Set<String>] {
        slotsByIntent(instances) { grammar, intent in grammar.slotsTakingText(of: intent) }
    }

    /// The slots `select` picks for each intent an app's grammars give it.
    private static func slotsByIntent(_ instances: [GrammarInstance],
                                      _ select: (GrammarFile, IntentDefinition) -> Set<String>) -> [IntentKey: Set<String>] {
        var slots: [IntentKey: Set<String>] = [:]
        for instance in instances {
            for intent in instance.grammar.intents where instance.intents?.contains(intent.name) ?? true {
                let picked = select(instance.grammar, intent)
                if !picked.isEmpty { slots[IntentKey(app: instance.app, intent: intent.name), default: []].formUnion(picked) }
            }
        }
        return slots
    }

    /// An answer of words on no list to a question about a value the app
    /// also takes off its list ("Where do you want to go?" "union station"),
    /// written as a name, as in a request (``namingUnlistedValues(_:)``).
    private func answerNamingUnlistedValue(_ parse: Parse, to question: Question, for intent: Intent) -> Parse {
        guard case .value(let parameter) = question, parameter.kind != .text, answerTakesText(question, for: intent) else { return parse }
        return Self.namingFreeText(in: parse) { _ in true }
    }

    /// Whether the answer to `question` may be any words: a message's text,
    /// or a value the app's grammar also takes off its list ("Where do you
    /// want to go?" "Union Station").
    private func answerTakesText(_ question: Question, for intent: Intent) -> Bool {
        guard case .value(let parameter) = question else { return false }
        return parameter.kind == .text || slotsTakingText[IntentKey(app: intent.app, intent: intent.name)]?.contains(parameter.name) == true
    }

    /// The installed apps' spoken names, by app, and each name of more than
    /// one word as typed in one ("monkeychat" → "monkey chat").
    struct AppNames: Sendable {
        let spoken: [String: [[String]]]
        let oneWord: [String: String]
        /// The names of ``oneWord`` of eight letters or more, for ``name(typedWithATypo:)``.
        let oneWordTypos: Typos.Index
        /// The intents each app handles, by app.
        let intents: [String: [String]]
        /// What describes each app, for an app named by what it does (``meant(by:)``).
        let descriptions: [String: AppDescription]

        init(_ apps: [InstalledApp]) {
            var spoken: [String: [[String]]] = [:]
            var oneWord: [String: String] = [:]
            var intents: [String: [String]] = [:]
            for app in apps {
                spoken[app.name] = app.spokenNames.filter { !$0.isEmpty }
                intents[app.name] = app.intents
                for name in app.spokenNames where name.count > 1 && oneWord[name.joined()] == nil {
                    oneWord[name.joined()] = name.joined(separator: " ")
                }
            }
            self.spoken = spoken
            self.oneWord = oneWord
            oneWordTypos = Typos.Index(oneWord.keys, shortest: 8)
            self.intents = intents
            self.descriptions = Self.descriptions(spoken: spoken, intents: intents)
        }

        /// The spoken words of the one name of more than one word that
        /// `letters` (a typed word, lower case) is one typo away from
        /// (``Typos``): "monkychat", "tasknotes", "monkeyrde". Only for names
        /// of eight letters or more, and nil when two names are as near.
        func name(typedWithATypo letters: String) -> String? {
            guard letters.count >= 8, letters.allSatisfy(\.isLetter) else { return nil }
            return oneWordTypos.meant(by: letters).flatMap { oneWord[$0] }
        }
    }

    static func compile(_ catalog: Catalog) throws -> IntentGraph {
        try compile(catalog.grammarInstances(), apps: catalog.apps)
    }

    /// The graph of `instances` (the catalog's) and help for `apps`.
    static func compile(_ instances: [GrammarInstance], apps: [InstalledApp]) throws -> IntentGraph {
        try GrammarCompiler.compile(instances + [Help.instance(apps: apps)])
    }

    /// The number of states of the intent graph the recognizer searches.
    public var graphStateCount: Int { mainGraph.stateCount }

    /// The size of the intent graph: states, arcs, and free-text (dictation) arcs.
    public var graphSize: (states: Int, arcs: Int, freeTextArcs: Int) {
        let arcs = mainGraph.arcs.joined()
        return (mainGraph.stateCount, arcs.count, arcs.filter { $0.label == .anyWord }.count)
    }

    /// Replaces a type of user vocabulary for an app (SiriKit's
    /// `INVocabulary.setVocabularyStrings`), most important first; the next
    /// utterance is heard with it, and it is stored when the assistant has
    /// a vocabulary store.
    ///
    /// - Throws: ``CatalogError`` for an unknown type or a string over 1024
    ///   UTF-16 code units; ``DataFileError`` for a failed write (the
    ///   stored vocabulary is left as it was); ``GrammarError``.
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
        // The decoder's search for the grammar being replaced goes first:
        // compiled beside it, the new grammar set this process's peak
        // (docs/measurements.md, "Memory in noise and after a change").
        decoder?.release(mainGrammar)
        mainGraph = try Self.compile(catalog)
        mainParser = TextParser(graph: mainGraph)
        typoIndex = nil
        vocabularyRank = Self.rank(catalog.userVocabulary)
        mainGrammar = Self.mainGrammar(mainGraph, dictation: dictation, catalog: catalog)
        if let decoder { try decoder.prepare(mainGrammar) }
    }

    /// What the recognizer hears requests against: every app's sentences,
    /// a leading wake phrase, words that may follow an app's name at the
    /// end (``heardEndings``), and the apps' names (free text for no named
    /// app must be heard more surely).
    private static func mainGrammar(_ graph: IntentGraph, dictation: DictationVocabulary, catalog: Catalog) -> DecoderGrammar {
        let names = catalog.apps.flatMap(\.spokenNames)
        return DecoderGrammar(graph: graph, dictation: dictation, leadingPhrases: TextParser.standardWakePhrases,
                              trailingPhrases: heardEndings,
                              trailingAfter: heardEndingsFollow.flatMap { word in names.map { [word] + $0 } },
                              appNames: names, appCount: catalog.apps.count)
    }

    /// Where an app's current user vocabulary comes from: what its data
    /// holds now (contacts, lists, notes), most important first. See
    /// ``refreshAppVocabulary()``.
    public func setVocabularySource(_ source: @escaping @Sendable (String) async -> [String: [String]]?) {
        vocabularySource = source
    }

    /// Asks every app what its data holds now and, where that changed since
    /// the app last reported it (a contact added, renamed or deleted — by
    /// the app, by the person editing its files, by another process, or
    /// while Hark was not running), makes it the app's vocabulary of that
    /// type, so the next utterance is heard with it: what a SiriKit app does
    /// by calling `INVocabulary` whenever its data changes. Run before each
    /// request and, once a finished one is answered, by ``settle()``. A type whose report did not
    /// change is left as the user vocabulary has it (`hark vocab set`).
    public func refreshAppVocabulary() async {
        guard let source = vocabularySource, pendingQuestion == nil else { return }
        var changed = false, reordered = false
        for app in catalog.apps.map(\.name) {
            guard let report = await source(app) else { continue }
            // As stored (trimmed, duplicates dropped), so that a report read
            // back from disk compares equal to the same data reported again.
            let fresh = report.reduce(into: [String: [String]]()) { result, entry in
                let kind = try? VocabularyStringType.named(entry.key)
                let strings = kind.flatMap { try? UserVocabularyStore.normalize(entry.value, type: $0) } ?? entry.value
                if !strings.isEmpty { result[entry.key] = strings }
            }
            let last: [String: [String]]?
            if let known = reported[app] {
                last = known
            } else if let reportedVocabulary, (try? reportedVocabulary.hasRecord(app: app)) == true {
                last = try? reportedVocabulary.vocabulary(app: app)
            } else {
                last = nil
            }
            guard let last else {
                // The first report: the vocabulary was seeded from this very
                // data at start (or set since), so it is only remembered.
                reported[app] = fresh
                do {
                    for (type, strings) in fresh { try reportedVocabulary?.set(strings, type: try VocabularyStringType.named(type), app: app) }
                } catch {
                    logger.error("the app's vocabulary report was not kept", metadata: ["vocabulary.app": "\(app)", "error": "\(error)"])
                }
                continue
            }
            guard fresh != last else { continue }
            do {
                for type in Set(fresh.keys).union(last.keys).sorted() where fresh[type] != last[type] {
                    let strings = fresh[type] ?? []
                    let kind = try VocabularyStringType.named(type)
                    let normalized = try UserVocabularyStore.normalize(strings, type: kind)
                    let current = catalog.userVocabulary[app]?[type] ?? []
                    guard current != normalized else { continue }
                    if let vocabularyStore {
                        try vocabularyStore.set(normalized, type: kind, app: app)
                        vocabularyStamp = vocabularyStore.stamp()
                    }
                    catalog.setVocabulary(normalized, type: type, app: app)
                    // A new order alone (Bobo messaged last) changes which
                    // homophone wins, not what can be heard.
                    if Set(current) == Set(normalized) { reordered = true } else { changed = true }
                    logger.debug("vocabulary follows the app's data", metadata: ["vocabulary.app": "\(app)", "vocabulary.type": "\(type)"])
                }
                reported[app] = fresh
                if let reportedVocabulary {
                    for (type, strings) in fresh { try reportedVocabulary.set(strings, type: try VocabularyStringType.named(type), app: app) }
                    for type in last.keys where fresh[type] == nil {
                        try reportedVocabulary.set([], type: try VocabularyStringType.named(type), app: app)
                    }
                }
            } catch {
                logger.error("the app's vocabulary was not updated", metadata: ["vocabulary.app": "\(app)", "error": "\(error)"])
            }
        }
        if changed {
            do { try rebuildMainGrammar() } catch {
                logger.error("grammar not rebuilt after a vocabulary change", metadata: ["error": "\(error)"])
            }
        } else if reordered {
            vocabularyRank = Self.rank(catalog.userVocabulary)
        }
    }

    /// Notes that a finished turn may have changed an app's data (a note
    /// created, a contact added), for ``settle()`` to catch up with.
    private func noteChanges(after turn: Turn) {
        guard turn.code == IntentResponseCode.success.rawValue, !turn.prompt else { return }
        settleDue = true
    }

    /// Brings what Hark hears up to date with what the last turn changed in
    /// an app's data (a new note's title, a contact added or deleted;
    /// ``refreshAppVocabulary()``). A turn is answered without waiting for
    /// this: rebuilding the grammar after a change takes a few hundred
    /// milliseconds (docs/measurements.md, "The answer does not wait for
    /// the vocabulary"), which the person would otherwise hear as a slow
    /// answer. A live loop calls it once the answer is delivered, while
    /// the person listens; without the call the next request catches up
    /// before it is heard, so nothing is heard with stale vocabulary.
    /// ``read(_:)`` calls it before it returns.
    public func settle() async {
        guard settleDue else { return }
        settleDue = false
        refreshVocabulary()
        await refreshAppVocabulary()
    }

    /// Locks or unlocks the device.
    public func setLocked(_ locked: Bool) {
        policy.locked = locked
    }

    /// Whether the assistant is waiting for an answer.
    public var isAsking: Bool { pendingQuestion != nil || choosingApp != nil }

    // MARK: - Turns

    /// Hears one utterance of 16 kHz mono samples and answers it.
    ///
    /// - Throws: ``RecognitionError`` when decoding fails.
    public func hear(_ samples: [Int16]) async throws -> Turn {
        // Never nil: only `passingUnheard` lets an utterance go unanswered.
        try await hear(samples, passingUnheard: false)!
    }

    /// Answers `samples`, or, with `passingUnheard`, returns nil when the
    /// recognizer heard no word of the grammar in them — leaving any
    /// conversation as it was (see ``hear(_:passingUnheard:)-(RecognitionStream,_)``).
    public func hear(_ samples: [Int16], passingUnheard: Bool) async throws -> Turn? {
        guard let decoder else { throw RecognitionError("this assistant has no recognizer") }
        let grammar = await grammarToHear()
        let recognition = try await decoder.recognize(samples, grammar: grammar)
        return try await respond(to: recognition, heardWith: grammar, samples: samples, decoder: decoder, passingUnheard: passingUnheard)
    }

    /// Starts hearing an utterance while it is spoken: feed its audio to
    /// the stream as it comes, then answer it with ``hear(_:)-(RecognitionStream)``
    /// (or cancel the stream when the audio was no utterance after all).
    ///
    /// - Throws: ``RecognitionError`` when there is no recognizer or it cannot start.
    public func startHearing() async throws -> any RecognitionStream {
        guard let decoder else { throw RecognitionError("this assistant has no recognizer") }
        return try await decoder.startStream(grammar: await grammarToHear())
    }

    /// Hears the next utterance as a recognizer just made would: forgets
    /// what the recognizer learnt of the room, microphone and speaker from
    /// those before (``SpeechRecognizer/resetAdaptation()``). For a
    /// conversation with someone else on a shared recognizer.
    public func resetAdaptation() async {
        await decoder?.resetAdaptation()
    }

    /// Hears the next utterances as a session that had heard `samples`
    /// before would (``SpeechRecognizer/adaptListening(to:)``).
    public func adaptListening(to samples: [Int16]) async throws {
        try await decoder?.adaptListening(to: samples)
    }

    /// Answers the utterance `stream` heard (see ``startHearing()``).
    ///
    /// - Throws: ``RecognitionError`` when decoding fails.
    public func hear(_ stream: any RecognitionStream) async throws -> Turn {
        // Never nil: only `passingUnheard` lets an utterance go unanswered.
        try await hear(stream, passingUnheard: false)!
    }

    /// Answers the utterance `stream` heard, or, with `passingUnheard`,
    /// returns nil when the recognizer heard no word of the grammar in it:
    /// a clatter, a cough, or speech of nothing Hark knows. Nothing changes
    /// then — a question stays asked, no misunderstanding is counted — so
    /// a microphone that is always open (no wake phrase) answers only what
    /// was said to it.
    public func hear(_ stream: any RecognitionStream, passingUnheard: Bool) async throws -> Turn? {
        guard let decoder else { throw RecognitionError("this assistant has no recognizer") }
        let recognition = try await stream.finish()
        return try await respond(to: recognition, heardWith: stream.grammar, samples: stream.samples, decoder: decoder,
                                 passingUnheard: passingUnheard)
    }

    /// The grammar the next utterance is heard against (the question's,
    /// while asking), with the vocabulary brought up to date first.
    private func grammarToHear() async -> DecoderGrammar {
        refreshVocabulary()
        await refreshAppVocabulary()
        return answerGrammar ?? mainGrammar
    }

    private func respond(to heard: Recognition, heardWith grammar: DecoderGrammar, samples: [Int16],
                         decoder: any SpeechRecognizer, passingUnheard: Bool) async throws -> Turn? {
        var recognition = heard
        if grammar !== mainGrammar, !isAnswer(recognition.text) {
            // Not an answer: perhaps a new request, which only the main grammar can hear.
            let request = try await decoder.recognize(samples, grammar: mainGrammar)
            if self.request(in: request.text) != nil { recognition = request }
        }
        if let rejection = recognition.rejection {
            logger.debug("heard as no request: \(rejection)", metadata: [
                "asr.rejection": "\(rejection.name)", "asr.reading": "\(rejection.reading)",
            ])
        }
        if passingUnheard, recognition.text.isEmpty {
            logger.debug("no word of the grammar heard; passed", metadata: ["asr.audio_seconds": "\(recognition.audioSeconds)"])
            return nil
        }
        logger.debug("recognised", metadata: [
            "asr.hypothesis": "\(recognition.text)", "asr.confidence": "\(recognition.confidence)",
            "asr.rtf": "\(recognition.realTimeFactor)",
        ])
        freeTextHeard = Self.freeTextRuns(of: recognition.words)
        heardConfidence = recognition.confidence
        defer { freeTextHeard = []; heardConfidence = nil }
        var text = recognition.text
        if let kept = withoutUnsureRetraction(recognition.words) {
            logger.debug("a retraction heard unsurely at the end; dropped", metadata: ["asr.hypothesis": "\(text)", "asr.kept": "\(kept)"])
            text = kept
        }
        var turn = await respond(to: preferringEarlierHomophones(text, decoder: decoder))
        turn.rejection = recognition.rejection.map(HeardRejection.init) ?? turn.rejection
        turn.confidence = recognition.confidence
        turn.audioSeconds = recognition.audioSeconds
        turn.decodeSeconds = recognition.decodeSeconds
        turn.words = recognition.words
        return turn
    }

    /// The heard request without the retraction it ends with ("… on
    /// MonkeyChat no wait cancel that"), when its words were heard unsurely
    /// (their mean confidence under ``retractionHeardBelow``) and what comes
    /// before is a request; otherwise nil. The grammar hears a request taken
    /// back at its end, so that such speech is not forced onto another
    /// app's name; the same path also takes trailing speech the grammar
    /// does not cover: "did I miss any calls on MonkeyChat while I was in
    /// the shower" heard "… no wait cancel that" (0.03, 0.38, 0.00, 0.02),
    /// "… real quick" heard "… forget it" (0.04, 0.80), "…, someone's at the
    /// door" heard "… wait scratch that" (0.22, 0.21, 0.95). On the spoken
    /// development sets (stop 87) 9 of 10 such tails had a mean under 0.5,
    /// and 6 of 8 retractions the person said had one of 0.5 or more.
    func withoutUnsureRetraction(_ words: [RecognizedWord]) -> String? {
        let said = words.map(\.word)
        guard let count = Self.retractionTail(said) else { return nil }
        let tail = words.suffix(count)
        guard tail.map(\.confidence).reduce(0, +) / Double(count) < Self.retractionHeardBelow else { return nil }
        let rest = said.dropLast(count).joined(separator: " ")
        return request(in: rest) != nil ? rest : nil
    }

    /// See ``withoutUnsureRetraction(_:)``.
    static let retractionHeardBelow = 0.5

    /// `text` with each word of the user's vocabulary that sounds exactly
    /// like an earlier (more important) entry's word replaced by that one,
    /// when the result still parses: the recognizer cannot tell "Koko" from
    /// "Coco", and SiriKit's order of vocabulary strings breaks the tie.
    func preferringEarlierHomophones(_ text: String, decoder: any SpeechRecognizer) -> String {
        let rank = vocabularyRank
        var words = text.split(separator: " ").map(String.init)
        var changed = false
        for (i, word) in words.enumerated() {
            guard let own = rank[word], own > 0, let phones = homophonePhones(word, decoder) else { continue }
            let earlier = rank.filter { $0.value < own && $0.key != word }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            if let match = earlier.first(where: { homophonePhones($0.key, decoder) == phones }) {
                words[i] = match.key
                changed = true
            }
        }
        guard changed else { return text }
        let candidate = words.joined(separator: " ")
        return (answerParser ?? mainParser).parse(candidate).isEmpty ? text : candidate
    }

    /// Each word of `vocabulary` (app → type → strings, most important
    /// first) and the best position of a string holding it.
    static func rank(_ vocabulary: [String: [String: [String]]]) -> [String: Int] {
        var rank: [String: Int] = [:]
        for (_, types) in vocabulary {
            for (_, strings) in types {
                for (index, string) in strings.enumerated() {
                    for word in SpokenForm.words(of: string) { rank[word] = min(rank[word] ?? .max, index) }
                }
            }
        }
        return rank
    }

    private func homophonePhones(_ word: String, _ decoder: any SpeechRecognizer) -> [String]? {
        if let known = phoneCache[word] { return known }
        let phones = decoder.phones(of: word)
        phoneCache[word] = phones
        return phones
    }

    /// Reads one typed turn and answers it. Digits are read as words
    /// ("at 8 am" as "at eight am"), as a person would say them, while free
    /// text keeps them as typed (``TextParser/parse(_:)``).
    public func read(_ text: String) async -> Turn {
        var turn = await respond(to: isAsking ? typedForReading(text) : typedRequest(text))
        turn.heard = text
        // Typed, nothing is spoken while the vocabulary follows: whatever
        // reads next (``reading(of:)`` too) reads with it.
        await settle()
        return turn
    }

    /// The late results of slow handlers, in the order they were promised;
    /// each waits for its handler (or its hard timeout).
    public func lateResults() async -> [Turn] {
        let pending = late
        late = []
        var turns: [Turn] = []
        for result in pending {
            let reply = await result.result()
            let finished = turn(heard: "", reply: reply, keepConversation: true)
            noteChanges(after: finished)
            turns.append(finished)
        }
        return turns
    }

    /// Whether a turn finished since the last ``settle()`` may have changed an app's data.
    private var settleDue = false

    /// The free-text runs of the spoken turn being taken, with how sure the
    /// recognizer was of their words (empty for typed turns).
    private var freeTextHeard: [(text: String, confidence: Double)] = []

    /// How sure the recognizer was of the spoken turn being taken (nil for typed turns).
    private var heardConfidence: Double?

    /// A request heard with less confidence than this, that would change
    /// something at once (not a search, and with no confirmation of its
    /// own), is read back for a yes or no first: "I heard: log the run two
    /// hour. Is that right?". On the spoken development sets (2,495
    /// recordings, stop 77), 48 of the 1,636 requests were heard under 0.5
    /// as something their app would carry out (or refuse) at once: 35 heard
    /// right, now asked once more, and 13 heard wrong, now stopped by a no;
    /// so were 4 of the 14 sentences for nobody acted on ("log the run two
    /// hour" for "lock the front door"). Picked on those sets.
    public static let confirmActionBelow = 0.5

    /// Whether a request for `intent` only reads or shows (a search, a
    /// status, a code, the options), changing nothing.
    public static func onlyReads(_ intent: String) -> Bool {
        ["INSearch", "INGet", "INList"].contains { intent.hasPrefix($0) }
    }

    /// A free-text value heard with a mean word confidence under this is
    /// read back before the request goes on ("I heard: ... Is that right?").
    /// On the fixtures' free text (synthetic voices; `hark bench`, words'
    /// `confidence`), 20 of the 22 readings under 0.7 were wrong and 7 of
    /// the 13 above it right.
    public static let readBackBelow = 0.7

    /// Each run of consecutive free-text words: its words and their mean confidence.
    static func freeTextRuns(of words: [RecognizedWord]) -> [(text: String, confidence: Double)] {
        var runs: [(text: String, confidence: Double)] = []
        var run: [RecognizedWord] = []
        func close() {
            guard !run.isEmpty else { return }
            runs.append((run.map(\.word).joined(separator: " "), run.map(\.confidence).reduce(0, +) / Double(run.count)))
            run = []
        }
        for word in words {
            if word.isFreeText { run.append(word) } else { close() }
        }
        close()
        return runs
    }

    /// The parameters whose value came from a free-text run heard unsurely.
    private func unsureParameters(_ parameters: [String: ParameterValue]) -> Set<String> {
        let unsure = freeTextHeard.filter { $0.confidence < Self.readBackBelow }.map { ParameterValue.matchingKey($0.text) }
        guard !unsure.isEmpty else { return [] }
        return Set(parameters.compactMap { name, value in
            let key = ParameterValue.matchingKey(value.spoken)
            return !key.isEmpty && unsure.contains { $0.contains(key) || key.contains($0) } ? name : nil
        })
    }

    /// While asking "Which app?": each candidate app and the request as it would take it.
    private var choosingApp: [String: Parse]?
    /// While asking "Which app?": the free text of the request being routed,
    /// so that once the app is chosen a value heard unsurely is still read
    /// back (the answer's own words have no free text).
    private var choosingAppFreeText: [(text: String, confidence: Double)] = []

    /// Answers that did not fit the question, in a row; at ``maximumMisunderstood`` Hark gives up.
    private var misunderstood = 0
    static let maximumMisunderstood = 2

    /// Whether `text` reads as an answer to the pending question.
    private func isAnswer(_ text: String) -> Bool {
        guard let answerParser, let parse = answerParser.parse(text).first else { return false }
        if let candidates = choosingApp { return AnswerGrammar.chosenApp(from: parse, among: candidates.keys.sorted()) != nil || parse.intent == AnswerGrammar.cancel }
        return AnswerGrammar.answer(from: parse) != nil
    }

    /// The request to an app `text` reads as (not help, not an answer), if any.
    private func request(in text: String) -> Parse? {
        if case .app(let parse, _) = Self.route(requestParses(of: text), defaultApp: catalog.defaultApp), parse.app != Help.app {
            return parse
        }
        return nil
    }

    /// A new request while a question is pending: the new one is what the
    /// person wants now; the pending one is dropped, and Hark says so.
    private func takeAsNewRequest(_ text: String, dropping intent: Intent) async -> Turn {
        dropConversation()
        var turn = await respond(to: text)
        turn.speech = "Okay, I've dropped the request to \(droppedRequest(intent)). " + turn.speech
        return turn
    }

    /// What a dropped request asked for, from its intent's summary: "book
    /// a ride", "ask a contact for money", "find messages"; the intent's
    /// name in words when it has no summary.
    private func droppedRequest(_ intent: Intent) -> String {
        let description = catalog.apps.first { $0.name == intent.app }?.description(of: intent.name)
        if let summary = description?.summary, let ability = Help.ability(summary: summary, firstClause: true) {
            return ability
        }
        return Self.phrase(intent.name)
    }

    /// What Hark says when it gives up after ``maximumMisunderstood`` answers that did not fit.
    static let givingUp = "Sorry, I'm having trouble understanding. Let's leave it there; you can ask again any time."

    private func respond(to text: String) async -> Turn {
        if let candidates = choosingApp { return await chooseApp(text, among: candidates) }
        if let conversation, let question = pendingQuestion, let answerParser {
            // Free text takes any words, so a request that names an app is a
            // new request, not the message (or the place).
            let asked = await conversation.intent
            if answerTakesText(question, for: asked), request(in: text)?.slotValues[Catalog.appSlot] != nil {
                return await takeAsNewRequest(text, dropping: asked)
            }
            guard let parse = answerParser.parse(text).first.map({ answerNamingUnlistedValue($0, to: question, for: asked) }),
                  let answer = AnswerGrammar.answer(from: parse) else {
                let intent = await conversation.intent
                if request(in: text) != nil { return await takeAsNewRequest(text, dropping: intent) }
                misunderstood += 1
                if misunderstood >= Self.maximumMisunderstood {
                    dropConversation()
                    var turn = self.turn(heard: text, reply: EngineReply(speech: Self.givingUp, code: nil, question: nil, intent: intent))
                    turn.code = "notUnderstood"
                    return turn
                }
                let reply = EngineReply(speech: "Sorry, I didn't get that. " + Conversation.speech(for: question, intent: intent),
                                        code: nil, question: question, intent: intent)
                return turn(heard: text, reply: reply)
            }
            misunderstood = 0
            var unsure: Set<String> = []
            if case .value(let parameter) = question, case .value(let value) = answer {
                unsure = unsureParameters([parameter.name: value])
            }
            let answered = turn(heard: text, reply: await conversation.answer(answer, unsure: unsure))
            noteChanges(after: answered)
            return answered
        }
        refreshVocabulary()
        await refreshAppVocabulary()
        let parses = requestParses(of: text)
        let route = Self.route(parses, defaultApp: catalog.defaultApp)
        if heardConfidence != nil, !takesUnnamedHeardRequests, catalog.apps.count > 1, namesNoApp(route, in: text) {
            logger.debug("heard as no request: it names no app, and several are installed", metadata: ["asr.reading": "\(text)"])
            var turn = Turn(heard: text, confidence: 1, app: nil, intent: nil, slots: [:],
                            speech: Self.sayTheApp, code: "notUnderstood", prompt: false, audioSeconds: 0, decodeSeconds: 0)
            turn.rejection = HeardRejection(reason: "namesNoApp", reading: text,
                                            detail: "heard a request that names no app, and \(catalog.apps.count) apps are installed")
            return turn
        }
        let best: Parse
        switch route {
        case .notUnderstood:
            // "… on Venmo": say which app it was for, so the person knows
            // what was heard and why nothing happens.
            let speech = otherApp(in: text).map { "Sorry, \($0.value) isn't one of your apps, so I can't do that." }
            return Turn(heard: text, confidence: 1, app: nil, intent: nil, slots: [:],
                        speech: speech ?? "Sorry, I didn't understand that.", code: "notUnderstood", prompt: false,
                        audioSeconds: 0, decodeSeconds: 0)
        case .whichApp(let apps, let parse):
            let names = apps.map { catalog.app(named: $0)?.info.displayName ?? $0 }
            // The request as each app would take it, for when the person answers.
            var candidates: [String: Parse] = [:]
            for app in apps { candidates[app] = parses.first { $0.app == app && $0.cost == parse.cost } ?? parses.first { $0.app == app } }
            dropConversation()
            do {
                let graph = try AnswerGrammar.appChoice(catalog.apps.filter { apps.contains($0.name) })
                answerParser = TextParser(graph: graph)
                answerGrammar = DecoderGrammar(graph: graph, dictation: dictation)
                choosingApp = candidates
                choosingAppFreeText = freeTextHeard
            } catch {
                logger.error("app choice grammar failed to compile", metadata: ["error": "\(error)"])
            }
            let parameters = Self.parameters(from: parse.slots)
            return Turn(heard: text, confidence: 1, app: nil, intent: parse.intent, slots: parameters.mapValues(\.value),
                        spokenSlots: parameters.mapValues(\.spoken),
                        speech: "Which app? \(names.dropLast().joined(separator: ", ")) or \(names.last!)?",
                        code: "whichApp", prompt: choosingApp != nil, audioSeconds: 0, decodeSeconds: 0)
        case .app(let parse, let announce):
            if parse.app == Help.app { return help(parse, heard: text) }
            best = parse
            // With one app installed there is nothing to tell apart.
            announcing = announce && catalog.apps.count > 1 ? catalog.app(named: parse.app)?.info.displayName ?? parse.app : nil
        }
        return await start(best, heard: text)
    }

    /// What Hark says to a heard request that names no app.
    public static let sayTheApp = "Sorry, I didn't catch which app that was for. Say it again with the app's name."

    /// Whether a heard request routed as `route` names no app and would go
    /// to an app unnamed (not the default app, not help). Heard, with
    /// several apps installed, such a request is not taken; one several
    /// apps could take still asks "Which app?". Speech the grammar does
    /// not cover is forced onto its nearest sentence, and the sentences
    /// that need no app's name are where most of it lands: on the spoken
    /// development sets (stop 85, 3,603 recordings), 51 of the 104 sentences for nobody heard as requests
    /// named no app, against 6 of the 1,022 requests heard right. A person
    /// speaks to an app by name, as SiriKit asks of apps' intents; typed
    /// text, and a single app installed, keep the request.
    func namesNoApp(_ route: Route, in text: String) -> Bool {
        guard case .app(let parse, announce: true) = route, parse.app != Help.app else { return false }
        return parse.slotValues[Catalog.appSlot] == nil && namedApps(in: TextParser.tokenize(text)).isEmpty
    }

    /// The answer to "Which app?": the request goes to the app named.
    private func chooseApp(_ text: String, among candidates: [String: Parse]) async -> Turn {
        if let parse = answerParser?.parse(text).first {
            if parse.intent == AnswerGrammar.cancel {
                dropConversation()
                return Turn(heard: text, confidence: 1, app: nil, intent: nil, slots: [:], speech: "Okay, cancelled.",
                            code: "cancelled", prompt: false, audioSeconds: 0, decodeSeconds: 0)
            }
            if let app = AnswerGrammar.chosenApp(from: parse, among: candidates.keys.sorted()), let request = candidates[app] {
                let requestFreeText = choosingAppFreeText
                dropConversation()
                freeTextHeard = requestFreeText
                defer { freeTextHeard = [] }
                return await start(request, heard: text)
            }
        }
        if request(in: text) != nil {
            dropConversation()
            return await respond(to: text)
        }
        misunderstood += 1
        let names = candidates.keys.sorted().map { catalog.app(named: $0)?.info.displayName ?? $0 }
        if misunderstood >= Self.maximumMisunderstood {
            dropConversation()
            return Turn(heard: text, confidence: 1, app: nil, intent: nil, slots: [:], speech: Self.givingUp,
                        code: "notUnderstood", prompt: false, audioSeconds: 0, decodeSeconds: 0)
        }
        return Turn(heard: text, confidence: 1, app: nil, intent: candidates.values.first?.intent, slots: [:],
                    speech: "Sorry, which app? \(names.dropLast().joined(separator: ", ")) or \(names.last!)?",
                    code: "whichApp", prompt: true, audioSeconds: 0, decodeSeconds: 0)
    }

    /// Starts the conversation for a routed request.
    private func start(_ best: Parse, heard text: String) async -> Turn {
        let key = IntentKey(app: best.app, intent: best.intent)
        let parameters = Self.parameters(from: best.slots)
        guard let handler = handlers[key], let description = catalog.app(named: best.app)?.description(of: best.intent) else {
            return Turn(heard: text, confidence: 1, app: best.app, intent: best.intent,
                        slots: parameters.mapValues(\.value), spokenSlots: parameters.mapValues(\.spoken),
                        speech: "Sorry, \(best.app) can't do that yet.", code: "unsupported", prompt: false,
                        audioSeconds: 0, decodeSeconds: 0)
        }
        if let refusal = refusal(app: best.app, description: description) {
            logger.info("request refused", metadata: ["intent.app": "\(best.app)", "intent.name": "\(best.intent)",
                                                      "reason": "\(refusal)"])
            return Turn(heard: text, confidence: 1, app: best.app, intent: best.intent,
                        slots: parameters.mapValues(\.value), spokenSlots: parameters.mapValues(\.spoken),
                        speech: refusal, code: "refused", prompt: false, audioSeconds: 0, decodeSeconds: 0)
        }
        let intent = Intent(app: best.app, name: best.intent, parameters: parameters)
        let conversation = Conversation(intent: intent, description: description, handler: handler,
                                        configuration: configuration, logger: logger)
        self.conversation = conversation
        let unsure = unsureParameters(parameters)
        if !unsure.isEmpty {
            logger.info("free text heard unsurely: reading it back", metadata: ["intent.parameters": "\(unsure.sorted())"])
        }
        var confirmingFirst: String?
        // (Not on top of free text read back: the question asks about it.)
        if let confidence = heardConfidence, confidence < Self.confirmActionBelow, unsure.isEmpty, !Self.onlyReads(best.intent) {
            logger.info("request heard unsurely: reading it back before it is carried out", metadata: [
                "asr.confidence": "\(confidence)", "intent.name": "\(best.intent)",
            ])
            confirmingFirst = "I heard: \(text). Is that right?"
        }
        var started = turn(heard: text, reply: await conversation.start(unsure: unsure, confirmingFirst: confirmingFirst))
        started.spokenSlots = parameters.mapValues(\.spoken)
        noteChanges(after: started)
        return started
    }

    /// The generic parameters of a parse's slots: `recipients` → one value;
    /// `currencyAmount.amount` + `currencyAmount.currencyCode` → one value
    /// with those parts.
    static func parameters(from slots: [SlotValue]) -> [String: ParameterValue] {
        var parameters: [String: ParameterValue] = [:]
        for slot in slots where slot.name != Catalog.appSlot {
            let pieces = slot.name.split(separator: ".", maxSplits: 1).map(String.init)
            if pieces.count == 2 {
                var value = parameters[pieces[0]] ?? ParameterValue(spoken: "", value: "")
                value.parts[pieces[1]] = slot.value
                value.spoken = value.spoken.isEmpty ? slot.raw : value.spoken + " " + slot.raw
                value.value = value.spoken
                parameters[pieces[0]] = value
            } else if parameters[slot.name] == nil {
                parameters[slot.name] = ParameterValue(spoken: slot.value == slot.raw ? slot.raw : slot.value, value: slot.value)
            }
        }
        return parameters
    }

    private func refusal(app name: String, description: IntentDescription) -> String? {
        guard let app = catalog.apps.first(where: { $0.name == name }) else { return nil }
        let authorized: Bool
        do {
            authorized = try authorizations?.isAuthorized(name) ?? true
        } catch {
            logger.error("cannot read authorizations", metadata: ["error": "\(error)"])
            return "I can't tell whether \(name) is allowed to work with Hark: \(error)"
        }
        return policy.refusal(app: app.info.displayName, intent: description,
                              appRestricted: app.info.intentsRestrictedWhileLocked, authorized: authorized,
                              usageDescription: app.info.usageDescription)
    }

    /// Forgets the conversation in progress and its question.
    private func dropConversation() {
        choosingApp = nil
        choosingAppFreeText = []
        conversation = nil
        pendingQuestion = nil
        answerParser = nil
        answerGrammar = nil
        misunderstood = 0
    }

    /// "INSendMessageIntent" → "send message"; "orderDrink" → "order drink".
    static func phrase(_ intent: String) -> String {
        var name = intent
        if name.hasPrefix("IN"), name.hasSuffix("Intent") { name = String(name.dropFirst(2).dropLast(6)) }
        return InstalledApp.phrase(name)
    }

    private func help(_ parse: Parse, heard: String) -> Turn {
        dropConversation()
        if parse.intent == Help.appHelp, let name = parse.slotValues["app"],
           let app = catalog.apps.first(where: { $0.name == name }) {
            return Turn(heard: heard, confidence: 1, app: app.name, intent: parse.intent, slots: ["app": app.name],
                        speech: Help.appSpeech(app), code: "help", prompt: false, audioSeconds: 0, decodeSeconds: 0)
        }
        return Turn(heard: heard, confidence: 1, app: nil, intent: Help.overview, slots: [:],
                    speech: Help.overviewSpeech(apps: catalog.apps), code: "help", prompt: false,
                    audioSeconds: 0, decodeSeconds: 0)
    }

    private func turn(heard: String, reply: EngineReply, keepConversation: Bool = false) -> Turn {
        defer { announcing = nil }
        if let pending = reply.pending { late.append(pending) }
        if !keepConversation {
            pendingQuestion = reply.question
            if let question = reply.question {
                let vocabulary = catalog.userVocabulary[reply.intent.app] ?? [:]
                do {
                    let graph = try AnswerGrammar.graph(for: question, vocabulary: vocabulary,
                                                        common: catalog.answerLists(app: reply.intent.app),
                                                        anyWords: answerTakesText(question, for: reply.intent))
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
        }
        var turn = Turn(
            heard: heard, confidence: 1, app: reply.intent.app, intent: reply.intent.name,
            slots: reply.intent.parameters.mapValues(\.value),
            speech: announcing.map { "\($0): \(reply.speech)" } ?? reply.speech, code: reply.outcome,
            prompt: reply.question != nil, audioSeconds: 0, decodeSeconds: 0)
        turn.output = reply.response?.output ?? [:]
        turn.userActivity = reply.response?.userActivity?.activityType
        turn.developerError = reply.developerError
        if let template = catalog.apps.first(where: { $0.name == reply.intent.app })?.info.cardTemplates[reply.intent.name] {
            turn.card = template.render { name in
                switch name {
                case "app": return reply.intent.app
                case "intent": return reply.intent.name
                case "speech": return turn.speech
                default:
                    if name.hasPrefix("output.") { return turn.output[String(name.dropFirst("output.".count))] }
                    return reply.intent.parameters[name]?.value
                }
            }
        }
        return turn
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

}

// MARK: - Transcribing and reading without acting (hark serve's asr and intent services)

extension Assistant {
    /// Recognises 16 kHz mono speech against the grammar the conversation
    /// is in (the question's, while asking), without acting on it.
    ///
    /// - Throws: ``RecognitionError`` when decoding fails or there is no recognizer.
    public func transcribe(_ samples: [Int16]) async throws -> String {
        guard let decoder else { throw RecognitionError("this assistant has no recognizer") }
        refreshVocabulary()
        let recognition = try await decoder.recognize(samples, grammar: answerGrammar ?? mainGrammar)
        return recognition.text
    }

    /// Reads text into the app, intent and slots it would reach, without
    /// running the app's handler; nil when nothing matches or several apps tie.
    public func interpret(_ text: String) -> (app: String, intent: String, slots: [String: String])? {
        guard case .understood(let app, let intent, let slots) = reading(of: text) else { return nil }
        return (app, intent, slots)
    }

    /// What a new typed request would lead to, without running any handler
    /// or changing the conversation: `hark bench --typed` scores this.
    public func reading(of text: String) -> TextReading {
        switch Self.route(requestParses(of: typedRequest(text)), defaultApp: catalog.defaultApp) {
        case .notUnderstood: .notUnderstood
        case .app(let parse, _): .understood(app: parse.app, intent: parse.intent,
                                             slots: Self.parameters(from: parse.slots).mapValues(\.value))
        case .whichApp(let apps, let parse): .whichApp(intent: parse.intent, apps: apps)
        }
    }
}

/// Where a new request would go (``Assistant/reading(of:)``).
public enum TextReading: Sendable, Equatable {
    /// Not understood: Hark would say so and do nothing.
    case notUnderstood
    /// To this app's intent, with these parameter values.
    case understood(app: String, intent: String, slots: [String: String])
    /// Several apps could take it and none was named: Hark would ask which.
    case whichApp(intent: String, apps: [String])
}

/// A word of typed text as written: where it is, lowercased without the
/// punctuation around it ("I’d," → "i'd"), and whether a comma or a full
/// stop ends it.
struct TypedWord {
    let word: String
    let range: Range<String.Index>
    let endsClause: Bool
    let startsWithCapital: Bool

    static func split(_ text: String) -> [TypedWord] {
        var words: [TypedWord] = []
        var index = text.startIndex
        while index < text.endIndex {
            guard !text[index].isWhitespace else { index = text.index(after: index); continue }
            let end = text[index...].firstIndex(where: \.isWhitespace) ?? text.endIndex
            let written = text[index..<end]
            let word = Self.word(written)
            if !word.isEmpty {
                words.append(TypedWord(word: word, range: index..<end, endsClause: written.last.map { ",.;:!?".contains($0) } ?? false,
                                       startsWithCapital: written.first?.isUppercase ?? false))
            }
            index = end
        }
        return words
    }

    /// A written word as it is read: lowercased, a typographic apostrophe
    /// plain, without the punctuation around it ("I’d," → "i'd").
    static func word(_ written: some StringProtocol) -> String {
        written.lowercased().replacingOccurrences(of: "\u{2019}", with: "'").trimmingCharacters(in: .punctuationCharacters)
    }

    /// The marks a written word ends with ("monkeychat," → ","), kept when
    /// the word is written otherwise.
    static func trailingMarks(of written: some StringProtocol) -> String {
        String(written.reversed().prefix { !$0.isLetter && !$0.isNumber }.reversed())
    }
}

/// One step of a pattern over words: one of some phrases, perhaps none,
/// or any number of them one after another.
enum WordPattern {
    case one([[String]])
    case optional([[String]])
    case many([[String]])

    /// How many words `pattern` matches at the start of `words`; nil when it does not.
    static func match(_ pattern: [WordPattern], _ words: [String]) -> Int? {
        var at = 0
        func phrase(_ phrases: [[String]]) -> Int? {
            phrases.first { words[at...].starts(with: $0) }?.count
        }
        for step in pattern {
            switch step {
            case .one(let phrases):
                guard let length = phrase(phrases) else { return nil }
                at += length
            case .optional(let phrases):
                at += phrase(phrases) ?? 0
            case .many(let phrases):
                while let length = phrase(phrases) { at += length }
            }
        }
        return at
    }
}
