import CPocketSphinx
import CPocketSphinxShims
import Foundation
import HarkAudio
import Synchronization

extension PocketSphinxDecoder {
    /// Starts a streamed utterance against `grammar` (see ``RecognitionStream``).
    ///
    /// Audio is decoded as it is fed: the grammar pass on the decoder's
    /// thread and, when the grammar has free text, the n-gram pass at the
    /// same time on a second thread, so that when the utterance ends only
    /// the final searches are left (and the confidence's phone pass).
    /// (Noise suppression is a stage in front: ``DenoisingRecognizer``.)
    public func startStream(grammar: DecoderGrammar) async throws -> any RecognitionStream {
        // The stream holds the decoder until it ends (finish, cancel, or
        // being dropped): other callers wait for it.
        await access.acquire()
        do {
            try await offPool { try self.prepareHeld(grammar) }
        } catch {
            access.release()
            throw error
        }
        return PocketSphinxStream(recognizer: self, grammar: grammar)
    }

    /// The passes a stream runs beside the grammar pass.
    struct SidePasses: Sendable {
        /// The n-gram pass over free text (the grammar has free text).
        var dictation: UnsafeSendable<OpaquePointer>?
        /// The confidence's allphone pass (the model has a phone n-gram model).
        var phones: UnsafeSendable<OpaquePointer>?
        /// The phone pass reads the grammar pass's senone scores.
        var senoneScores: SharedSenoneScores?
        /// Every pass's running cepstral mean as it was before the stream.
        var means: [RunningMean] = []

        /// Puts every pass's running mean back (their utterances must have ended).
        func restoreRunningMeans() {
            for mean in means { mean.restore() }
        }
    }

    /// A decoder's running cepstral mean (sphinxbase's live CMN), saved so
    /// that it can be put back.
    ///
    /// A streamed utterance moves the mean it normalises the next one by
    /// (`ps_end_utt` folds the utterance's frames in). That is right for
    /// speech from the same room and microphone, but a clatter, a cough or
    /// a door heard as an utterance moves it towards the noise, and the next
    /// request can then go unheard: an utterance in which no word was heard
    /// (or a stream cancelled, such as a click too short to be an
    /// utterance, or the room while Hark spoke) leaves the mean as it was.
    struct RunningMean: @unchecked Sendable {
        let decoder: OpaquePointer
        let mean: [Float]
        let sum: [Float]
        let frames: Int32

        init?(of decoder: OpaquePointer) {
            guard let feat = ps_get_feat(decoder), let cmn = feat.pointee.cmn_struct,
                  let mean = cmn.pointee.cmn_mean, let sum = cmn.pointee.sum else { return nil }
            let length = Int(cmn.pointee.veclen)
            self.decoder = decoder
            self.mean = Array(UnsafeBufferPointer(start: mean, count: length))
            self.sum = Array(UnsafeBufferPointer(start: sum, count: length))
            frames = cmn.pointee.nframe
        }

        /// Brings the decoder's running mean up to date with the frames fed
        /// so far, once it holds a second of them (sphinxbase's
        /// `cmn_live_update`, which sphinxbase itself calls only when an
        /// utterance ends or every 8 s): the mean then follows the speech as
        /// it is heard, instead of normalising a whole request by the mean
        /// of those before it (another speaker, a quieter microphone).
        static func follow(_ decoder: OpaquePointer) {
            guard let feat = ps_get_feat(decoder), let cmn = feat.pointee.cmn_struct, cmn.pointee.nframe >= 100 else { return }
            cmn_live_update(cmn)
        }

        /// Puts the mean back, or gives it to `other` (the decoder's
        /// utterance must have ended).
        func restore(into other: OpaquePointer? = nil) {
            guard let feat = ps_get_feat(other ?? decoder), let cmn = feat.pointee.cmn_struct,
                  let mean = cmn.pointee.cmn_mean, let sum = cmn.pointee.sum,
                  Int(cmn.pointee.veclen) == self.mean.count else { return }
            for i in self.mean.indices {
                mean[i] = self.mean[i]
                sum[i] = self.sum[i]
            }
            cmn.pointee.nframe = frames
        }

        /// Sets `decoder`'s running mean to `mean`, weighted as `frames`
        /// frames of speech (by default sphinxbase's window, `CMN_WIN`: a
        /// session that has heard the speaker for a while).
        static func set(_ decoder: OpaquePointer, to mean: [Float], frames: Int32 = 500) {
            RunningMean(decoder: decoder, mean: mean, sum: mean.map { $0 * Float(frames) }, frames: frames).restore()
        }

