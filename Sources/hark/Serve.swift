import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hark
import HarkRecognition
import HarkSpeech
import HarkWyoming
import Logging

extension HarkCommand {
    /// `hark serve`: the assistant as a Wyoming voice service.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve Hark over the Wyoming protocol (asr, intent, handle, tts, wake) to Home Assistant, satellites and other clients.",
            discussion: """
                One process serves every room: one acoustic model (a decoder per core) and one data folder; \
                each connection, or each conversation_id a client sends, is its own conversation. Prints \
                "hark: serving on URI" to standard error once listening. Protocol coverage and limits: docs/serving.md.

                Home Assistant: run `hark serve --uri tcp://0.0.0.0:10700`, then in Home Assistant open \
                Settings → Devices & services → Add integration → Wyoming Protocol, and enter this machine's \
                host name or address and port 10700. Hark then offers speech-to-text, text-to-speech, wake word \
                and a conversation agent to your voice assistants.

                A wyoming-satellite in a room (a server itself) is dialled with --satellite.

                Examples:
                  hark serve --uri tcp://127.0.0.1:10700 --json
                  hark serve --uri unix:///tmp/hark-serve.sock
                  hark serve --uri tcp://127.0.0.1:0 --satellite tcp://127.0.0.1:10799
                """)

        @Option(help: "Where to listen: tcp://HOST:PORT (port 0 picks a free one) or unix://PATH.")
        var uri: String = "tcp://127.0.0.1:10700"

        @Option(help: ArgumentHelp("A wyoming-satellite to connect to and run the voice pipeline for (repeatable).", valueName: "tcp://HOST:PORT"))
        var satellite: [String] = []

        @Option(help: "A wake phrase the wake service listens for (repeatable; default \"hey hark\").")
        var wake: [String] = []

        @Option(help: "Keyword-spotting threshold for the wake phrases (lower hears them more readily, and falsely more often).")
        var wakeThreshold: Double = 1e-20

        @Option(help: "Decoders, one per core: this many utterances are decoded at once; more wait (default: the number of cores).")
        var decoders: Int?

        @Option(help: "Connections served at once; more are refused with an error event.")
        var maxConnections: Int = 64

        @Option(help: "Seconds a client may take to send one event once started (slow or stalled clients are cut off).")
        var eventTimeout: Double = 10

        @Option(help: "Seconds a client may stay silent between events.")
        var idleTimeout: Double = 300

        @Flag(help: "Print one JSON object per turn handled (with its site) to standard output, flushed at once.")
        var json = false

        @OptionGroup var options: AssistantOptions
        @OptionGroup var voice: VoiceOptions

        func validate() throws {
            do {
                _ = try WyomingAddress(uri: uri)
                for uri in satellite { _ = try WyomingAddress(uri: uri) }
            } catch { throw ValidationError(error.description) }
            for phrase in wake where !phrase.contains(where: \.isLetter) { throw ValidationError("--wake needs words, got '\(phrase)'") }
            guard wakeThreshold > 0, wakeThreshold < 1 else { throw ValidationError("--wake-threshold must be between 0 and 1, e.g. 1e-20") }
            if let decoders, !(1...64).contains(decoders) { throw ValidationError("--decoders must be between 1 and 64") }
            guard (1...10_000).contains(maxConnections) else { throw ValidationError("--max-connections must be between 1 and 10000") }
            guard eventTimeout > 0, eventTimeout <= 3600 else { throw ValidationError("--event-timeout must be between 0 and 3600 seconds") }
            guard idleTimeout > 0, idleTimeout <= 86_400 else { throw ValidationError("--idle-timeout must be between 0 and 86400 seconds") }
        }

        func run() async throws {
            bootstrapLogging(verbose: options.verbose)
            try await Self.reportingErrors {
                let logger = Logger(label: "hark.serve")
                var configured = WyomingLimits()
                configured.maxConnections = maxConnections
                configured.eventTimeout = eventTimeout
                configured.idleTimeout = idleTimeout
                let limits = configured
                let count = decoders ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
                // Made one at a time: pocketsphinx's initialisation is not safe to run concurrently.
                let pool = try (0..<count).map { _ in try Wiring.decoder(options) }
                // One set of app data, stores and extension processes for every client.
                let installed = try Wiring.installedApps(options)
                let json = json
                let backend = try AssistantBackend(
                    decoders: pool, wakePhrases: wake.isEmpty ? ["hey hark"] : wake, wakeThreshold: wakeThreshold,
                    synthesizer: ESpeakSynthesizer(voice: voice.voice, rate: voice.rate),
                    makeAssistant: { decoder in try installed.makeAssistant(recognizer: decoder) },
                    report: { turn in
                        // Written at once (no stdio buffer), so a program reading the pipe sees each turn as it happens.
                        if json { FileHandle.standardOutput.write(Data((turn.jsonLine + "\n").utf8)) }
                    })
                // Fail now, not at the first client, if the apps do not load.
                try await backend.conversations.prepare()
                let server = try WyomingServer(address: WyomingAddress(uri: uri), limits: limits, logger: logger) { connection in
                    WyomingSession(connection: connection, backend: backend, logger: logger).run()
                }
                for uri in satellite {
                    let address = try WyomingAddress(uri: uri)
                    let thread = Thread {
                        while true {
                            do {
                                let connection = try WyomingConnection.connect(to: address, limits: limits)
                                connection.idleTimeout = .infinity
                                logger.info("satellite connected", metadata: ["wyoming.peer": "\(address)"])
                                WyomingSession(connection: connection, backend: backend, logger: logger)
                                    .run(greeting: [WyomingEvent("describe"), WyomingEvent("run-satellite")])
                            } catch {
                                logger.warning("satellite unreachable; retrying in 3 s", metadata: ["wyoming.peer": "\(address)", "error": "\(error)"])
                            }
                            sleep(3)
                        }
                    }
                    thread.start()
                }
                FileHandle.standardError.write(Data("hark: serving on \(server.address) (\(count) decoders)\n".utf8))
                server.acceptForever()
            }
        }
    }
}

