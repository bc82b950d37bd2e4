import Foundation

/// Finds utterances in a stream of 16 kHz mono audio.
///
/// The audio is analysed in 10 ms frames. A frame is speech when its energy
/// exceeds the noise floor by ``EndpointerConfiguration/speechMargin`` and
/// is above ``EndpointerConfiguration/minimumSpeechLevel``. The noise floor
/// is the quietest frame of the last ``EndpointerConfiguration/noiseWindow``
/// seconds, so it follows the background (digital silence, a fan, street
/// noise) without being pulled up by speech, which always has pauses.
/// It starts from the first frame, so a stream should begin before the
/// speaker does, as microphone streams and recordings normally do. Once an
/// utterance has begun, a frame also has to be within
/// ``EndpointerConfiguration/speechRange`` of the utterance's loudest 50 ms
/// to continue it: a floor taken from the quietest moments sits far below
/// the breath, echo and background that follow the last word, and counting
/// those as speech held utterances open for up to seconds.
///
/// An utterance starts at the first speech frame and ends once
/// ``EndpointerConfiguration/trailingSilence`` passes without speech (the
/// hangover that bridges pauses between words). It is handed on with
/// leading and trailing padding, so how much silence surrounds it does not
/// change what the recognizer gets.
///
/// Feed frames of any size with ``process(_:)`` and call ``finish()`` at the
/// end of the stream.
public struct Endpointer: Sendable {
    private static let rate = PCMAudio.recognitionRate
    /// Samples per 10 ms analysis frame.
    private static let frameSize = rate / 100

    /// The settings in use.
    public let configuration: EndpointerConfiguration

    private let trailingSilenceFrames: Int
    private let minimumSpeechFrames: Int
    private let maximumUtteranceFrames: Int
    private let leadingPaddingSamples: Int
    private let trailingPaddingSamples: Int

    /// Speech found but not yet ended.
    private struct SpeechRun: Sendable {
        var firstFrame: Int
        var lastFrame: Int
        var speechFrames: Int
        /// The loudest 50 ms of the run so far, in dBFS.
        var loudest: Double
    }

    private var noiseFloor: SlidingMinimum
    private var speech: SpeechRun?
    /// Mean power of the last frames (linear), for the run's loudest 50 ms.
    private var recentPower = [Double](repeating: 0, count: 5)
    /// The last utterance's loudest 50 ms and its last speech frame: for a
    /// noise window after it, sound far below that voice starts nothing.
    private var lastVoice: (loudest: Double, lastFrame: Int)?
    private let noiseWindowFrames: Int
    /// Samples still needed for padding and the utterance in progress;
    /// `history[0]` is sample number `historyStart` of the stream.
    private var history: [Int16] = []
    private var historyStart = 0
    private var analyzedFrames = 0
    /// Where the last utterance's samples ended; the next one's padding never reaches back past it.
    private var emittedEnd = 0

    /// An endpointer at the start of a stream.
    public init(configuration: EndpointerConfiguration = EndpointerConfiguration()) {
        self.configuration = configuration
        trailingSilenceFrames = Self.count(configuration.trailingSilence, per: 100)
        minimumSpeechFrames = Self.count(configuration.minimumSpeech, per: 100)
        maximumUtteranceFrames = max(1, Self.count(configuration.maximumUtterance, per: 100))
        leadingPaddingSamples = Self.count(configuration.leadingPadding, per: Self.rate)
        trailingPaddingSamples = Self.count(configuration.trailingPadding, per: Self.rate)
        noiseWindowFrames = max(1, Self.count(configuration.noiseWindow, per: 100))
        noiseFloor = SlidingMinimum(window: noiseWindowFrames)
    }

