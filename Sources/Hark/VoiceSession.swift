import Foundation
import HarkAudio
import HarkRecognition
import Logging

/// The live loop an embedding program runs, as `hark listen` does: audio
/// from a source (a microphone, raw PCM, a network stream) is split into
/// utterances by the endpointer; hands-free, the wake gate lets through
/// only what follows the wake phrase; the assistant answers; the answer is
/// spoken to the sink. While Hark speaks, and for a short tail after,
/// captured audio is dropped, so a loudspeaker's sound is never heard as a
/// request.
///
/// ```swift
/// let session = VoiceSession(source: try ALSACapture(device: "default"), assistant: assistant,
///                            recognizer: decoder, synthesizer: try ESpeakSynthesizer(), sink: ALSAPlayback())
/// try await session.run { event in if case .turn(let turn) = event { print(turn.speech) } }
/// ```
public struct VoiceSession: Sendable {
    public struct Configuration: Sendable {
        /// Where utterances start and end.
        public var endpointer = EndpointerConfiguration()
        /// Hands-free: answer only what follows this phrase.
        public var wakePhrase: String?
        /// pocketsphinx's keyword-spotting threshold for the wake phrase.
        public var wakeThreshold = 1e-20
        /// How long after Hark stops speaking captured audio is still
        /// dropped (a room's echo, the sink's own buffer).
        public var echoTail: Duration = .milliseconds(300)

        public init() {}
    }

    /// What happened, for the program to show.
    public enum Event: Sendable, Equatable {
        /// An utterance without the wake phrase was ignored (its length in seconds).
        case ignored(seconds: Double)
        /// The wake phrase alone: Hark answered "Yes?" and takes the next utterance.
        case awake
        /// A turn of the conversation (and, after it, any slow handler's late result).
        case turn(Turn)
        /// Audio captured while Hark was speaking was dropped (seconds of it).
        case droppedWhileSpeaking(seconds: Double)
        /// Without a wake phrase, an utterance in which no word of the
        /// grammar was heard (a clatter, talk of something else) went
        /// unanswered (its length in seconds).
        case unheard(seconds: Double)
    }

    public let source: any AudioSource
    public let assistant: Assistant
    public let recognizer: any SpeechRecognizer
    public let synthesizer: (any SpeechSynthesizer)?
    public let sink: (any AudioSink)?
    public let configuration: Configuration
    let logger: Logger

    public init(source: any AudioSource, assistant: Assistant, recognizer: any SpeechRecognizer,
                synthesizer: (any SpeechSynthesizer)?, sink: (any AudioSink)?,
                configuration: Configuration = Configuration(), logger: Logger = Logger(label: "hark")) {
        self.source = source
        self.assistant = assistant
        self.recognizer = recognizer
        self.synthesizer = synthesizer
        self.sink = sink
        self.configuration = configuration
        self.logger = logger
    }

    /// Listens until the source ends, calling `onEvent` for each event
    /// (before the answer is spoken).
    ///
    /// - Throws: the source's, recognizer's, synthesizer's or sink's error,
    ///   or `onEvent`'s.
    public func run(_ onEvent: @Sendable (Event) async throws -> Void) async throws {
        var endpointer = Endpointer(configuration: configuration.endpointer)
        var gate = configuration.wakePhrase.map { WakeGate(phrase: $0, threshold: configuration.wakeThreshold) }
        let handsFree = gate != nil
        let clock = ContinuousClock()
        /// Audio arriving before this instant was captured while Hark spoke.
        var deafUntil: ContinuousClock.Instant?
        var dropped = 0

        /// Speaks `text`; true when something was played.
        func say(_ text: String) async throws -> Bool {
            guard let sink, let synthesizer, !text.isEmpty else { return false }
            try await sink.write(try synthesizer.synthesize(text))
            return true
        }

        /// Answers one utterance; true when Hark spoke.
        func answer(_ utterance: Utterance) async throws -> Bool {
            var samples = utterance.samples
            if gate != nil {
                switch try await gate!.admit(samples, assistant: assistant, decoder: recognizer) {
                case .ignored:
                    try await onEvent(.ignored(seconds: utterance.endTime - utterance.startTime))
                    return false
                case .woke:
                    try await onEvent(.awake)
                    return try await say("Yes?")
                case .request(let request):
                    samples = request
                }
            }
            return try await deliver(try await assistant.hear(samples))
        }

        /// Shows and speaks a turn, and any slow handler's late result; true when Hark spoke.
        func deliver(_ turn: Turn) async throws -> Bool {
            try await onEvent(.turn(turn))
            var spoke = try await say(handsFree ? turn.speech : turn.briefSpeech)
            // A slow handler's result, spoken when it arrives.
            for late in await assistant.lateResults() {
                try await onEvent(.turn(late))
                spoke = try await say(handsFree ? late.speech : late.briefSpeech) || spoke
            }
            // What the turn changed in an app's data is heard from the next
            // request on; caught up with now, after the answer.
            await assistant.settle()
            return spoke
        }

        // Without a wake phrase every utterance is a request: it is heard
        // while it is spoken (``LiveHearing``). With one, the wake phrase is
        // spotted in the whole utterance first.
        // The microphone is always open then, so sound with no word of the
        // grammar in it goes unanswered.
        let live = handsFree ? nil : LiveHearing(assistant: assistant, configuration: configuration.endpointer, passingUnheard: true)

        /// Shows and speaks what the live loop heard; true when Hark spoke.
        func deliver(_ heard: HeardUtterance) async throws -> Bool {
            guard let turn = heard.turn else {
                try await onEvent(.unheard(seconds: heard.utterance.endTime - heard.utterance.startTime))
                return false
            }
            return try await deliver(turn)
        }

        for try await frame in source.frames() {
            if let until = deafUntil {
                if clock.now < until {
                    dropped += frame.count
                    continue
                }
                deafUntil = nil
                if dropped > 0 {
                    try await onEvent(.droppedWhileSpeaking(seconds: Double(dropped) / Double(PCMAudio.recognitionRate)))
                    dropped = 0
                }
            }
            if let live {
                for heard in try await live.process(frame) where try await deliver(heard) {
                    // What the microphone heard while Hark spoke is not a request.
                    deafUntil = clock.now + configuration.echoTail
                    await live.reset()
                    break
                }
                continue
            }
            for utterance in endpointer.process(frame) where try await answer(utterance) {
                // What the microphone heard while Hark spoke is not a request.
                deafUntil = clock.now + configuration.echoTail
                endpointer = Endpointer(configuration: configuration.endpointer)
                break
            }
        }
        if let live {
            for heard in try await live.finish() { _ = try await deliver(heard) }
        }
        for utterance in endpointer.finish() { _ = try await answer(utterance) }
    }
}
