import Foundation
import HarkAudio
import Logging
import Synchronization

/// Audio in the format a client declares (any rate, width and channels the
/// limits allow), converted as it arrives to 16 kHz mono 16-bit samples.
final class AudioConverter {
    let rate: Int, width: Int, channels: Int
    private var leftover: [UInt8] = []
    private let resampler: StreamingResampler?

    init(data: [String: JSONValue], limits: WyomingLimits, type: String) throws(WyomingError) {
        guard let rate = data["rate"]?.int, let width = data["width"]?.int, let channels = data["channels"]?.int else {
            throw WyomingError(code: "bad-audio", "'\(type)' needs whole-number rate, width and channels (e.g. 16000, 2, 1)")
        }
        guard limits.audioRates.contains(rate) else {
            throw WyomingError(code: "bad-audio", "'\(type)': rate \(rate) Hz is outside \(limits.audioRates.lowerBound)...\(limits.audioRates.upperBound) Hz")
        }
        guard limits.audioWidths.contains(width) else {
            throw WyomingError(code: "bad-audio", "'\(type)': width \(width) bytes is outside \(limits.audioWidths.lowerBound)...\(limits.audioWidths.upperBound)")
        }
        guard limits.audioChannels.contains(channels) else {
            throw WyomingError(code: "bad-audio", "'\(type)': \(channels) channels is outside \(limits.audioChannels.lowerBound)...\(limits.audioChannels.upperBound)")
        }
        self.rate = rate
        self.width = width
        self.channels = channels
        do {
            resampler = rate == PCMAudio.recognitionRate ? nil : try StreamingResampler(from: rate)
        } catch {
            throw WyomingError(code: "bad-audio", "'\(type)': cannot resample \(rate) Hz audio: \(error)")
        }
    }

    func matches(_ data: [String: JSONValue]) -> Bool {
        data["rate"]?.int == rate && data["width"]?.int == width && data["channels"]?.int == channels
    }

    /// The chunk's samples at 16 kHz mono.
    func convert(_ bytes: [UInt8]) throws(WyomingError) -> [Int16] {
        let frameBytes = width * channels
        let all = leftover + bytes
        let usable = all.count - all.count % frameBytes
        leftover = Array(all[usable...])
        var mono = [Float](repeating: 0, count: usable / frameBytes)
        let scale = 1 / Float(channels)
        all.withUnsafeBytes { raw in
            for frame in 0..<mono.count {
                var sum: Float = 0
                for channel in 0..<channels {
                    let offset = frame * frameBytes + channel * width
                    switch width {
                    case 1: sum += (Float(raw[offset]) - 128) / 128
                    case 2: sum += Float(Int16(bitPattern: UInt16(raw[offset]) | UInt16(raw[offset + 1]) << 8)) / 32768
                    case 3:
                        let value = Int32(bitPattern: UInt32(raw[offset]) << 8 | UInt32(raw[offset + 1]) << 16 | UInt32(raw[offset + 2]) << 24) >> 8
                        sum += Float(value) / 8_388_608
                    default:
                        let value = Int32(bitPattern: UInt32(raw[offset]) | UInt32(raw[offset + 1]) << 8 | UInt32(raw[offset + 2]) << 16 | UInt32(raw[offset + 3]) << 24)
                        sum += Float(value) / 2_147_483_648
                    }
                }
                mono[frame] = sum * scale
            }
        }
        if let resampler {
            do { mono = try resampler.process(mono) } catch {
                throw WyomingError(code: "bad-audio", "resampling \(rate) Hz audio failed: \(error)")
            }
        }
        return PCMAudio(samples: mono, sampleRate: PCMAudio.recognitionRate).int16Samples()
    }

    /// What the resampler still holds.
    func finish() -> [Int16] {
        guard let resampler, let rest = try? resampler.finish() else { return [] }
        return PCMAudio(samples: rest, sampleRate: PCMAudio.recognitionRate).int16Samples()
    }
}

/// One client's conversation with the service: reads its events, answers
/// them, and keeps what a multi-event exchange needs (the audio of a
/// `transcribe` or `detect`, a satellite's pipeline). Runs on the
/// connection's thread.
public final class WyomingSession {
    enum Mode {
        case idle
        /// `transcribe`, then audio → `transcript`.
        case transcribe
        /// `detect`, then audio → `detection` / `not-detected`.
        case detect(names: [String]?)
        /// A satellite's `run-pipeline`: wake (unless it starts at asr) → asr → handle → tts.
        case pipeline(startAtWake: Bool, speak: Bool)
    }