/// The assistant behind `hark serve`: a conversation per client (or per
/// conversation id), decoders from a pool, one synthesizer.
final class AssistantBackend: WyomingBackend {
    let decoders: [any SpeechRecognizer]
    let wakePhrases: [String]
    let wakeThreshold: Double
    let synthesizer: ESpeakSynthesizer
    let conversations: Conversations
    let report: @Sendable (Turn) -> Void
    /// Conversations kept at once; the least recently used beyond this is forgotten.
    static let maxConversations = 256

    init(decoders: [any SpeechRecognizer], wakePhrases: [String], wakeThreshold: Double, synthesizer: ESpeakSynthesizer,
         makeAssistant: @escaping @Sendable (any SpeechRecognizer) throws -> Assistant, report: @escaping @Sendable (Turn) -> Void) {
        self.decoders = decoders
        self.wakePhrases = wakePhrases
        self.wakeThreshold = wakeThreshold
        self.synthesizer = synthesizer
        self.report = report
        conversations = Conversations(decoders: decoders, make: makeAssistant, limit: Self.maxConversations)
    }

    /// Who made what Hark offers, as Wyoming's `info` wants it on every program and model.
    static let attribution: JSONValue = ["name": "Hark", "url": "https://github.com/hark-assistant/hark"]

    func info() async -> [String: JSONValue] {
        let version: JSONValue = "1.0"
        func artifact(_ name: String, _ description: String, _ extra: [String: JSONValue]) -> JSONValue {
            .object(["name": .string(name), "description": .string(description), "attribution": Self.attribution,
                     "installed": true, "version": version].merging(extra) { _, new in new })
        }
        let languages: JSONValue = ["en"]
        return [
            "asr": [artifact("hark-asr", "pocketsphinx constrained by the installed apps' grammars, with dictation", [
                "models": [artifact("en-us", "CMU Sphinx US English acoustic model", ["languages": languages])],
                "supports_transcript_streaming": false,
            ])],
            "tts": [artifact("hark-tts", "espeak-ng", [
                "voices": [artifact(synthesizer.voice, "espeak-ng voice \(synthesizer.voice)", ["languages": languages, "speakers": .null])],
                "supports_synthesize_streaming": false,
            ])],
            "handle": [artifact("hark", "Hark's apps, the SiriKit way: resolve, confirm, handle", [
                "models": [artifact("hark-apps", "the installed apps", ["languages": languages])],
                "supports_handled_streaming": false,
            ])],
            "intent": [artifact("hark-intent", "the installed apps' grammars", [
                "models": [artifact("hark-apps", "the installed apps", ["languages": languages])],
            ])],
            "wake": [artifact("hark-wake", "pocketsphinx keyword spotting", [
                "models": .array(wakePhrases.map { artifact($0, "wake phrase '\($0)'", ["languages": languages, "phrase": .string($0)]) }),
            ])],
            "mic": [], "snd": [],
        ]
    }

    func transcribe(_ samples: [Int16], conversation: String) async throws -> String {
        try await conversations.stateless(conversation).transcribe(samples)
    }