    /// Takes the next samples of the stream (any number) and returns the
    /// utterances they complete.
    public mutating func process(_ samples: [Int16]) -> [Utterance] {
        var utterances: [Utterance] = []
        var rest = samples[...]
        while !rest.isEmpty {
            let missing = Self.frameSize - (receivedSamples - analyzedSamples)
            history.append(contentsOf: rest.prefix(missing))
            rest = rest.dropFirst(missing)
            if receivedSamples - analyzedSamples == Self.frameSize {
                if let utterance = analyzeFrame() { utterances.append(utterance) }
                discardUnneededHistory()
            }
        }
        return utterances
    }

    /// Ends the stream: returns the utterance still in progress, if it is
    /// long enough, and resets the endpointer for a new stream.
    public mutating func finish() -> [Utterance] {
        defer { self = Endpointer(configuration: configuration) }
        guard let run = speech else { return [] }
        return close(run, availableEnd: receivedSamples).map { [$0] } ?? []
    }

    /// The utterances in a whole recording (resampled to 16 kHz first if needed).
    public static func split(
        _ audio: PCMAudio, configuration: EndpointerConfiguration = EndpointerConfiguration()
    ) throws(AudioError) -> [Utterance] {
        var endpointer = Endpointer(configuration: configuration)
        let samples = try audio.toRecognitionFormat().int16Samples()
        return endpointer.process(samples) + endpointer.finish()
    }

    /// A recording at 16 kHz without the silence before its first utterance
    /// and after its last (padding kept), or nil if it holds no speech.
    public static func trim(
        _ audio: PCMAudio, configuration: EndpointerConfiguration = EndpointerConfiguration()
    ) throws(AudioError) -> PCMAudio? {
        let resampled = try audio.toRecognitionFormat()
        var endpointer = Endpointer(configuration: configuration)
        let utterances = endpointer.process(resampled.int16Samples()) + endpointer.finish()
        guard let first = utterances.first, let last = utterances.last else { return nil }
        let start = Int((first.startTime * Double(rate)).rounded())
        let end = Int((last.endTime * Double(rate)).rounded())
        return PCMAudio(samples: Array(resampled.samples[start..<end]), sampleRate: rate)
    }

    // MARK: - Streaming

    /// Where the utterance in progress starts, as a sample number of the
    /// stream (its leading padding included); nil while there is no speech.
    /// A streaming recognizer is fed from here (see ``samples(from:)``).
    public var utteranceInProgressStart: Int? {
        speech.map { max($0.firstFrame * Self.frameSize - leadingPaddingSamples, emittedEnd, historyStart) }
    }

    /// Samples received since the stream began.
    public var receivedSampleCount: Int { receivedSamples }

    /// The stream's samples from sample number `start` to the last received;
    /// `start` no earlier than ``utteranceInProgressStart`` (older samples
    /// may be gone).
    public func samples(from start: Int) -> ArraySlice<Int16> {
        let from = min(max(start, historyStart), receivedSamples) - historyStart
        return history[from...]
    }

    /// Seconds since the last speech frame of the utterance in progress
    /// (0 while speech goes on); nil while there is no speech.
    public var silenceAfterSpeech: Double? {
        speech.map { Double(analyzedFrames - 1 - $0.lastFrame) / 100 }
    }

    /// Ends the utterance in progress now — a recognizer found it complete
    /// before the trailing silence ran out — with as much trailing padding
    /// as has arrived; nil when there is none, or too little speech.
    public mutating func endUtteranceNow() -> Utterance? {
        guard let run = speech else { return nil }
        speech = nil
        return close(run, availableEnd: analyzedSamples)
    }

    // MARK: - Detection

    private var receivedSamples: Int { historyStart + history.count }
    private var analyzedSamples: Int { analyzedFrames * Self.frameSize }