    let connection: WyomingConnection
    let backend: any WyomingBackend
    let logger: Logger
    /// The connection's own conversation, used when the client sends no `conversation_id`.
    let connectionConversation: String
    /// The client's room: its `site` in a context, its satellite name, else its address.
    public private(set) var site: String
    var mode = Mode.idle
    var converter: AudioConverter?
    var audio: [Int16] = []
    var endpointer = Endpointer()
    var conversation: String
    /// In a pipeline: waiting for speech after a wake phrase said alone, or for the answer to a question.
    var awake = false
    /// In a pipeline: audio is dropped until then (Hark is speaking), or until the satellite says `played`.
    var speakingUntil: Double = 0

    static let counter = Mutex(0)

    public init(connection: WyomingConnection, backend: any WyomingBackend, logger: Logger, site: String? = nil) {
        self.connection = connection
        self.backend = backend
        self.logger = logger
        let n = Self.counter.withLock { $0 += 1; return $0 }
        connectionConversation = "connection-\(n)"
        conversation = connectionConversation
        self.site = site ?? connection.peer
    }

    /// Serves the connection until the client leaves or breaks a limit.
    public func run(greeting: [WyomingEvent] = []) {
        defer {
            // The connection's own conversation ends with it; one the client named
            // (conversation_id) may go on over its next connection.
            let (ended, backend) = (connectionConversation, backend)
            _ = try? waitFor { await backend.endConversation(ended) }
        }
        do {
            if !greeting.isEmpty { try connection.write(greeting) }
            while let event = try connection.readEvent() {
                do {
                    let replies = try handle(event)
                    if !replies.isEmpty { try connection.write(replies) }
                } catch let error as WyomingError where error.code == "io" || error.code == "timeout" {
                    throw error
                } catch {
                    // A bad event, or a request the assistant could not serve: say so, and go on.
                    let (text, code) = (error as? WyomingError).map { ($0.description, $0.code) } ?? ("\(event.type): \(error)", "failed")
                    logger.info("event failed", metadata: ["wyoming.peer": "\(connection.peer)", "error": "\(text)"])
                    try connection.write(.error(text, code: code))
                    mode = .idle
                    converter = nil
                    audio = []
                }
            }
        } catch let error as WyomingError {
            logger.info("connection closed", metadata: ["wyoming.peer": "\(connection.peer)", "error": "\(error)"])
            if error.code != "io" { try? connection.write(.error(error.description, code: error.code)) }
        } catch {
            logger.error("connection failed", metadata: ["wyoming.peer": "\(connection.peer)", "error": "\(error)"])
            try? connection.write(.error("\(error)", code: "internal"))
        }
    }

