import Foundation
import HarkAudio
import HarkRecognition

/// One utterance heard in a live stream, and how quickly it was answered.
public struct HeardUtterance: Sendable {
    /// The answer; nil when the loop passes unheard sound
    /// (``LiveHearing/passesUnheard``) and no word of the grammar was heard.
    public var turn: Turn?
    /// The utterance as the endpointer cut it (times in the stream).
    public var utterance: Utterance
    /// Ended by grammar-aware endpointing: the recognizer already had a
    /// whole sentence of the grammar when a short silence followed it.
    public var endedEarly: Bool
    /// Where in the stream (seconds) the audio the endpoint needed ended.
    public var endpointTime: Double
    /// Wall-clock seconds from that audio's arrival to the turn being ready.
    public var finalizeSeconds: Double
}

/// Endpointing and streaming recognition together: the loop `hark listen`,
/// `hark bench --streaming` and any embedding program run on a live stream.
///
/// Audio is handed to the endpointer in 10 ms pieces; as soon as it finds
/// speech, a recognition stream (``Assistant/startHearing()``) is fed from
/// the utterance's start, its leading padding included, and keeps up with
/// the audio. The utterance ends when the trailing silence runs out, or
/// earlier, after ``EndpointerConfiguration/completeSentenceSilence``, when
/// what the recognizer has so far is a whole sentence of the grammar, or
/// after ``EndpointerConfiguration/freeTextEndSilence`` when the sentence
/// is whole but for free text at its end that reads as finished: then only
/// the final search is left to do. While what was heard is only the
/// beginning of a sentence ("send a message to …"), the person is pausing
/// inside it, and the utterance waits
/// ``EndpointerConfiguration/unfinishedSentenceSilence`` instead; so does a
/// whole sentence so far that would be rejected as heard unsurely
/// (``PartialRecognition/isUnsure``): the path pieced it out of the first
/// half of a longer request.
///
/// Not thread-safe: one stream, fed from one task.
public final class LiveHearing {
    public let assistant: Assistant
    public let configuration: EndpointerConfiguration
    /// Whether an utterance in which the recognizer heard no word of the
    /// grammar (a clatter, a cough, talk of something else) goes unanswered,
    /// its ``HeardUtterance/turn`` nil, instead of "Sorry, I didn't
    /// understand that.": right for a microphone that is always open.
    public let passesUnheard: Bool
    private var endpointer: Endpointer
    private var stream: (any RecognitionStream)?
    /// The stream's samples fed to the recognizer so far (a sample number of the stream).
    private var fed = 0
    /// The sample of the stream the recognition stream began at.
    private var streamStart = 0
    /// How far into the speech the words ending an unfinished sentence may
    /// begin and still be taken for the trailing silence's noise: the
    /// endpointer's speech ends with the last loud frame, a word's
    /// alignment a frame or two either side.
    static let endingOverlap = 0.03
    /// How much speech may follow a whole sentence's last word before it
    /// counts as something said that the path has not placed yet (the
    /// sentence then waits as an unfinished one): more than a word's
    /// alignment and the endpointer's edge differ by, less than a short
    /// word ("from", "to").
    static let unplacedSpeech = 0.15
    /// Samples of 10 ms: the endpointer's frame.
    private static let piece = PCMAudio.recognitionRate / 100

    public init(assistant: Assistant, configuration: EndpointerConfiguration = EndpointerConfiguration(),
                passingUnheard: Bool = false) {
        self.assistant = assistant
        self.configuration = configuration
        passesUnheard = passingUnheard
        endpointer = Endpointer(configuration: Self.endpointerConfiguration(configuration))
    }

    /// The endpointer's own settings: its trailing silence is the longest
    /// this loop may wait, and the loop ends utterances sooner by what the
    /// recognizer has heard.
    private static func endpointerConfiguration(_ configuration: EndpointerConfiguration) -> EndpointerConfiguration {
        var own = configuration
        own.trailingSilence = max(configuration.trailingSilence, configuration.unfinishedSentenceSilence ?? 0)
        return own
    }

    /// The silence after which the utterance ends, for what the recognizer has heard so far.
    private func silenceNeeded(for sentence: SentenceReading) -> Double {
        // The longest wait: the endpointer's own trailing silence.
        if sentence == .unfinished { return endpointer.configuration.trailingSilence }
        let trailing = configuration.trailingSilence
        guard let quick = configuration.completeSentenceSilence else { return trailing }
        let needed: Double? = switch sentence {
        case .notASentence, .unfinished, .endsInFreeText(likelyEnded: false): nil
        case .complete(extendable: true): quick
        case .complete(extendable: false): configuration.finalSentenceSilence ?? quick
        case .endsInFreeText(likelyEnded: true): configuration.freeTextEndSilence
        }
        return min(needed ?? trailing, trailing)
    }

    /// The shortest silence after which what the recognizer heard may end the utterance.
    private var shortestSilence: Double {
        let trailing = configuration.trailingSilence
        guard let quick = configuration.completeSentenceSilence else { return trailing }
        return min(quick, configuration.finalSentenceSilence ?? quick, configuration.freeTextEndSilence ?? quick, trailing)
    }

    /// Takes the next samples of the stream (16 kHz mono, any number) and
    /// returns the utterances they complete, answered.
    ///
    /// - Throws: the recognizer's error, or the assistant's.
    public func process(_ samples: [Int16]) async throws -> [HeardUtterance] {
        var heard: [HeardUtterance] = []
        var rest = samples[...]
        while !rest.isEmpty {
            let piece = Array(rest.prefix(Self.piece))
            rest = rest.dropFirst(Self.piece)
            if let utterance = try await step(piece, arrived: .now) { heard.append(utterance) }
        }
        return heard
    }