    /// Classifies the next complete frame and returns an utterance if that ended one.
    private mutating func analyzeFrame() -> Utterance? {
        let frame = analyzedFrames
        let offset = analyzedSamples - historyStart
        let power = Self.power(history[offset..<(offset + Self.frameSize)])
        let energy = Self.decibels(power)
        analyzedFrames += 1
        recentPower[frame % recentPower.count] = power
        let recent = Self.decibels(recentPower.reduce(0, +) / Double(recentPower.count))
        let floor = noiseFloor.push(energy, at: frame)
        var isSpeech = energy > max(floor + configuration.speechMargin, configuration.minimumSpeechLevel)
        if isSpeech, let range = configuration.speechRange {
            if let run = speech, energy < run.loudest - range {
                // Far below the speech so far: a breath, the room's echo or
                // background sound after the words, not the words going on.
                isSpeech = false
            } else if speech == nil, let voice = lastVoice, frame - voice.lastFrame < noiseWindowFrames,
                      energy < voice.loudest - range {
                // Just after an utterance, far below its voice: the same
                // breath or clatter, not someone speaking again.
                isSpeech = false
            }
        }

        if isSpeech {
            var run = speech ?? SpeechRun(firstFrame: frame, lastFrame: frame, speechFrames: 0, loudest: recent)
            run.loudest = max(run.loudest, recent)
            run.lastFrame = frame
            run.speechFrames += 1
            guard frame + 1 - run.firstFrame >= maximumUtteranceFrames else {
                speech = run
                return nil
            }
            // Too long: cut here. Speech goes on, so the cut gets no trailing padding.
            speech = nil
            return close(run, availableEnd: analyzedSamples)
        }
        if let run = speech, frame - run.lastFrame >= trailingSilenceFrames {
            speech = nil
            return close(run, availableEnd: analyzedSamples)
        }
        return nil
    }

    /// The utterance for a finished run, with padding up to `availableEnd`,
    /// or nil if it had too little speech to be more than a click.
    private mutating func close(_ run: SpeechRun, availableEnd: Int) -> Utterance? {
        guard run.speechFrames >= minimumSpeechFrames else { return nil }
        lastVoice = (run.loudest, run.lastFrame)
        let speechStart = run.firstFrame * Self.frameSize
        let speechEnd = (run.lastFrame + 1) * Self.frameSize
        let start = max(speechStart - leadingPaddingSamples, emittedEnd, historyStart)
        let end = min(speechEnd + trailingPaddingSamples, availableEnd)
        emittedEnd = end
        let seconds = { (sample: Int) in Double(sample) / Double(Self.rate) }
        return Utterance(
            samples: Array(history[(start - historyStart)..<(end - historyStart)]),
            startTime: seconds(start), endTime: seconds(end),
            speechStartTime: seconds(speechStart), speechEndTime: seconds(speechEnd)
        )
    }

    /// Drops samples no future utterance can include, in batches to keep copying rare.
    private mutating func discardUnneededHistory() {
        let earliestStart = speech.map { $0.firstFrame * Self.frameSize } ?? analyzedSamples
        let keepFrom = min(max(earliestStart - leadingPaddingSamples, emittedEnd), analyzedSamples)
        let unneeded = keepFrom - historyStart
        if unneeded >= Self.rate {
            history.removeFirst(unneeded)
            historyStart = keepFrom
        }
    }

    /// A frame's mean power relative to full scale (1 for a full-scale square wave).
    private static func power(_ frame: ArraySlice<Int16>) -> Double {
        var sum = 0.0
        for sample in frame {
            let value = Double(sample)
            sum += value * value
        }
        return sum / Double(frame.count) / (32768 * 32768)
    }

    /// A power in dB relative to full scale; digital silence gives -100.
    private static func decibels(_ power: Double) -> Double {
        10 * log10(power + 1e-10)
    }

    /// `seconds` as a whole number of units at `rate` per second; zero for
    /// negative or NaN, capped so no setting can overflow the arithmetic.
    private static func count(_ seconds: Double, per rate: Int) -> Int {
        seconds > 0 ? Int(min(seconds * Double(rate), 1e12).rounded()) : 0
    }
}