    /// The answers to one event.
    func handle(_ event: WyomingEvent) throws -> [WyomingEvent] {
        let backend = backend
        takeContext(event.data)
        switch event.type {
        case "describe":
            let info = try waitFor { await backend.info() }
            return [WyomingEvent("info", data: info)]
        case "info":
            // A satellite describing itself: its name is the site.
            if let satellite = event.data["satellite"]?.object, let name = satellite["area"]?.string ?? satellite["name"]?.string, !name.isEmpty {
                site = name
            }
            return []
        case "ping":
            return [WyomingEvent("pong", data: event.data["text"].map { ["text": $0] } ?? [:])]
        case "transcribe":
            mode = .transcribe
            startAudio()
            return []
        case "detect":
            mode = .detect(names: event.data["names"]?.array?.compactMap(\.string))
            startAudio()
            return []
        case "run-pipeline":
            let start = event.data["start_stage"]?.string ?? "asr"
            let end = event.data["end_stage"]?.string ?? "tts"
            guard ["wake", "asr"].contains(start) else {
                throw WyomingError(code: "unsupported", "run-pipeline from '\(start)': hark serve runs pipelines that start at wake or asr")
            }
            mode = .pipeline(startAtWake: start == "wake", speak: end == "tts")
            awake = false
            startAudio()
            return []
        case "audio-start":
            converter = try AudioConverter(data: event.data, limits: connection.limits, type: event.type)
            return []
        case "audio-chunk":
            return try audioChunk(event)
        case "audio-stop":
            return try audioStop()
        case "played":
            speakingUntil = 0
            return []
        case "recognize":
            let text = try text(of: event)
            let conversation = conversation
            guard let intent = try waitFor({ try await backend.recognize(text, conversation: conversation) }) else {
                return [WyomingEvent("not-recognized", data: ["text": .string(text), "context": context])]
            }
            return [WyomingEvent("intent", data: [
                "name": .string(intent.name), "text": .string(intent.text), "context": context,
                "entities": .array(intent.entities.map { ["name": .string($0.name), "value": .string($0.value)] }),
            ])]
        case "transcript":
            let text = try text(of: event)
            let (conversation, site) = (conversation, site)
            let reply = try waitFor { try await backend.handle(text, conversation: conversation, site: site) }
            return [WyomingEvent(reply.handled ? "handled" : "not-handled", data: ["text": .string(reply.speech), "context": context])]
        case "synthesize":
            let text = try text(of: event)
            return try speech(text)
        default:
            logger.debug("event ignored", metadata: ["wyoming.type": "\(event.type)", "wyoming.peer": "\(connection.peer)"])
            return []
        }
    }

    /// The `context` sent back: the conversation and the site.
    var context: JSONValue {
        ["conversation_id": .string(conversation), "site": .string(site)]
    }

    private func takeContext(_ data: [String: JSONValue]) {
        let context = data["context"]?.object ?? [:]
        if let id = context["conversation_id"]?.string ?? data["conversation_id"]?.string, !id.isEmpty, id.count <= 200 {
            conversation = id
        }
        if let site = context["site"]?.string ?? data["site"]?.string, !site.isEmpty, site.count <= 200 { self.site = site }
    }

    private func text(of event: WyomingEvent) throws(WyomingError) -> String {
        guard let text = event.data["text"]?.string else {
            throw WyomingError(code: "bad-request", "'\(event.type)' needs a \"text\" string")
        }
        guard text.count <= connection.limits.maxTextCharacters else {
            throw WyomingError(code: "too-large", "'\(event.type)': \(text.count) characters of text is over the limit of \(connection.limits.maxTextCharacters)")
        }
        return text
    }

    private func startAudio() {
        audio = []
        converter = nil
        endpointer = Endpointer()
    }

    private func audioChunk(_ event: WyomingEvent) throws -> [WyomingEvent] {
        if converter == nil || !(converter!.matches(event.data) || event.data["rate"] == nil) {
            converter = try AudioConverter(data: event.data, limits: connection.limits, type: event.type)
        }
        let samples = try converter!.convert(event.payload)
        switch mode {
        case .idle:
            return []
        case .transcribe:
            audio += samples
            try checkLength()
            return []
        case .detect(let names):
            for utterance in endpointer.process(samples) {
                if let found = try spot(utterance.samples, names: names) {
                    mode = .idle
                    return [found]
                }
            }
            return []
        case .pipeline(let startAtWake, let speak):
            if WyomingConnection.now() < speakingUntil { return [] }
            var replies: [WyomingEvent] = []
            for utterance in endpointer.process(samples) {
                replies += try pipelineTurn(utterance.samples, startAtWake: startAtWake, speak: speak)
                if WyomingConnection.now() < speakingUntil {
                    endpointer = Endpointer()
                    break
                }
            }
            return replies
        }
    }

    private func checkLength() throws(WyomingError) {
        let seconds = Double(audio.count) / Double(PCMAudio.recognitionRate)
        guard seconds <= connection.limits.maxAudioSeconds else {
            throw WyomingError(code: "too-long", "more than \(Int(connection.limits.maxAudioSeconds)) s of audio for one request; send audio-stop sooner")
        }
    }