        private init(decoder: OpaquePointer, mean: [Float], sum: [Float], frames: Int32) {
            self.decoder = decoder
            self.mean = mean
            self.sum = sum
            self.frames = frames
        }
    }

    /// How much of a stream a listener that has heard no speech yet waits
    /// for before decoding it, to start its running mean from: 0.8 s, the
    /// endpointer's 0.3 s before the speech and half a second of it.
    ///
    /// The model's starting mean suits the speech it was trained on; a
    /// voice or microphone far from it (espeak-ng's: second and fourth
    /// coefficients 5.2 and 21.3 where the model starts from -5.3 and
    /// 5.1) was heard with it until the mean first followed the speech, a
    /// second in, and the words already decoded stayed misheard ("call
    /// little bobo on …" as "tell little bobo on monday or"). Waiting
    /// costs nothing at the end of the utterance: the held audio is
    /// decoded at once, at some 25 times real time.
    static let coldStartSamples = 8 * PCMAudio.recognitionRate / 10

    /// Whether the running mean has followed no speech yet: the model's
    /// starting mean, as a `hark listen` just started has it (and keeps
    /// after an utterance with no word heard, which leaves the mean as it
    /// was).
    func listensCold() -> Bool {
        state.withLock { state in
            guard let decoder = state?.decoder, let mean = RunningMean(of: decoder) else { return false }
            return mean.frames == 0
        }
    }

    /// Takes the decoder for a stream: builds the grammar's search and
    /// starts the utterance on it, and on the side passes' decoders.
    ///
    /// - Parameter samples: The stream's first samples, to start every
    ///   pass's running mean from (their cepstral mean, weighted as the
    ///   frames they hold: sphinxbase's starting mean counts none, so the
    ///   mean follows the speech from there); an utterance in which no word
    ///   is heard puts back the mean as it was before.
    func beginStream(_ grammar: DecoderGrammar, startingMeansFrom samples: [Int16]? = nil) throws -> SidePasses {
        try state.withLock { (state: inout State?) throws -> SidePasses in
            guard state != nil else { throw RecognitionError("decoder is closed") }
            guard !state!.streaming else { throw Self.busy }
            try activate(grammar, in: &state!)
            var side = SidePasses()
            if grammar.graph.hasFreeText, let dictation = state!.dictation { side.dictation = UnsafeSendable(dictation) }
            if let phones = try phoneDecoder(&state!) { side.phones = UnsafeSendable(phones) }
            var started: [OpaquePointer] = []
            let decoders = [state!.decoder, side.dictation?.value, side.phones?.value].compactMap { $0 }
            side.means = decoders.compactMap { RunningMean(of: $0) }
            if let samples, let mean = try Self.cepstralMean(of: samples, with: state!.decoder) {
                let frames = Int32(Double(samples.count) / Double(PCMAudio.recognitionRate) * frameRate)
                for decoder in decoders { RunningMean.set(decoder, to: mean, frames: frames) }
            }
            do {
                for decoder in decoders {
                    try Self.startUtterance(decoder, collectingHistory: options.collectsSearchHistory)
                    started.append(decoder)
                }
            } catch {
                for decoder in started { _ = ps_end_utt(decoder) }
                throw error
            }
            state!.streaming = true
            if side.phones != nil, let shared = state!.senoneScores {
                side.senoneScores = shared
                shared.begin()
            }
            return side
        }
    }

    /// Decodes the stream's next samples: the grammar pass here, the side
    /// passes on their own threads at the same time. The side decoders are
    /// the stream's alone until it ends: while `streaming` is set nothing
    /// else replaces or uses them.
    func continueStream(_ samples: [Int16], side: SidePasses) throws {
        let group = DispatchGroup()
        let failure = Mutex<RecognitionError?>(nil)
        for (decoder, queue) in [(side.dictation, dictationWorker), (side.phones, phoneWorker)] {
            guard let decoder else { continue }
            queue.async(group: group) {
                do {
                    try Self.process(samples, with: decoder.value, wholeUtterance: false)
                    RunningMean.follow(decoder.value)
                } catch {
                    failure.withLock { $0 = error as? RecognitionError ?? RecognitionError("\(error)") }
                }
            }
        }
        defer { group.wait() }
        try state.withLock { (state: inout State?) throws in
            guard let decoder = state?.decoder, state!.streaming else { throw RecognitionError("the stream was already ended") }
            try Self.process(samples, with: decoder, wholeUtterance: false)
            RunningMean.follow(decoder)
        }
        group.wait()
        if let failure = failure.withLock({ $0 }) { throw failure }
    }

