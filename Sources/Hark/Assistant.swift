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

    private var mainGraph: IntentGraph
    private var mainParser: TextParser
    private var mainGrammar: DecoderGrammar
    private var conversation: Conversation?
    private var pendingQuestion: Question?
    private var answerParser: TextParser?
    private var answerGrammar: DecoderGrammar?

    /// - Parameters:
    ///   - catalog: Installed apps and vocabulary.
    ///   - handlers: The apps' intent handlers.
    ///   - decoder: The recognizer; nil for a text-only assistant.
    ///   - dictation: Words free-text slots may take; the apps' words are added.
    /// - Throws: ``GrammarError`` when the grammars do not compile.
    public init(catalog: Catalog, handlers: [IntentKey: any IntentHandler], decoder: PocketSphinxDecoder?,
                dictation: DictationVocabulary, logger: Logger = Logger(label: "hark")) throws {
        self.catalog = catalog
        self.handlers = handlers
        self.decoder = decoder
        self.logger = logger
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

    /// Replaces a type of user vocabulary for an app; the next utterance is
    /// heard with it.
    public func setVocabulary(_ strings: [String], type: String, app: String) throws {
        catalog.setVocabulary(strings, type: type, app: app)
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
        let parses = mainParser.parse(text)
        guard let best = parses.first else {
            return Turn(heard: text, confidence: 1, app: nil, intent: nil, slots: [:],
                        speech: "Sorry, I didn't understand that.", code: "notUnderstood", prompt: false,
                        audioSeconds: 0, decodeSeconds: 0)
        }
        let tied = parses.filter { $0.cost == best.cost && $0.intent == best.intent }
        if Set(tied.map(\.app)).count > 1 {
            let apps = tied.map(\.app).sorted()
            return Turn(heard: text, confidence: 1, app: nil, intent: best.intent, slots: best.slotValues,
                        speech: "Which app? \(apps.dropLast().joined(separator: ", ")) or \(apps.last!)?",
                        code: "whichApp", prompt: false, audioSeconds: 0, decodeSeconds: 0)
        }
        let key = IntentKey(app: best.app, intent: best.intent)
        guard let handler = handlers[key], let description = Domains.all[best.intent] else {
            return Turn(heard: text, confidence: 1, app: best.app, intent: best.intent, slots: best.slotValues,
                        speech: "Sorry, \(best.app) can't do that yet.", code: "unsupported", prompt: false,
                        audioSeconds: 0, decodeSeconds: 0)
        }
        var intent = Intent(app: best.app, name: best.intent)
        for slot in best.slots where intent[slot.name] == nil {
            intent[slot.name] = ParameterValue(spoken: slot.raw, value: slot.value)
        }
        let conversation = Conversation(intent: intent, description: description, handler: handler)
        self.conversation = conversation
        return turn(heard: text, reply: await conversation.start())
    }

    private func turn(heard: String, reply: EngineReply) -> Turn {
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
            slots: reply.intent.parameters.mapValues(\.value), speech: reply.speech, code: reply.outcome,
            prompt: reply.question != nil, audioSeconds: 0, decodeSeconds: 0)
    }
}