    /// Ends the stream: answers the utterance still in progress, if any.
    public func finish() async throws -> [HeardUtterance] {
        let arrived = ContinuousClock.now
        let end = Double(endpointer.receivedSampleCount) / Double(PCMAudio.recognitionRate)
        guard let utterance = endpointer.finish().first else {
            await dropStream()
            return []
        }
        return [try await answer(utterance, endedEarly: false, endpointTime: end, arrived: arrived)]
    }

    /// Forgets the audio so far (what the microphone heard while Hark
    /// spoke): the utterance in progress, if any, is dropped.
    public func reset() async {
        await dropStream()
        endpointer = Endpointer(configuration: Self.endpointerConfiguration(configuration))
    }

    private func dropStream() async {
        if let stream {
            self.stream = nil
            await stream.cancel()
        }
    }

    private func step(_ piece: [Int16], arrived: ContinuousClock.Instant) async throws -> HeardUtterance? {
        let ended = endpointer.process(piece).first
        let now = Double(endpointer.receivedSampleCount) / Double(PCMAudio.recognitionRate)
        if let ended { return try await answer(ended, endedEarly: false, endpointTime: now, arrived: arrived) }
        guard let start = endpointer.utteranceInProgressStart else {
            // The speech was a click or a cough, too short to be an utterance.
            await dropStream()
            return nil
        }
        if stream == nil {
            stream = try await assistant.startHearing()
            fed = start
            streamStart = start
        }
        guard let stream else { return nil }
        let new = endpointer.samples(from: fed)
        fed = endpointer.receivedSampleCount
        if !new.isEmpty { try await stream.feed(Array(new)) }
        if let silence = endpointer.silenceAfterSpeech, silence >= shortestSilence {
            let partial = try await stream.partial()
            var sentence = partial.sentence
            let speechEnd = now - silence
            var endingStart: Double?
            if sentence == .unfinished, let ending = partial.ending {
                // The words that leave the sentence unfinished began after
                // the speech: the silence's noise read as words ("… monkey
                // chat message via"), and the sentence before them is whole.
                // Said before the pause ("… little bobo on"), they are a
                // sentence the person has not finished.
                endingStart = inStream(ending.start, now: now)
                if let start = endingStart, start >= speechEnd - Self.endingOverlap { sentence = ending.sentence }
            }
            // A whole sentence whose words end well before the speech did:
            // the path has not placed the last thing said, a word that may
            // begin the rest of the sentence ("show my messages | from … Bobo").
            var unplaced: Double?
            if sentence != .unfinished, sentence != .notASentence, let spokenEnd = partial.spokenEnd.flatMap({ inStream($0, now: now) }) {
                unplaced = speechEnd - spokenEnd
                if unplaced! > Self.unplacedSpeech { sentence = .unfinished }
            }
            var needed = silenceNeeded(for: sentence)
            // A whole sentence so far that would be rejected as heard
            // unsurely: the path pieced it together out of the first half of
            // a longer request ("add on the banana stash" for "add peel the
            // bananas to | my ideas note"), so the person is likely pausing
            // inside it.
            if sentence.isWhole, partial.isUnsure, needed < configuration.trailingSilence {
                sentence = .unfinished
                needed = silenceNeeded(for: sentence)
            }
            assistant.logger.trace("endpointing", metadata: [
                "endpoint.silence": "\(silence)", "endpoint.partial": "\(partial.text)", "endpoint.sentence": "\(sentence)",
                "endpoint.speech_end": "\(speechEnd)", "endpoint.ending_start": "\(endingStart.map { "\($0)" } ?? "none")",
                "endpoint.unplaced": "\(unplaced.map { "\($0)" } ?? "none")",
                "endpoint.confidence": "\(partial.confidence.map { "\($0)" } ?? "none")",
                "endpoint.floor": "\(partial.confidenceFloor.map { "\($0)" } ?? "none")",
            ])
            if silence >= needed, let utterance = endpointer.endUtteranceNow() {
                return try await answer(utterance, endedEarly: needed < configuration.trailingSilence, endpointTime: now,
                                        arrived: arrived)
            }
        }
        return nil
    }

    /// A time the recognition stream reports (seconds from its start) as a
    /// time of the whole stream; nil when it lies beyond the audio fed so
    /// far. pocketsphinx's grammar search numbers its path's frames wrongly
    /// (later by seconds) once its front end has dropped a long silence
    /// inside the utterance (`-remove_silence`, a pause of 0.7 s or more),
    /// so a time past `now` is not a time of this audio and judges nothing.
    private func inStream(_ time: Double, now: Double) -> Double? {
        let time = Double(streamStart) / Double(PCMAudio.recognitionRate) + time
        return time <= now + 0.01 ? time : nil
    }

    private func answer(_ utterance: Utterance, endedEarly: Bool, endpointTime: Double,
                        arrived: ContinuousClock.Instant) async throws -> HeardUtterance {
        let turn: Turn?
        if let stream {
            self.stream = nil
            turn = try await assistant.hear(stream, passingUnheard: passesUnheard)
        } else {
            turn = try await assistant.hear(utterance.samples, passingUnheard: passesUnheard)
        }
        return HeardUtterance(turn: turn, utterance: utterance, endedEarly: endedEarly, endpointTime: endpointTime,
                              finalizeSeconds: arrived.secondsElapsed)
    }
}