    /// The stream's best path so far (the side passes must be between pieces).
    func streamPartial(_ grammar: DecoderGrammar, side: SidePasses) throws -> PartialRecognition {
        try state.withLock { (state: inout State?) throws -> PartialRecognition in
            guard let decoder = state?.decoder, state!.streaming else { throw RecognitionError("the stream was already ended") }
            var tokens = Self.hypothesis(of: decoder).split(separator: " ").map(String.init)
            var sentence = grammar.reading(of: tokens)
            var wholePath: [Segment]?
            if sentence == .unfinished {
                if let reading = grammar.readingWithoutAppRenamed(tokens) ?? grammar.nameTail(tokens)?.reading {
                    sentence = reading
                } else if grammar.stopsInsideAppName(tokens), let whole = Self.bestWholeSentence(of: decoder) {
                    // What the search would read were the utterance to end here.
                    let reading = grammar.reading(of: whole.map(\.token))
                    if reading != .notASentence, reading != .unfinished {
                        sentence = reading
                        wholePath = whole
                        tokens = whole.map(\.token)
                    }
                }
            }
            let words = tokens.compactMap { PhoneLoop.kind(of: $0) == nil ? Self.spokenWord($0) : nil }
            if case .endsInFreeText = sentence, let dictation = side.dictation?.value {
                let ending = Self.sentenceEndProbability(afterHypothesisOf: dictation)
                sentence = .endsInFreeText(likelyEnded: ending.map { $0 >= options.freeTextEndProbability } ?? false)
            }
            let path = sentence == .notASentence ? [] : wholePath ?? Self.segments(of: decoder)
            let ending = sentence == .unfinished ? Self.completeBeforeEnding(path, grammar: grammar, frameRate: frameRate) : nil
            let spoken = path.last { PhoneLoop.kind(of: $0.token) != nil || Self.spokenWord($0.token) != nil }
            var partial = PartialRecognition(text: words.joined(separator: " "), sentence: sentence, ending: ending,
                                             spokenEnd: spoken.map { Double($0.endFrame + 1) / frameRate })
            if sentence.isWhole, let phones = side.phones?.value, grammar.rejectsOutOfGrammar {
                (partial.confidence, partial.confidenceFloor) = scoredSoFar(path, phones: phones, grammar: grammar, state: state!)
            }
            return partial
        }
    }

    /// The confidence of a whole sentence heard so far, judged as the
    /// utterance's reading would be were it to end now (its grammar words
    /// against the phone pass so far, ``scoreConfidence``), and the floor
    /// that reading would have to reach (``confidenceFloor``); nil when
    /// there is nothing to judge.
    private func scoredSoFar(_ path: [Segment], phones: OpaquePointer, grammar: DecoderGrammar,
                             state: State) -> (Double?, Double?) {
        var path = path
        guard options.minimumConfidence > 0, let scored = scoreConfidence(&path, phones: Self.segments(of: phones), state: state)
        else { return (nil, nil) }
        // The path's grammar words and free-text phones, as words with their times.
        let words = path.compactMap { segment -> RecognizedWord? in
            let isFree = PhoneLoop.kind(of: segment.token) == .dictation
            guard let word = isFree ? segment.token : Self.spokenWord(segment.token) else { return nil }
            return RecognizedWord(word: word, start: Double(segment.startFrame) / frameRate,
                                  end: Double(segment.endFrame + 1) / frameRate, confidence: segment.confidence, isFreeText: isFree)
        }
        return (scored, confidenceFloor(for: words, grammar: grammar))
    }

    /// The segments of the best path so far that ends in the grammar's
    /// final state, as the search reads the utterance when it ends; nil
    /// when there is none. The best path so far may stop inside a sentence
    /// while the search would read a whole one: fast speech's "what is new
    /// on monkey chat" was best read, a third of a second after it, as free
    /// text and "on monkey to" (MonkeyTodo's name begun), and waited as an
    /// unfinished sentence until the search ended and read it whole.
    static func bestWholeSentence(of decoder: OpaquePointer) -> [Segment]? {
        let raw = UnsafeMutableRawPointer(decoder)
        let saved = hark_fsg_search_final(raw, 1)
        guard saved >= 0 else { return nil }
        defer { _ = hark_fsg_search_final(raw, saved) }
        var score: Int32 = 0
        guard ps_get_hyp(decoder, &score) != nil else { return nil }
        let segments = Self.segments(of: decoder)
        return segments.isEmpty ? nil : segments
    }

    /// The most spoken tokens (grammar words or free-text phones) an
    /// unfinished path may end in and still be read as the whole sentence
    /// before them (``PartialRecognition/ending``).
    static let longestEnding = 2