    private func audioStop() throws -> [WyomingEvent] {
        let rest = converter?.finish() ?? []
        converter = nil
        let backend = backend
        switch mode {
        case .idle:
            return []
        case .transcribe:
            audio += rest
            try checkLength()
            mode = .idle
            let (samples, conversation) = (audio, conversation)
            audio = []
            let text = try waitFor { try await backend.transcribe(samples, conversation: conversation) }
            return [WyomingEvent("transcript", data: ["text": .string(text), "language": "en", "context": context])]
        case .detect(let names):
            mode = .idle
            for utterance in endpointer.process(rest) + endpointer.finish() {
                if let found = try spot(utterance.samples, names: names) { return [found] }
            }
            return [WyomingEvent("not-detected", data: ["context": context])]
        case .pipeline(let startAtWake, let speak):
            var replies: [WyomingEvent] = []
            for utterance in endpointer.process(rest) + endpointer.finish() {
                replies += try pipelineTurn(utterance.samples, startAtWake: startAtWake, speak: speak)
            }
            endpointer = Endpointer()
            return replies
        }
    }

    private func spot(_ samples: [Int16], names: [String]?) throws -> WyomingEvent? {
        let backend = backend
        guard let (name, end) = try waitFor({ try await backend.spotWake(samples, names: names) }) else { return nil }
        _ = end
        return WyomingEvent("detection", data: ["name": .string(name), "timestamp": .null, "speaker": .null, "context": context])
    }

    /// One utterance of a satellite's pipeline.
    private func pipelineTurn(_ samples: [Int16], startAtWake: Bool, speak: Bool) throws -> [WyomingEvent] {
        let backend = backend
        let (conversation, site) = (conversation, site)
        var request = samples
        var replies: [WyomingEvent] = []
        let asking = try waitFor { await backend.isAsking(conversation: conversation) }
        if startAtWake, !awake, !asking {
            guard let (name, end) = try waitFor({ try await backend.spotWake(samples, names: nil) }) else { return [] }
            replies.append(WyomingEvent("detection", data: ["name": .string(name), "timestamp": .null, "speaker": .null, "context": context]))
            request = Array(samples[min(end, samples.count)...])
            if request.count < PCMAudio.recognitionRate / 2 || (try? Endpointer.trim(PCMAudio(int16: request, sampleRate: PCMAudio.recognitionRate)))?.samples.count ?? 0 < PCMAudio.recognitionRate / 2 {
                awake = true
                return replies
            }
        }
        awake = false
        let heard = request
        let reply = try waitFor { try await backend.hear(heard, conversation: conversation, site: site) }
        replies.append(WyomingEvent("transcript", data: ["text": .string(reply.heard), "language": "en", "context": context]))
        replies.append(WyomingEvent(reply.handled ? "handled" : "not-handled", data: ["text": .string(reply.speech), "context": context]))
        awake = reply.prompt
        if speak, !reply.speech.isEmpty {
            replies.append(WyomingEvent("synthesize", data: ["text": .string(reply.speech), "context": context]))
            let audio = try speech(reply.speech)
            replies += audio
            // Not hearing itself: audio is dropped while the answer plays, until `played` or its length and a tail.
            let seconds = audio.reduce(0.0) { $0 + Double($1.payload.count) } / 2 / Double(audio.first?.data["rate"]?.int ?? 22_050)
            speakingUntil = WyomingConnection.now() + seconds + 0.5
        }
        return replies
    }

    /// audio-start, audio-chunk..., audio-stop of `text` spoken.
    private func speech(_ text: String) throws -> [WyomingEvent] {
        let backend = backend
        let (samples, rate) = try waitFor { try await backend.synthesize(text) }
        let format: [String: JSONValue] = ["rate": .int(rate), "width": 2, "channels": 1]
        var events = [WyomingEvent("audio-start", data: format.merging(["timestamp": 0]) { a, _ in a })]
        let chunk = 1024
        var offset = 0
        while offset < samples.count {
            let end = min(offset + chunk, samples.count)
            var bytes = [UInt8]()
            bytes.reserveCapacity((end - offset) * 2)
            for sample in samples[offset..<end] {
                let bits = UInt16(bitPattern: sample)
                bytes.append(UInt8(bits & 0xFF))
                bytes.append(UInt8(bits >> 8))
            }
            events.append(WyomingEvent("audio-chunk", data: format.merging(["timestamp": .int(offset * 1000 / rate)]) { a, _ in a }, payload: bytes))
            offset = end
        }
        events.append(WyomingEvent("audio-stop", data: ["timestamp": .int(samples.count * 1000 / max(rate, 1))]))
        return events
    }
}