    func recognize(_ text: String, conversation: String) async throws -> WyomingIntent? {
        guard let found = await conversations.stateless(conversation).interpret(text) else { return nil }
        let entities = [(name: "app", value: found.app)] + found.slots.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        return WyomingIntent(name: found.intent, entities: entities, text: text)
    }

    func handle(_ text: String, conversation: String, site: String) async throws -> WyomingReply {
        var turn = try await conversations.assistant(conversation).read(text)
        return finish(&turn, site: site)
    }

    func hear(_ samples: [Int16], conversation: String, site: String) async throws -> WyomingReply {
        var turn = try await conversations.assistant(conversation).hear(samples)
        return finish(&turn, site: site)
    }

    private func finish(_ turn: inout Turn, site: String) -> WyomingReply {
        turn.site = site
        report(turn)
        let handled = !["notUnderstood", "unsupported"].contains(turn.code)
        return WyomingReply(heard: turn.heard, speech: turn.speech, handled: handled, prompt: turn.prompt)
    }

    func synthesize(_ text: String) async throws -> (samples: [Int16], rate: Int) {
        let audio = try synthesizer.synthesize(text)
        return (audio.int16Samples(), audio.sampleRate)
    }

    func spotWake(_ samples: [Int16], names: [String]?) async throws -> (name: String, end: Int)? {
        let phrases = names.map { wanted in wakePhrases.filter { wanted.contains($0) } }.flatMap { $0.isEmpty ? nil : $0 } ?? wakePhrases
        let decoder = await conversations.nextDecoder()
        for phrase in phrases {
            if let end = try await decoder.spot(phrase, in: samples, threshold: wakeThreshold) { return (phrase, end) }
        }
        return nil
    }

    func isAsking(conversation: String) async -> Bool {
        guard let assistant = await conversations.existing(conversation) else { return false }
        return await assistant.isAsking
    }

    func endConversation(_ conversation: String) async {
        await conversations.end(conversation)
    }
}

/// The assistants of the conversations going on, each with a decoder of
/// the pool. Making an assistant compiles the apps' grammars (seconds on a
/// busy machine), so one per decoder serves requests that need no
/// conversation (asr, intent) and a spare is kept ready for the next new one.
actor Conversations {
    let decoders: [any SpeechRecognizer]
    let make: @Sendable (any SpeechRecognizer) throws -> Assistant
    let limit: Int
    private var assistants: [String: (assistant: Assistant, used: UInt64)] = [:]
    private var shared: [Assistant] = []
    private var spares: [Assistant] = []
    private var making = false
    private var next = 0
    private var clock: UInt64 = 0

    init(decoders: [any SpeechRecognizer], make: @escaping @Sendable (any SpeechRecognizer) throws -> Assistant, limit: Int) {
        self.decoders = decoders
        self.make = make
        self.limit = limit
    }

    /// Makes the shared assistants and the first spare.
    ///
    /// - Throws: what making an assistant throws (apps that do not load).
    func prepare() throws {
        shared = try decoders.map { try make($0) }
        spares = [try make(nextDecoder())]
    }

    /// The next decoder, round robin.
    func nextDecoder() -> any SpeechRecognizer {
        next += 1
        return decoders[next % decoders.count]
    }

    func existing(_ id: String) -> Assistant? { assistants[id]?.assistant }

    /// The conversation's assistant if it has one, else a shared one (for requests that keep no state).
    func stateless(_ id: String) -> Assistant {
        if let known = assistants[id]?.assistant { return known }
        next += 1
        return shared[next % shared.count]
    }

    /// The conversation's assistant, made (or taken from the spares) on first use.
    func assistant(_ id: String) async throws -> Assistant {
        clock += 1
        if let known = assistants[id] {
            assistants[id] = (known.assistant, clock)
            return known.assistant
        }
        if assistants.count >= limit, let oldest = assistants.min(by: { $0.value.used < $1.value.used })?.key {
            assistants[oldest] = nil
        }
        let assistant: Assistant
        if let spare = spares.popLast() {
            assistant = spare
        } else {
            let (make, decoder) = (make, nextDecoder())
            assistant = try await Self.offPool { try make(decoder) }
        }
        assistants[id] = (assistant, clock)
        replenish()
        return assistant
    }

    private func replenish() {
        guard !making, spares.isEmpty else { return }
        making = true
        let (make, decoder) = (make, nextDecoder())
        Task {
            let made = try? await Self.offPool { try make(decoder) }
            self.add(spare: made)
        }
    }

    private func add(spare: Assistant?) {
        making = false
        if let spare { spares.append(spare) }
    }

    func end(_ id: String) { assistants[id] = nil }

    /// Slow synchronous work on a thread outside the cooperative pool.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result(catching: work)) }
        }
    }
}