    /// Where the last tokens of an unfinished `path` begin, if without
    /// them (at most ``longestEnding`` spoken ones, fillers and silences
    /// not counted) it is a whole sentence, and what it reads as then.
    static func completeBeforeEnding(_ path: [Segment], grammar: DecoderGrammar,
                                     frameRate: Double) -> PartialRecognition.Ending? {
        var end = path.count, spoken = 0
        while end > 0 {
            end -= 1
            let token = path[end].token
            guard PhoneLoop.kind(of: token) != nil || spokenWord(token) != nil else { continue }
            spoken += 1
            guard spoken <= longestEnding else { return nil }
            let before = grammar.reading(of: path[..<end].map(\.token))
            if case .complete = before {
                return PartialRecognition.Ending(start: Double(path[end].startFrame) / frameRate, sentence: before)
            }
        }
        return nil
    }

    /// How likely the n-gram decoder's language model finds that the
    /// sentence ends after the last two words of the decoder's best path
    /// so far; nil with no word heard.
    static func sentenceEndProbability(afterHypothesisOf decoder: OpaquePointer) -> Double? {
        sentenceEndProbability(after: hypothesis(of: decoder).split(separator: " ").map(String.init), of: decoder)
    }

    /// How likely the n-gram `decoder`'s language model finds that a
    /// sentence ends after `words` (pocketsphinx's tokens: fillers are
    /// skipped): its raw trigram probability of `</s>` after the last two;
    /// nil with no word.
    static func sentenceEndProbability(after words: [String], of decoder: OpaquePointer) -> Double? {
        let spoken = words.compactMap(spokenWord)
        guard let last = spoken.last, let model = languageModel(of: decoder), let logmath = ps_get_logmath(decoder) else { return nil }
        let before = spoken.count > 1 ? spoken[spoken.count - 2] : "<s>"
        // The n-gram, the word first and then its history backwards.
        let logProbability = withCStrings(["</s>", last, before]) { ngram, count in
            ngram_prob(model, UnsafePointer(OpaquePointer(ngram)), count)
        }
        return logmath_exp(logmath, logProbability)
    }

    /// ``sentenceEndProbability(after:of:)`` by the dictation decoder; nil
    /// before free text was first needed.
    func sentenceEndProbability(after words: [String]) -> Double? {
        state.withLock { state in
            state?.dictation.flatMap { Self.sentenceEndProbability(after: words, of: $0) }
        }
    }

    /// Ends the stream's utterance and reads it as ``recognize(_:grammar:)`` would.
    func endStream(samples: [Int16], grammar: DecoderGrammar, side: SidePasses) throws -> Recognition {
        var dictated: [Segment]?, phones: [Segment]?
        // The grammar pass ends after the side passes: the phone pass
        // evaluates its last frames itself rather than wait for them.
        side.senoneScores?.end()
        do {
            // The side passes end at once, each on its own thread.
            let group = DispatchGroup()
            let results = Mutex<(dictated: Result<[Segment], any Error>?, phones: Result<[Segment], any Error>?)>((nil, nil))
            if let dictation = side.dictation {
                dictationWorker.async(group: group) {
                    let result = Result { try Self.endUtterance(dictation.value) }
                    results.withLock { $0.dictated = result }
                }
            }
            if let phoneDecoder = side.phones {
                phoneWorker.async(group: group) {
                    let result = Result { try Self.endUtterance(phoneDecoder.value) }
                    results.withLock { $0.phones = result }
                }
            }
            group.wait()
            let ended = results.withLock { $0 }
            dictated = try ended.dictated?.get()
            phones = try ended.phones?.get()
        } catch {
            cancelStream(side: side)
            throw error
        }
        return try state.withLock { (state: inout State?) throws -> Recognition in
            guard let decoder = state?.decoder, state!.streaming else { throw RecognitionError("the stream was already ended") }
            state!.streaming = false
            // Nothing heard (or a failure, which hears nothing either) leaves the means as they were.
            let heard: Recognition
            do {
                let pass = try Self.endUtterance(decoder)
                heard = try recognition(of: pass, samples: samples, grammar: grammar, dictated: dictated, phones: phones, state: &state!)
            } catch {
                side.restoreRunningMeans()
                throw error
            }
            if heard.text.isEmpty { side.restoreRunningMeans() }
            return heard
        }
    }

    /// Ends the stream's utterance without reading it.
    func cancelStream(side: SidePasses) {
        state.withLock { state in
            guard let decoder = state?.decoder, state!.streaming else { return }
            side.senoneScores?.end()
            _ = ps_end_utt(decoder)
            Self.releaseUtterance(of: decoder)
            for other in [side.dictation, side.phones].compactMap({ $0 }) {
                _ = ps_end_utt(other.value)
                Self.releaseUtterance(of: other.value)
            }
            state!.releaseLanguageModelPages()
            side.restoreRunningMeans()
            state!.streaming = false
        }
    }
}

/// A C pointer handed to another thread that owns it for the moment.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// pocketsphinx's ``RecognitionStream``: see ``PocketSphinxDecoder/startStream(grammar:)``.
final class PocketSphinxStream: RecognitionStream {
    let recognizer: PocketSphinxDecoder
    let grammar: DecoderGrammar

    /// How the stream's audio is decoded.
    enum Mode {
        /// Nothing fed yet: the passes begin with the first samples.
        case undecided
        /// Decoded as it comes, with these side passes.
        case streaming(PocketSphinxDecoder.SidePasses)
        case ended
    }

    struct Progress {
        var samples: [Int16] = []
        var mode: Mode
        /// Samples given to pocketsphinx so far.
        var decoded = 0
        /// Wall-clock seconds spent decoding.
        var decodeSeconds = 0.0
    }

    private let progress: Mutex<Progress>

    init(recognizer: PocketSphinxDecoder, grammar: DecoderGrammar) {
        self.recognizer = recognizer
        self.grammar = grammar
        progress = Mutex(Progress(mode: .undecided))
    }

    var samples: [Int16] { progress.withLock { $0.samples } }

    func feed(_ samples: [Int16]) async throws {
        let recognizer = recognizer, grammar = grammar
        try await recognizer.offPool { [self] in
            try progress.withLock { (p: inout Progress) throws in
                p.samples += samples
                let started = ContinuousClock.now
                defer { p.decodeSeconds += started.secondsElapsed }
                if case .undecided = p.mode {
                    let cold = recognizer.listensCold()
                    // Wait for enough speech to start the running mean from
                    // (``PocketSphinxDecoder/coldStartSamples``); a shorter
                    // utterance is decoded whole by `finish`.
                    if cold, p.samples.count < PocketSphinxDecoder.coldStartSamples { return }
                    p.mode = .streaming(try recognizer.beginStream(grammar, startingMeansFrom: cold ? p.samples : nil))
                }
                guard case .streaming(let side) = p.mode else { return }
                let new = Array(p.samples[p.decoded...])
                do {
                    try recognizer.continueStream(new, side: side)
                } catch {
                    recognizer.cancelStream(side: side)
                    p.mode = .ended
                    throw error
                }
                p.decoded = p.samples.count
            }
        }
    }

    func partial() async throws -> PartialRecognition {
        let recognizer = recognizer, grammar = grammar
        return try await recognizer.offPool { [self] in
            try progress.withLock { (p: inout Progress) throws -> PartialRecognition in
                guard case .streaming(let side) = p.mode else { return PartialRecognition(text: "", sentence: .notASentence) }
                return try recognizer.streamPartial(grammar, side: side)
            }
        }
    }

    func finish() async throws -> Recognition {
        let recognizer = recognizer, grammar = grammar
        defer { releaseDecoder() }
        return try await recognizer.offPool { [self] in
            try progress.withLock { (p: inout Progress) throws -> Recognition in
                let mode = p.mode
                p.mode = .ended
                switch mode {
                case .ended:
                    throw RecognitionError("the stream was already ended")
                case .undecided:
                    // Nothing was fed: decoded whole (an empty utterance).
                    var recognition = try recognizer.recognizeHeld(p.samples, grammar: grammar)
                    recognition.decodeSeconds += p.decodeSeconds
                    return recognition
                case .streaming(let side):
                    let started = ContinuousClock.now
                    var recognition = try recognizer.endStream(samples: p.samples, grammar: grammar, side: side)
                    recognition.decodeSeconds = p.decodeSeconds + started.secondsElapsed
                    return recognition
                }
            }
        }
    }

    func cancel() async {
        let recognizer = recognizer
        defer { releaseDecoder() }
        _ = try? await recognizer.offPool { [self] in
            progress.withLock { p in
                if case .streaming(let side) = p.mode { recognizer.cancelStream(side: side) }
                p.mode = .ended
            }
        }
    }

    /// Whether the stream still holds the decoder's ``PocketSphinxDecoder/access``.
    private let holdsDecoder = Mutex(true)

    private func releaseDecoder() {
        if holdsDecoder.withLock({ held in defer { held = false }; return held }) { recognizer.access.release() }
    }

    deinit {
        // A stream dropped without finish or cancel must not keep the decoder.
        if case .streaming(let side) = progress.withLock({ $0.mode }) { recognizer.cancelStream(side: side) }
        releaseDecoder()
    }
}
