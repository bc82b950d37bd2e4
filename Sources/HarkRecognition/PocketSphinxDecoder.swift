import CPocketSphinx
import CPocketSphinxShims
import Foundation
import HarkAudio
import HarkGrammar
import Synchronization

/// pocketsphinx decoder settings. The defaults are pocketsphinx's own unless
/// a measurement chose otherwise.
public struct DecoderOptions: Sendable, Equatable {
    /// Extra `-name value` pairs passed to pocketsphinx as they are; they
    /// override ``measuredArguments``.
    public var arguments: [String: String]

    /// The logistic that turns a word's acoustic gap to the phone loop (nats
    /// per frame, at most about 0) into a confidence: 1 / (1 + e^-(offset + slope × gap)),
    /// fitted on the fixtures (docs/measurements.md, "Confidence").
    public var confidenceOffset: Double = 5.52
    public var confidenceSlope: Double = 1269

    /// Utterances heard with less confidence than this are rejected as not
    /// understood (where the grammar rejects out-of-grammar speech); 0
    /// keeps every one. 0.12 is a mean gap of -0.0059: below every right
    /// reading of the fixtures and barista-dev (docs/measurements.md, "Confidence").
    public var minimumConfidence: Double = DecoderOptions.defaultMinimumConfidence
    public static let defaultMinimumConfidence = 0.12

    /// Whether the grammar search frees, as it goes, the word exits no path
    /// it follows can reach any more (``PocketSphinxDecoder/collectHistory(of:)``).
    /// What is heard is the same either way; off, a long noisy utterance
    /// with every sample app holds 50 MB more (docs/measurements.md, "Memory").
    public var collectsSearchHistory = true

    /// An utterance with free text that names no app (``DecoderGrammar/appNames``)
    /// needs at least this confidence (and at least ``minimumConfidence``;
    /// nothing when that is 0): a free-text slot takes any words, so only
    /// the grammar words around it say that a request was made, and a
    /// short carrier ("tick off", "jot down", "add ... to list") fits a
    /// little of any speech. Out of grammar, unrelated sentences read that
    /// way scored 0.12–0.47; in the fixtures, requests with free text that
    /// named no app and reached the right intent 0.71, 0.77 and 0.14 (its
    /// note misheard), and real speech scores higher
    /// than the fixtures' synthetic voices (barista-dev: 5th percentile
    /// 0.76). Naming the app is the person addressing it: then the general
    /// floor applies (synthetic voices' messages to MonkeyChat scored down
    /// to 0.37). docs/measurements.md, "Out-of-grammar rejection".
    public var minimumFreeTextConfidence: Double = DecoderOptions.defaultMinimumFreeTextConfidence
    public static let defaultMinimumFreeTextConfidence = 0.55

    /// A request that names no app, where the grammar is several apps'
    /// (``DecoderGrammar/appCount``), needs at least this confidence (and
    /// at least ``minimumConfidence``; nothing when that is 0). Naming the
    /// app is how a person addresses one; a request to no app by name among
    /// several is as likely talk meant for nobody forced onto the nearest
    /// short sentence: out of grammar, "how many moons does Jupiter have"
    /// read as "how many minutes away is the driver" (0.34), "siri new a
    /// note called" (0.25) and counting as "do thirty three hour inside swim
    /// training" (0.44). The fixtures' unnamed requests read right scored
    /// 0.86 and more, barista-dev's (one app: not applied) 0.50 and more.
    /// docs/measurements.md, "Out-of-grammar rejection".
    public var minimumUnnamedConfidence: Double = DecoderOptions.defaultMinimumUnnamedConfidence
    public static let defaultMinimumUnnamedConfidence = 0.45

    /// A request that names its app and ends in free text that is at least
    /// ``namedFreeTextShare`` of the time its words take needs at least this
    /// confidence in the words around the free text (and at least
    /// ``minimumConfidence``; nothing when that is 0). A remark that mentions
    /// an app is heard as that app's name, a short carrier and the rest as
    /// free text: "MonkeyChat keeps crashing on my phone" as "monkey to do add
    /// crashing on my phone" (0.16), "my list of complaints is getting longer"
    /// as "via list o mat put complaints is getting longer" (0.37). Free text
    /// with grammar words after it ("add ... to my list in MonkeyTodo") is
    /// bounded by them and keeps the general floor: flite's kal16 reading of
    /// that shipped example scores 0.29. On the spoken development sets the
    /// requests read right that name their app and end in free text of 0.3
    /// or more scored 0.45 and more; the fixtures', in every voice and in
    /// noise, 0.59 and more (docs/measurements.md, "Out-of-grammar rejection").
    public var minimumNamedFreeTextConfidence: Double = DecoderOptions.defaultMinimumNamedFreeTextConfidence
    public static let defaultMinimumNamedFreeTextConfidence = 0.45
    /// How much of a named request's time its free text must take for
    /// ``minimumNamedFreeTextConfidence`` to apply. Where the carrier is most
    /// of what was said ("send a message to Bobo Jr. on MonkeyChat saying see
    /// you soon"), it is itself the evidence: espeak-ng's reading of that
    /// request, read right, scores 0.18 with a pause in the middle.
    public static let namedFreeTextShare = 0.3

    /// A request whose app's name is heard with a pause longer than this
    /// inside it (seconds between two of its words: "monkey … ride") is
    /// rejected (where the grammar rejects out-of-grammar speech); nil
    /// never. People say an app's name as one word: in every right reading
    /// of the fixtures the words of the name follow each other with no
    /// pause at all, while readings that pieced a name together out of
    /// other speech held one of 0.13–0.38 s ("what will the weather be like
    /// in Paris tomorrow" read as "when will the ride get here via monkey …
    /// ride"). docs/measurements.md, "Out-of-grammar rejection".
    public var maximumPauseInAppName: Double? = DecoderOptions.defaultMaximumPauseInAppName
    public static let defaultMaximumPauseInAppName = 0.1

    /// Whether a reading whose grammar words show it was forced onto speech
    /// it does not fit is rejected (where the grammar rejects out-of-grammar
    /// speech and there is a confidence): see ``ForcedReading``. On the
    /// spoken development sets it took 42 of the 130 sentences meant for no
    /// app that were heard as requests, and 7 of the 812 requests read right
    /// (docs/measurements.md, "Forced readings").
    public var rejectsForcedReadings = true

    /// A reading is rejected (where the grammar rejects out-of-grammar
    /// speech and there is a confidence) when the dictation's n-gram pass,
    /// free to hear any words, explains the same audio better than the
    /// grammar's path by more than this, in nats of acoustic score per
    /// frame (``dictationLead(of:over:decoder:)``); nil never. Said to an
    /// installed app, a request is as well explained by its grammar as by
    /// free words; a remark forced onto a request is not: "I might try the
    /// yoga classes on MonkeyFit next year", heard as "i'd like to track the
    /// yoga session on monkey fit ninety hour", trails the dictation by 1.6.
    /// Only where an installed app has free text (the n-gram pass is loaded
    /// then). On the spoken development sets it took 32 of the 113
    /// sentences meant for no app still heard as requests, and 28 of the
    /// 1,124 requests heard as the right intent, 11 of them read exactly
    /// right (docs/measurements.md, "The dictation as a rival").
    public var maximumDictationLead: Double? = DecoderOptions.defaultMaximumDictationLead
    public static let defaultMaximumDictationLead = 0.5

    /// While a stream is heard, a sentence ending in free text reads as
    /// likely ended (``SentenceReading/endsInFreeText(likelyEnded:)``) when
    /// the dictation's language model gives at least this probability to
    /// the sentence ending after the last two words dictated: "… please
    /// send more bananas" 0.29, "… where are you" 0.10, "… the bananas are
    /// ripe" 0.09, but "… please send more" 0.047, "… I'll be" 0.010,
    /// "… meet me at the" 0.004. 1 never judges free text ended.
    /// docs/measurements.md, "Streaming".
    public var freeTextEndProbability: Double = DecoderOptions.defaultFreeTextEndProbability
    public static let defaultFreeTextEndProbability = 0.06

    /// Probability factor per phone of a free-text slot in the grammar pass:
    /// low enough that free text does not swallow grammar words, high
    /// enough that it takes the words no grammar names.
    public var freeTextPhonePenalty: Double

    /// Probability factor per phone of the garbage loop that rejects
    /// out-of-grammar speech; nil accepts whatever path reaches the end.
    /// Higher rejects more (fewer false accepts, more false rejections).
    public var rejectionPhonePenalty: Double?

    /// pocketsphinx settings chosen by measurement on barista-dev and the
    /// audio fixtures (see docs/measurements.md, "Tuning"): beams wider than pocketsphinx's
    /// defaults and 8 Gaussians per frame instead of 4 recover words in
    /// noise (6 dB SNR: 61.9% → 69.7% command acceptance) at a real-time
    /// factor still far below 0.1, since the minimised grammar is small.
    ///
    /// `-maxhmmpf` bounds the search where the beams alone do not: with
    /// every sample app installed (36,000 states), noise kept 20,000–25,000
    /// phone models active a frame (clean speech 3,500–4,300), a grammar
    /// pass slower than real time. Above the bound, pocketsphinx narrows
    /// the beams by a tenth a frame until the count falls under it, then
    /// widens them at once (`fsg_search_hmm_eval`; the mean may pass the
    /// bound a little), so barista-dev's small grammar is never touched.
    /// Measured 2026-11-29 (docs/measurements.md, "Bounded search"), with the n-gram
    /// pass's bound below: the fixtures clean and at 12 dB SNR heard with
    /// the same acceptance (60.3%, 59.5%), 11 of 266 readings changed and
    /// none from right to wrong (the grammar bound alone changed one);
    /// barista-dev's 930 readings the same; at 2,500 one noisy request lost.
    public static let measuredArguments: [String: String] = [
        "-beam": "1e-80", "-pbeam": "1e-80", "-wbeam": "1e-60", "-topn": "8", "-maxhmmpf": "4000",
    ]

    /// The n-gram pass's own settings (a `--decoder-option` of the same
    /// name wins): its search is the tree pass alone, without the second,
    /// flat-lexicon pass over the whole utterance that pocketsphinx runs by
    /// default once it ends. Measured 2026-11-28 (docs/measurements.md, "Streaming"): the
    /// pause set streamed, free text end of speech → intent p95 987 → 811
    /// ms and the search's end (finalize) p95 395 → 67 ms, with free text
    /// read better (slot F1 71.2% → 72.6%, command acceptance 68.9% →
    /// 70.6%); the fixtures 58.7% → 60.3% ("pears" heard again).
    ///
    /// `-maxhmmpf` keeps the n-gram search's histogram pruning to the best
    /// 5,000 channels a frame (pocketsphinx's default 30,000 let noise keep
    /// 24,000 a frame: a pass slower than real time over the whole
    /// utterance, whatever its free text). Measured 2026-11-29 (docs/measurements.md,
    /// "Bounded search").
    ///
    /// `-maxwpf` keeps the 20 best word exits a frame (pocketsphinx's
    /// default keeps every one): in noise hundreds of words ended in each
    /// frame, each a backpointer and at the end a lattice node, and that
    /// table set the process's peak. Measured 2026-11-29 (docs/measurements.md, "Memory
    /// in noise and after a change"): the fixtures clean and at 12 dB SNR
    /// and the whole spoken development sets with the same acceptance (11
    /// of 1,741 readings changed, all wrong both ways), the n-gram pass a
    /// quarter faster; 10 lost a noisy request, 40 saved less.
    public static let dictationArguments: [String: String] = ["-fwdflat": "no", "-maxhmmpf": "5000", "-maxwpf": "20"]

    public static let defaultFreeTextPhonePenalty = 1e-3
    /// Measured on barista-dev and 29 out-of-grammar recordings (see docs/measurements.md,
    /// "Rejection"): 1e-8 falsely accepted 1 of 29 and kept 66.5% command
    /// acceptance at 6 dB SNR (69.7% with no rejection, 63.9% at 1e-6 with
    /// no false accept); clean acceptance is the same for all of them.
    public static let defaultRejectionPhonePenalty = 1e-8

    public init(arguments: [String: String] = [:], freeTextPhonePenalty: Double = DecoderOptions.defaultFreeTextPhonePenalty,
                rejectionPhonePenalty: Double? = DecoderOptions.defaultRejectionPhonePenalty,
                minimumConfidence: Double = DecoderOptions.defaultMinimumConfidence,
                minimumFreeTextConfidence: Double = DecoderOptions.defaultMinimumFreeTextConfidence,
                minimumUnnamedConfidence: Double = DecoderOptions.defaultMinimumUnnamedConfidence,
                minimumNamedFreeTextConfidence: Double = DecoderOptions.defaultMinimumNamedFreeTextConfidence,
                maximumPauseInAppName: Double? = DecoderOptions.defaultMaximumPauseInAppName,
                freeTextEndProbability: Double = DecoderOptions.defaultFreeTextEndProbability,
                rejectsForcedReadings: Bool = true,
                maximumDictationLead: Double? = DecoderOptions.defaultMaximumDictationLead) {
        self.arguments = arguments
        self.maximumDictationLead = maximumDictationLead
        self.rejectsForcedReadings = rejectsForcedReadings
        self.maximumPauseInAppName = maximumPauseInAppName
        self.minimumConfidence = minimumConfidence
        self.minimumFreeTextConfidence = minimumFreeTextConfidence
        self.minimumUnnamedConfidence = minimumUnnamedConfidence
        self.minimumNamedFreeTextConfidence = minimumNamedFreeTextConfidence
        self.freeTextEndProbability = freeTextEndProbability
        self.freeTextPhonePenalty = freeTextPhonePenalty
        self.rejectionPhonePenalty = rejectionPhonePenalty
    }
}

/// A pocketsphinx decoder searching an ``IntentGraph`` as a finite-state
/// grammar.
///
/// The C decoder is not thread-safe; every call goes through one lock, and
/// the grammar can be swapped between utterances without reloading the
/// acoustic model.
public final class PocketSphinxDecoder: SpeechRecognizer {
    struct State {
        let decoder: OpaquePointer
        var lexicon: Lexicon
        var knownWords: Set<String>
        /// The ``DecoderGrammar/searchKey`` of the grammar the decoder's search was built from.
        var currentGrammar: Int?
        var searchSerial = 0
        /// The grammar searches the decoder holds, the current first.
        var searches: [Search] = []
        /// The keyword-spotting search is selected (see ``spot(_:in:threshold:)``).
        var spotting: String?
        /// Phones the model pronounces as phone-loop pseudo-words.
        var phones: [String] = []
        /// The n-gram decoder for free text, made when a grammar first has
        /// a free-text slot.
        var dictation: OpaquePointer?
        /// Word classes added to the dictation decoder's n-gram model.
        var dictationClasses = 0
        /// How many word classes the dictation decoder takes before it is
        /// made again (sphinxbase's limit is 128; one is kept spare).
        var dictationClassLimit = 127
        /// The allphone decoder of the confidence (see ``phoneDecoder(_:)``).
        var phonesDecoder: OpaquePointer?
        /// The phone pass reads the grammar pass's scores of the
        /// context-independent senones (see ``SharedSenoneScores``).
        var senoneScores: SharedSenoneScores?
        /// A ``RecognitionStream`` holds the decoder (see ``startStream(grammar:)``).
        var streaming = false
        /// Every decoder's running cepstral mean as it was made (see ``resetAdaptation()``).
        var initialMeans: [RunningMean] = []
        /// The passes' decoders that read the grammar decoder's acoustic
        /// model parameters instead of their own (see ``BorrowedModelParameters``).
        var borrowed: [BorrowedModelParameters] = []
        /// The passes' decoders whose n-gram model reads its n-grams from a
        /// mapping of its file (see ``MappedLanguageModel``).
        var mappedLanguageModels: [(decoder: OpaquePointer, model: MappedLanguageModel)] = []

        /// Gives back the pages of the mapped n-gram models read so far
        /// (``MappedLanguageModel/releasePages()``) once an utterance is
        /// read: the n-gram pass looks n-grams up all over the dictation
        /// model, so an utterance it hears leaves most of its 16.5 MB
        /// mapped, held until the next one otherwise (`hark listen` between
        /// turns, after a noisy message: 106.4 MB instead of 126.0;
        /// docs/measurements.md, "what the side passes keep"). They are
        /// the file's clean pages: the next utterance maps them again from
        /// the page cache, and a decoder reading the same mapping meanwhile
        /// (another worker's) maps again what it reads.
        func releaseLanguageModelPages() {
            for mapped in mappedLanguageModels { mapped.model.releasePages() }
        }

        /// Has `made`, a pass's decoder, read the grammar decoder's
        /// acoustic model parameters, if it can.
        mutating func share(with made: OpaquePointer) {
            if let lent = BorrowedModelParameters.lend(from: decoder, to: made) { borrowed.append(lent) }
        }

        /// Frees the grammar searches `drop` picks out (pocketsphinx's
        /// search and its lexicon tree) and forgets them; true when any went.
        mutating func dropSearches(where drop: (Search) -> Bool) -> Bool {
            let dropped = searches.filter(drop)
            for search in dropped { ps_unset_search(decoder, search.name) }
            searches.removeAll(where: drop)
            if let current = currentGrammar, dropped.contains(where: { $0.key == current }) { currentGrammar = nil }
            return !dropped.isEmpty
        }

        /// Frees a pass's decoder (never the grammar decoder, which the
        /// others may borrow from: it goes last, in `deinit`).
        mutating func free(_ pass: OpaquePointer) {
            precondition(pass != decoder, "the grammar decoder is freed last")
            if pass == phonesDecoder, let shared = senoneScores {
                shared.uninstall()
                senoneScores = nil
            }
            if let index = borrowed.firstIndex(where: { $0.borrower == pass }) {
                borrowed.remove(at: index).giveBack()
            }
            initialMeans.removeAll { $0.decoder == pass }
            ps_free(pass)
            if let index = mappedLanguageModels.firstIndex(where: { $0.decoder == pass }) {
                mappedLanguageModels.remove(at: index).model.unmap()
            }
        }

        /// Keeps `decoder`'s running mean as it is now, just made, and
        /// starts it from the grammar decoder's (another pass made later in
        /// a session hears the room as the grammar pass has learnt it).
        mutating func keepInitialMean(of made: OpaquePointer) {
            if let mean = RunningMean(of: made) { initialMeans.append(mean) }
            if made != decoder { RunningMean(of: decoder)?.restore(into: made) }
        }
    }

    /// A grammar search held by the decoder.
    struct Search {
        let key: Int
        let name: String
        /// States plus transitions: what its lexicon tree grows with.
        let size: Int
    }

    let state: Mutex<State?>
    /// One utterance (a call or a whole stream) at a time.
    let access = DecoderAccess()
    public let model: AcousticModel
    /// The thread the async entry points decode on: a decode keeps a CPU
    /// busy for up to seconds, and a thread of Swift's cooperative pool
    /// blocked that long (there are as many as cores) stalls every other
    /// task, handler time budgets and audio capture among them.
    let worker = DispatchQueue(label: "hark.pocketsphinx.decoder")
    /// Where a stream's n-gram pass and the confidence's phone pass
    /// decode, beside the grammar pass (on the other cores).
    let dictationWorker = DispatchQueue(label: "hark.pocketsphinx.dictation")
    let phoneWorker = DispatchQueue(label: "hark.pocketsphinx.phones")
    public let options: DecoderOptions
    /// The pocketsphinx arguments both decoders share.
    private let sharedArguments: [String: String]
    /// pocketsphinx's frame rate (frames per second).
    let frameRate: Double = 100

    /// Loads the acoustic model.
    ///
    /// - Parameters:
    ///   - model: Where the model files are.
    ///   - lexicon: Pronunciations; the model's dictionary when nil.
    ///   - options: Decoder settings.
    /// - Throws: ``RecognitionError`` when the model cannot be loaded.
    public init(model: AcousticModel, lexicon: Lexicon? = nil, options: DecoderOptions = DecoderOptions()) throws {
        self.model = model
        self.options = options
        let lexicon = try lexicon ?? LexiconCache.shared.lexicon(at: model.dictionary)
        // Start with an empty dictionary: words are added as grammars need them,
        // which keeps start-up fast and the search's vocabulary exact.
        let emptyDict = try InMemoryFile(named: "empty", contents: "sil SIL\n")

        var shared: [String: String] = [
            "-hmm": model.acousticModel,
            "-logfn": ProcessInfo.processInfo.environment["HARK_POCKETSPHINX_LOG"] ?? "/dev/null",
        ]
        for (k, v) in options.arguments { shared[k.hasPrefix("-") ? k : "-" + k] = v }
        sharedArguments = shared
        var args = DecoderOptions.measuredArguments.merging(shared) { _, given in given }
        args["-dict"] = emptyDict.path
        let decoder = try withExtendedLifetime(emptyDict) { try Self.makeDecoder(args, modelPath: model.acousticModel) }
        var initial = State(decoder: decoder, lexicon: lexicon, knownWords: ["sil"])
        initial.keepInitialMean(of: decoder)
        // Phones this model lacks are left out of the loops rather than failing.
        for phone in PhoneLoop.phones where ps_add_word(decoder, PhoneLoop.word(phone, .dictation), phone, 0) >= 0 {
            ps_add_word(decoder, PhoneLoop.word(phone, .garbage), phone, 0)
            initial.phones.append(phone)
        }
        initial.knownWords.formUnion(initial.phones.flatMap { p in PhoneLoop.Kind.allCases.map { PhoneLoop.word(p, $0) } })
        state = Mutex(initial)
        Self.returnFreedMemory()
        model.definitionFile.releasePages()
    }

    deinit {
        state.withLock { state in
            // The passes first: they may read the grammar decoder's model.
            if let d = state?.dictation { state?.free(d) }
            if let d = state?.phonesDecoder { state?.free(d) }
            if let d = state?.decoder { ps_free(d) }
            state = nil
        }
    }

    /// Serialises making decoders and guards ``logOpened``.
    private static let initLock = NSLock()
    /// Whether sphinxbase's log has been set (see ``openLog(_:)``).
    nonisolated(unsafe) private static var logOpened = false

    /// Sets where pocketsphinx logs, once for the process: to `path` (the
    /// first decoder's `-logfn`, `HARK_POCKETSPHINX_LOG`), or nowhere.
    ///
    /// sphinxbase logs to one FILE for the whole process, and a decoder
    /// given `-logfn` opens it anew and closes the old one, which other
    /// decoders' threads may be writing to that moment (a side pass ending
    /// its utterance): a write to a closed FILE, which is freed memory. So
    /// no decoder is given `-logfn`. Call with ``initLock`` held.
    private static func openLog(_ path: String?) {
        guard !logOpened else { return }
        logOpened = true
        if let path, path != "/dev/null", err_set_logfile(path) >= 0 { return }
        err_set_logfp(nil)
    }

    /// Calls `body` with `strings` as a C array of C strings (and its
    /// count), valid only during the call.
    static func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32) -> R) -> R {
        var copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeMutableBufferPointer { body($0.baseAddress, Int32($0.count)) }
    }

    /// The words of `decoder`'s best path so far (or of the ended
    /// utterance), as pocketsphinx gives them; "" with none.
    static func hypothesis(of decoder: OpaquePointer) -> String {
        var score: Int32 = 0
        return ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
    }

    /// A pocketsphinx decoder made with `given` options, one at a time
    /// (``initLock``: pocketsphinx's initialisation is not safe to run
    /// concurrently); a `-logfn` among them sets the process's log once (see
    /// ``openLog(_:)``) instead of being passed on. Tests that need a bare
    /// decoder make it here too. Its word tables are tightened
    /// (``HashTables``) and, unless `fastGaussians` is false, its Gaussians
    /// evaluated by ``FastGaussians``.
    static func makeDecoder(_ given: [String: String], modelPath: String, fastGaussians: Bool = true) throws -> OpaquePointer {
        var args = given
        initLock.lock()
        defer { initLock.unlock() }
        openLog(args.removeValue(forKey: "-logfn"))
        let argv = args.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        let config: OpaquePointer? = withCStrings(argv) { strings, count in
            cmd_ln_parse_r(nil, ps_args(), count, strings, 0)
        }
        guard let config else {
            throw RecognitionError("pocketsphinx rejected the decoder options \(args.keys.sorted()) (set HARK_POCKETSPHINX_LOG=/tmp/ps.log to see why)")
        }
        defer { cmd_ln_free_r(config) }
        let made = ps_init(config)
        guard let decoder = made else {
            throw RecognitionError.missingModel(modelPath, "pocketsphinx could not load it (set HARK_POCKETSPHINX_LOG=/tmp/ps.log to see why)")
        }
        HashTables.tightenWordTables(of: decoder)
        if fastGaussians { FastGaussians.install(on: decoder) }
        return decoder
    }

    /// Builds the decoder's search for `grammar` unless it is the current one.
    func activate(_ grammar: DecoderGrammar, in state: inout State) throws {
        if state.currentGrammar == grammar.searchKey {
            if state.spotting != nil, let current = state.searches.first {
                guard ps_set_search(state.decoder, current.name) == 0 else {
                    throw RecognitionError("pocketsphinx could not return to the grammar search")
                }
                state.spotting = nil
            }
            return
        }
        state.spotting = nil
        // The search of a grammar used a moment ago (the main grammar after
        // a question's answer grammar) is still there: switching back costs
        // nothing, where rebuilding it took a main grammar's time and memory.
        if let index = state.searches.firstIndex(where: { $0.key == grammar.searchKey }) {
            let cached = state.searches.remove(at: index)
            guard ps_set_search(state.decoder, cached.name) == 0 else {
                throw RecognitionError("pocketsphinx could not return to the search of an earlier grammar")
            }
            state.searches.insert(cached, at: 0)
            state.currentGrammar = grammar.searchKey
            return
        }
        let graph = grammar.graph
        let needed = try Self.checkPronunciations(of: grammar, in: state)
        // The search built below reads the new words from the dictionary;
        // no existing search needs them.
        try Self.addWords(needed, to: &state)
        if graph.hasFreeText { try prepareDictation(grammar, in: &state) }
        state.lexicon.releaseFilePages()
        let decoder = state.decoder
        // A search's lexicon tree is the decoder's largest allocation (16 MiB
        // for the sample apps' grammar). At most one other search is kept,
        // and only one of a very different size — the main grammar beside
        // the question being asked — never two versions of the main grammar.
        // Those dropped go before the new one is built, so the two never
        // coexist.
        let size = grammar.searchSize.states + grammar.searchSize.transitions
        let kept = state.searches.prefix(1).filter { max($0.size, size) >= 4 * min($0.size, size) }
        _ = state.dropSearches { search in !kept.contains(where: { $0.name == search.name }) }
        state.currentGrammar = nil
        state.searchSerial += 1
        let name = "hark\(state.searchSerial)"
        let settings = FSGBuilder.Settings(
            freeTextPhonePenalty: options.freeTextPhonePenalty,
            rejectionPhonePenalty: grammar.rejectsOutOfGrammar ? options.rejectionPhonePenalty : nil,
            phones: state.phones, leadingPhrases: grammar.leadingPhrases)
        let fsg = try FSGBuilder.build(grammar.automaton, settings: settings, name: name, decoder: decoder)
        defer { fsg_model_free(fsg) }
        // HARK_FSG_DUMP=/tmp/grammar.fsg writes the search as pocketsphinx
        // gets it (sphinx FSG text format), to see what its size comes from.
        if let dump = ProcessInfo.processInfo.environment["HARK_FSG_DUMP"], !dump.isEmpty {
            fsg_model_writefile(fsg, dump)
        }
        guard ps_set_fsg(decoder, name, fsg) == 0, ps_set_search(decoder, name) == 0 else {
            ps_unset_search(decoder, name)
            throw RecognitionError("pocketsphinx rejected the grammar (\(graph.stateCount) states); set HARK_POCKETSPHINX_LOG=/tmp/ps.log to see why")
        }
        state.searches.insert(Search(key: grammar.searchKey, name: name, size: size), at: 0)
        state.currentGrammar = grammar.searchKey
        Self.returnFreedMemory()
        model.definitionFile.releasePages()
    }

    /// Gives the pages freed by a dropped search and the build's temporary
    /// tables back to the system (glibc keeps them otherwise: resident memory
    /// stayed at its peak after every grammar change).
    static func returnFreedMemory() {
        #if canImport(Glibc)
        // malloc_trim is in <malloc.h>, which Glibc does not import.
        if let trim = dlsym(nil, "malloc_trim") {
            typealias Trim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(trim, to: Trim.self)(0)
        }
        #endif
    }

    /// The names of the grammar searches the decoder holds, the current first.
    var heldSearches: [String] {
        state.withLock { $0?.searches.map(\.name) ?? [] }
    }

    /// The phones the recognizer hears `word` by (its first pronunciation:
    /// the dictionary's, else letter-to-sound), or nil.
    ///
    /// The pages of the dictionary file the lookup read are given back
    /// (``Lexicon/releaseFilePages()``): the assistant asks for the phones
    /// of names after a turn, and those few words had brought 2.4 MB of the
    /// file back for good.
    public func phones(of word: String) -> [String]? {
        state.withLock { state in
            defer { state?.lexicon.releaseFilePages() }
            return state?.lexicon.lookup(word)?.variants.first
        }
    }

    /// Checks that every word `grammar` needs can be pronounced, and builds
    /// its search, so problems show before the first utterance.
    ///
    /// - Throws: ``RecognitionError`` naming the words without pronunciation.
    ///
    /// Never waits: assistants are made (and prepare their grammar) on
    /// Swift's cooperative threads, where blocking until a stream ends could
    /// block the very thread the stream's task needs to end it. While a
    /// stream holds the decoder only the pronunciations are checked; the
    /// search is built when the grammar is first heard.
    public func prepare(_ grammar: DecoderGrammar) throws {
        guard access.tryAcquire() else {
            try state.withLock { (state: inout State?) throws in
                guard state != nil else { throw RecognitionError("decoder is closed") }
                try Self.checkPronunciations(of: grammar, in: state!)
            }
            return
        }
        defer { access.release() }
        try prepareHeld(grammar)
    }

    /// Drops the search built for `grammar`, when the decoder is not
    /// hearing an utterance (``SpeechRecognizer/release(_:)``). The next
    /// utterance heard against it builds it again (``activate(_:in:)``).
    public func release(_ grammar: DecoderGrammar) {
        guard access.tryAcquire() else { return }
        defer { access.release() }
        let dropped = state.withLock { (state: inout State?) -> Bool in
            guard state != nil, !state!.streaming else { return false }
            return state!.dropSearches { $0.key == grammar.searchKey }
        }
        if dropped { Self.returnFreedMemory() }
    }

    /// ``prepare(_:)`` by a caller that holds ``access``.
    func prepareHeld(_ grammar: DecoderGrammar) throws {
        try state.withLock { (state: inout State?) throws in
            guard state != nil else { throw RecognitionError("decoder is closed") }
            guard !state!.streaming else { throw Self.busy }
            try activate(grammar, in: &state!)
        }
    }

    /// The words `grammar` needs, each of which can be pronounced.
    ///
    /// - Throws: ``RecognitionError`` naming the words without pronunciation.
    @discardableResult
    private static func checkPronunciations(of grammar: DecoderGrammar, in state: State) throws -> Set<String> {
        let needed = grammar.graph.vocabulary.union(grammar.leadingPhrases.joined()).union(grammar.trailingPhrases.joined())
        let missing = needed.filter { !state.lexicon.contains($0) }.sorted()
        guard missing.isEmpty else {
            throw RecognitionError("no pronunciation for \(missing.map { "'\($0)'" }.joined(separator: ", ")); add a pronunciation hint for it in the app's vocabulary")
        }
        return needed
    }

    /// Adds the pronunciations of `words` the decoder does not know yet.
    ///
    /// The searches pocketsphinx holds are not rebuilt: every caller builds
    /// the search that uses the words next, and rebuilding the current one
    /// cost a second copy of its lexicon tree (16 MiB) for nothing.
    private static func addWords(_ words: Set<String>, to state: inout State) throws {
        let new = words.subtracting(state.knownWords).sorted()
        var variants: [(String, [String])] = []
        for word in new {
            for (i, phones) in (state.lexicon.pronunciations(of: word) ?? []).enumerated() {
                variants.append((i == 0 ? word : "\(word)(\(i + 1))", phones))
            }
        }
        for (word, phones) in variants {
            if ps_add_word(state.decoder, word, phones.joined(separator: " "), 0) < 0 {
                throw RecognitionError("pocketsphinx rejected the pronunciation of '\(word)': \(phones.joined(separator: " ")) (are these phones of the acoustic model?)")
            }
        }
        state.knownWords.formUnion(new)
    }

    /// Runs `work` on the decoder's own thread, off the cooperative pool.
    func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            worker.async { continuation.resume(with: Result(catching: work)) }
        }
    }

    /// Puts every decoder's running cepstral mean back as it was when the
    /// decoder was made (the model's `-cmninit`), once any utterance being
    /// heard has ended.
    public func resetAdaptation() async {
        await access.acquire()
        defer { access.release() }
        state.withLock { state in
            guard let state, !state.streaming else { return }
            for mean in state.initialMeans { mean.restore() }
        }
    }

    /// Sets every decoder's running cepstral mean to the mean of `samples`'
    /// cepstra, weighted as sphinxbase weights the model's starting mean
    /// (500 frames): the mean a session hearing this speaker, microphone
    /// and room settles on. Less than a tenth of a second of audio, too
    /// little to know anyone by, changes nothing.
    public func adaptListening(to samples: [Int16]) async throws {
        guard samples.count >= PCMAudio.recognitionRate / 10 else { return }
        await access.acquire()
        defer { access.release() }
        try await offPool {
            try self.state.withLock { state in
                guard let state, !state.streaming, let mean = try Self.cepstralMean(of: samples, with: state.decoder) else { return }
                for decoder in [state.decoder, state.dictation, state.phonesDecoder].compactMap({ $0 }) {
                    RunningMean.set(decoder, to: mean)
                }
            }
        }
    }

    /// The mean of the cepstra of `samples`' whole frames in `decoder`'s
    /// front end (what `-cmn batch` subtracts from a whole utterance); nil
    /// when there is no whole frame.
    static func cepstralMean(of samples: [Int16], with decoder: OpaquePointer) throws -> [Float]? {
        guard let fe = ps_get_fe(decoder) else { throw RecognitionError("pocketsphinx has no front end") }
        fe_start_stream(fe)
        guard fe_start_utt(fe) >= 0 else { throw RecognitionError("pocketsphinx's front end could not start an utterance") }
        let length = Int(fe_get_output_size(fe))
        var cepstra: UnsafeMutablePointer<UnsafeMutablePointer<mfcc_t>?>?
        var frames: Int32 = 0
        let processed = samples.withUnsafeBufferPointer { fe_process_utt(fe, $0.baseAddress, $0.count, &cepstra, &frames) }
        defer { if let cepstra { fe_free_2d(cepstra) } }
        // The last, part-filled frame is left out.
        var last = [mfcc_t](repeating: 0, count: length)
        var lastFrames: Int32 = 0
        fe_end_utt(fe, &last, &lastFrames)
        guard processed >= 0 else { throw RecognitionError("pocketsphinx's front end failed on \(samples.count) samples") }
        guard let cepstra, frames > 0 else { return nil }
        var sum = [Double](repeating: 0, count: length)
        var count = 0
        for f in 0..<Int(frames) {
            guard let frame = cepstra[f] else { continue }
            for i in 0..<length { sum[i] += Double(frame[i]) }
            count += 1
        }
        return count > 0 ? sum.map { Float($0 / Double(count)) } : nil
    }

    /// ``spot(_:in:threshold:)`` from async code, without blocking a thread of the cooperative pool.
    public func spot(_ phrase: String, in samples: [Int16], threshold: Double = 1e-20) async throws -> Int? {
        await access.acquire()
        defer { access.release() }
        return try await offPool { try self.spotHeld(phrase, in: samples, threshold: threshold) }
    }

    /// ``recognize(_:grammar:)`` from async code, without blocking a thread of the cooperative pool.
    public func recognize(_ samples: [Int16], grammar: DecoderGrammar) async throws -> Recognition {
        await access.acquire()
        defer { access.release() }
        return try await offPool { try self.recognizeHeld(samples, grammar: grammar) }
    }

    /// Looks for a wake phrase ("hey hark") in an utterance with
    /// pocketsphinx's keyword spotting, and returns the sample just after
    /// it, or nil when it is not there.
    ///
    /// - Parameters:
    ///   - phrase: The words to spot; each needs a pronunciation (the
    ///     dictionary's or letter-to-sound).
    ///   - threshold: pocketsphinx's `-kws_threshold`: lower spots more
    ///     (and falsely more); 1e-20 suits a two- or three-word phrase.
    /// - Throws: ``RecognitionError`` when the phrase cannot be pronounced or decoding fails.
    public func spot(_ phrase: String, in samples: [Int16], threshold: Double = 1e-20) throws -> Int? {
        try access.holding { try spotHeld(phrase, in: samples, threshold: threshold) }
    }

    /// ``spot(_:in:threshold:)`` by a caller that holds ``access``.
    func spotHeld(_ phrase: String, in samples: [Int16], threshold: Double) throws -> Int? {
        let words = phrase.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init)
        guard !words.isEmpty else { throw RecognitionError("the wake phrase '\(phrase)' has no words") }
        return try state.withLock { (state: inout State?) throws -> Int? in
            guard state != nil else { throw RecognitionError("decoder is closed") }
            guard !state!.streaming else { throw Self.busy }
            let missing = words.filter { !state!.lexicon.contains($0) }
            guard missing.isEmpty else {
                throw RecognitionError("no pronunciation for \(missing.map { "'\($0)'" }.joined(separator: ", ")) in the wake phrase")
            }
            try Self.addWords(Set(words), to: &state!)
            let decoder = state!.decoder
            let key = "\(words.joined(separator: " "))@\(threshold)"
            if state!.spotting != key {
                cmd_ln_set_float_r(ps_get_config(decoder), "-kws_threshold", threshold)
                guard ps_set_keyphrase(decoder, "hark-wake", words.joined(separator: " ")) == 0,
                      ps_set_search(decoder, "hark-wake") == 0 else {
                    throw RecognitionError("pocketsphinx could not spot '\(phrase)'")
                }
                state!.spotting = key
            }
            let pass = try Self.decode(samples, with: decoder, frameRate: frameRate)
            guard let last = pass.last else { return nil }
            return min(samples.count, (last.endFrame + 1) * Int(16_000 / frameRate))
        }
    }

    /// Decodes one utterance of 16 kHz mono samples against `grammar`.
    ///
    /// Several assistants may share one decoder: the grammar is switched
    /// under the same lock as the decoding.
    ///
    /// - Throws: ``RecognitionError`` when a word has no pronunciation or decoding fails.
    public func recognize(_ samples: [Int16], grammar: DecoderGrammar) throws -> Recognition {
        try access.holding { try recognizeHeld(samples, grammar: grammar) }
    }

    /// ``recognize(_:grammar:)`` by a caller that holds ``access``.
    func recognizeHeld(_ samples: [Int16], grammar: DecoderGrammar) throws -> Recognition {
        let started = ContinuousClock.now
        return try state.withLock { (state: inout State?) throws -> Recognition in
            guard let decoder = state?.decoder else { throw RecognitionError("decoder is closed") }
            guard !state!.streaming else { throw Self.busy }
            try activate(grammar, in: &state!)
            // The confidence's phone pass reads the same samples on its own
            // thread while the grammar pass runs: one after the other they
            // took twice as long (barista-dev, one worker: real-time factor
            // 0.080 and 303 ms p50 from the end of the audio).
            let phones = try phoneDecoder(&state!).map { UnsafeSendable($0) }
            let phonePass = Mutex<Result<[Segment], any Error>?>(nil)
            let group = DispatchGroup()
            let shared = state!.senoneScores
            if let phones {
                // The phone pass follows the grammar pass frame by frame,
                // taking its scores (set before it starts, so that it waits).
                shared?.begin()
                let frameRate = frameRate
                phoneWorker.async(group: group) {
                    let result = Result { try Self.decode(samples, with: phones.value, frameRate: frameRate) }
                    phonePass.withLock { $0 = result }
                }
            }
            // The n-gram pass, the rival a reading is judged against
            // (``DecoderOptions/maximumDictationLead``), reads them too, as
            // it does while a stream is heard; it is then also the context
            // free text is transcribed from.
            let dictation = judgesByDictation(grammar) ? state!.dictation.map { UnsafeSendable($0) } : nil
            let dictationPass = Mutex<Result<[Segment], any Error>?>(nil)
            if let dictation {
                let frameRate = frameRate
                dictationWorker.async(group: group) {
                    let result = Result { try Self.decode(samples, with: dictation.value, frameRate: frameRate) }
                    dictationPass.withLock { $0 = result }
                }
            }
            let pass: [Segment]
            do {
                defer { shared?.end() }
                pass = try Self.decode(samples, with: decoder, frameRate: frameRate, collectingHistory: options.collectsSearchHistory)
            } catch {
                group.wait()
                throw error
            }
            group.wait()
            let phoneSegments = try phonePass.withLock { $0 }?.get()
            let dictated = try dictationPass.withLock { $0 }?.get()
            var recognition = try recognition(of: pass, samples: samples, grammar: grammar, dictated: dictated,
                                              phones: phoneSegments, state: &state!)
            recognition.decodeSeconds = started.secondsElapsed
            return recognition
        }
    }

    /// Whether a reading against `grammar` is judged against the n-gram
    /// pass (``DecoderOptions/maximumDictationLead``): where the grammar
    /// has free text (the n-gram pass then knows the grammar's words, and
    /// hears every stream), rejects out-of-grammar speech, and there is a
    /// confidence floor.
    func judgesByDictation(_ grammar: DecoderGrammar) -> Bool {
        options.maximumDictationLead != nil && options.minimumConfidence > 0 && grammar.rejectsOutOfGrammar
            && grammar.graph.hasFreeText
    }

    /// A use of the decoder while a stream holds it: a bug, since ``access`` serialises them.
    static let busy = RecognitionError("the recognizer is already hearing a stream; finish or cancel it first")

    /// What the grammar pass's best path means: rejected when it went
    /// through the garbage loop or is far less likely than free phones,
    /// else its words with their confidence and free text transcribed
    /// (from `dictated`, the n-gram pass over the same audio, when it ran
    /// while the audio came; otherwise decoded now).
    /// `phones` is the phone pass over the same samples (nil when the model
    /// has no phone n-gram model, and so no confidence).
    func recognition(of segments: [Segment], samples: [Int16], grammar: DecoderGrammar, dictated: [Segment]?,
                     phones: [Segment]?, state: inout State) throws -> Recognition {
        defer { state.releaseLanguageModelPages() }
        var recognition = Recognition(text: "", words: [], confidence: 0,
                                      audioSeconds: Double(samples.count) / 16_000, decodeSeconds: 0)
        if segments.contains(where: { PhoneLoop.kind(of: $0.token) == .garbage }) {
            // The grammar's words, each run of the garbage loop's phones shown as "…".
            let reading = segments.reduce(into: [String]()) { words, s in
                if PhoneLoop.kind(of: s.token) == .garbage {
                    if words.last != "…" { words.append("…") }
                } else if PhoneLoop.kind(of: s.token) == nil, let word = Self.spokenWord(s.token) {
                    words.append(word)
                }
            }
            recognition.rejection = Rejection(.outOfGrammar, reading: reading.joined(separator: " "))
            return recognition
        }
        var segments = segments
        let scored = scoreConfidence(&segments, phones: phones, state: state)
        let decoder = state.decoder
        segments = Self.mergingRepeatedWords(segments) { Self.phoneCount(of: $0, in: decoder) }
        // A phone or three of free text after the app's name that ends the
        // sentence are the name's last sound, not a message: the n-gram
        // pass would find a word in them ("send a message to Bobo on
        // MonkeyChat" heard with the message "shot").
        if let tail = grammar.nameTail(segments.map(\.token)) { segments.removeSubrange(tail.start...) }
        recognition.words = try Self.transcribeFreeText(segments, samples: samples, dictated: dictated, state: state, frameRate: frameRate)
        recognition.text = recognition.words.map(\.word).joined(separator: " ")
        recognition.confidence = scored ?? Self.freeTextConfidence(of: recognition.words)
        let floor = confidenceFloor(for: recognition.words, grammar: grammar)
        // Forced onto the grammar, but far worse than any phones: out of
        // grammar; or free text for no app named, its carrier not heard
        // clearly enough. (A reading of free text alone, an answer to
        // "What's your message?", has no grammar word to judge.)
        func unsure() -> Rejection.Reason? {
            guard let scored, scored < floor else { return nil }
            return .unsure(confidence: scored, floor: floor)
        }
        // An app's name pieced together out of sounds apart: not the person naming the app.
        func pieced() -> Rejection.Reason? {
            guard let limit = options.maximumPauseInAppName,
                  let pause = grammar.longestPauseInAppName(recognition.words), pause > limit else { return nil }
            return .pauseInAppName(seconds: pause, limit: limit)
        }
        // The grammar's words squeezed into sounds they are unlike: judged
        // (a dictionary lookup a word) only where nothing else rejected it.
        func forced() -> Rejection.Reason? {
            options.rejectsForcedReadings && floor > 0 && phones != nil && scored != nil
                && ForcedReading.isForced(Self.forcedReadingWords(segments, decoder: decoder)) ? .forced : nil
        }
        // Free words explain the audio far better than the grammar's path:
        // speech for no app, the grammar's words squeezed onto it.
        func outscored() -> Rejection.Reason? {
            guard judgesByDictation(grammar), let limit = options.maximumDictationLead, floor > 0, scored != nil, let dictated,
                  let lead = Self.dictationLead(of: segments, over: dictated, decoder: decoder), lead > limit else { return nil }
            return .outscoredByDictation(lead: lead, limit: limit)
        }
        if grammar.rejectsOutOfGrammar, let reason = unsure() ?? pieced() ?? forced() ?? outscored() {
            recognition.rejection = Rejection(reason, reading: recognition.text)
            recognition.text = ""
            recognition.words = []
        }
        return recognition
    }

    /// The confidence a reading of `words` must reach not to be rejected
    /// as heard unsurely: ``DecoderOptions/minimumConfidence``, raised for
    /// free text for no app named
    /// (``DecoderOptions/minimumFreeTextConfidence``), for a request naming
    /// no app among several (``DecoderOptions/minimumUnnamedConfidence``),
    /// and for one that names its app but is mostly free text at its end
    /// (``DecoderOptions/minimumNamedFreeTextConfidence``). 0: no floor.
    /// Only which words are free text and how long each takes count, so a
    /// path whose free text is still phones is judged as its transcription
    /// would be.
    func confidenceFloor(for words: [RecognizedWord], grammar: DecoderGrammar) -> Double {
        var floor = options.minimumConfidence
        guard floor > 0 else { return floor }
        if !grammar.namesApp(words.filter { !$0.isFreeText }.map(\.word)) {
            if words.contains(where: \.isFreeText) { floor = max(floor, options.minimumFreeTextConfidence) }
            if grammar.appCount > 1 { floor = max(floor, options.minimumUnnamedConfidence) }
        } else if words.last?.isFreeText == true, Self.freeTextShare(of: words) >= DecoderOptions.namedFreeTextShare {
            floor = max(floor, options.minimumNamedFreeTextConfidence)
        }
        return floor
    }

    /// How sure the grammar pass is of each word it heard, and of the
    /// whole utterance, 0...1 (pocketsphinx's FSG search has no posterior:
    /// it reported 1 for everything).
    ///
    /// Each grammar word's acoustic score is compared with that of the
    /// best sequence of any phones over the same frames (an allphone pass
    /// with the phone n-gram model): the gap, per frame, says how much worse
    /// the grammar's word explains the audio than unconstrained phones do.
    /// A word's confidence is a logistic of its gap; the utterance's, of the
    /// mean gap over its grammar words weighted by their frames (free text
    /// and fillers are phones already, and left out). The logistic was
    /// fitted on the fixtures and barista-dev, the probability that the
    /// reading is right (docs/measurements.md, "Confidence"). 1 when there is no phone
    /// model (nothing to compare with); nil when the path has no grammar
    /// word (``freeTextConfidence(of:)`` then says).
    func scoreConfidence(_ segments: inout [Segment], phones: [Segment]?, state: State) -> Double? {
        guard let phones else { return 1 }
        let lmath = ps_get_logmath(state.decoder)
        /// The phone loop's score over frames a...b (a phone cut by the range counts pro rata).
        func loopScore(_ a: Int, _ b: Int) -> Double {
            var total = 0.0
            for p in phones where p.endFrame >= a && p.startFrame <= b {
                let overlap = min(b, p.endFrame) - max(a, p.startFrame) + 1
                total += Double(p.acoustic) * Double(overlap) / Double(p.endFrame - p.startFrame + 1)
            }
            return total
        }
        var gapSum = 0.0, frameSum = 0.0
        for i in segments.indices {
            let s = segments[i]
            guard Self.spokenWord(s.token) != nil, PhoneLoop.kind(of: s.token) == nil else { continue }
            let frames = Double(s.endFrame - s.startFrame + 1)
            let gap = logmath_log_to_ln(lmath, Int32(clamping: Int(Double(s.acoustic) - loopScore(s.startFrame, s.endFrame)))) / frames
            let confidence = 1 / (1 + exp(-(options.confidenceOffset + options.confidenceSlope * gap)))
            segments[i].confidence = confidence
            gapSum += gap * frames
            frameSum += frames
        }
        guard frameSum > 0 else { return nil }
        return 1 / (1 + exp(-(options.confidenceOffset + options.confidenceSlope * gapSum / frameSum)))
    }

    /// How much better, in nats of acoustic score per frame, the n-gram
    /// pass's best path (`dictated`) explains the utterance than the
    /// grammar pass's (`segments`); nil when the two did not hear the same
    /// frames. The language model's scores are left out of both: what is
    /// compared is how well each path's sounds fit the audio.
    ///
    /// The n-gram search reports its words' acoustic scores in logmath's
    /// units, the grammar search in the senone scores' (logmath's shifted
    /// right by ``senoneScoreShift`` bits), so the grammar's are shifted
    /// back before they are compared.
    static func dictationLead(of segments: [Segment], over dictated: [Segment], decoder: OpaquePointer) -> Double? {
        func span(_ s: [Segment]) -> Int? {
            guard let first = s.first, let last = s.last else { return nil }
            return last.endFrame - first.startFrame + 1
        }
        guard let frames = span(segments), let heard = span(dictated), frames > 0, abs(frames - heard) <= 2,
              let lmath = ps_get_logmath(decoder) else { return nil }
        let grammar = Double(segments.reduce(0) { $0 + $1.acoustic }) * Double(1 << senoneScoreShift)
        let free = Double(dictated.reduce(0) { $0 + $1.acoustic })
        return (free - grammar) * log(logmath_get_base(lmath)) / Double(frames)
    }

    /// pocketsphinx's `SENSCR_SHIFT`: senone scores are logmath's shifted
    /// right by this many bits.
    static let senoneScoreShift = 10

    /// The grammar pass's words as ``ForcedReading`` judges them: each
    /// grammar word with its frames, its pronunciation's phones (the
    /// variant the search took) and its confidence, and each free-text run
    /// as one word; silence and fillers left out.
    static func forcedReadingWords(_ segments: [Segment], decoder: OpaquePointer) -> [ForcedReading.Word] {
        var words: [ForcedReading.Word] = []
        // A run of free text shorter than ``DecoderGrammar/shortestFreeText``
        // holds no words (``transcribeFreeText``), and is no free text here
        // either: in "remind me to buy …" heard as "to", one phone, "to by
        // …", the first "to" is no squeezed carrier of free text.
        var run = 0
        for segment in segments {
            if PhoneLoop.kind(of: segment.token) == .dictation {
                run += 1
                if run == DecoderGrammar.shortestFreeText { words.append(.init(frames: 0, phones: 0, confidence: 1, isFreeText: true)) }
                continue
            }
            guard spokenWord(segment.token) != nil, PhoneLoop.kind(of: segment.token) == nil else { continue }
            run = 0
            words.append(.init(frames: segment.endFrame - segment.startFrame + 1, phones: phoneCount(of: segment.token, in: decoder),
                               confidence: segment.confidence, isFreeText: false))
        }
        return words
    }

    /// `segments` with a grammar word heard twice over one word's sound
    /// made one: the same word twice, at most a phone of free text between
    /// (no free text: ``DecoderGrammar/shortestFreeText``), one of the two
    /// squeezed (``ForcedReading/isSqueezed(_:)``). "Remind me to buy more
    /// bananas" was read "remind me to | t | to by more bananas", the
    /// carrier "to" in 0.06 s, the task "to by more bananas", and the
    /// reading rejected as forced; or "remind me to to buy …", the second
    /// "to" in 0.06 s. Now "remind me to by more bananas", "remind me to
    /// buy …". The word kept, the other one, takes the frames and scores
    /// of what it replaces. `phones` gives a token's phone count.
    static func mergingRepeatedWords(_ segments: [Segment], phones: (String) -> Int) -> [Segment] {
        func squeezed(_ s: Segment) -> Bool {
            ForcedReading.isSqueezed(.init(frames: s.endFrame - s.startFrame + 1, phones: phones(s.token),
                                           confidence: s.confidence, isFreeText: false))
        }
        var merged: [Segment] = []
        var i = 0
        while i < segments.count {
            let first = segments[i]
            // The next token that is not free text; the run before it must be too short to hold words.
            var next = i + 1
            while next < segments.count, PhoneLoop.kind(of: segments[next].token) == .dictation { next += 1 }
            if let word = spokenWord(first.token), PhoneLoop.kind(of: first.token) == nil,
               next - i - 1 < DecoderGrammar.shortestFreeText, next < segments.count,
               spokenWord(segments[next].token) == word, PhoneLoop.kind(of: segments[next].token) == nil,
               case let firstSqueezed = squeezed(first), firstSqueezed || squeezed(segments[next]) {
                var kept = firstSqueezed ? segments[next] : first
                kept.startFrame = first.startFrame
                kept.endFrame = segments[next].endFrame
                kept.acoustic = segments[i...next].reduce(0) { $0 + $1.acoustic }
                merged.append(kept)
                i = next + 1
                continue
            }
            merged.append(first)
            i += 1
        }
        return merged
    }

    /// The number of phones of `token`'s pronunciation in `decoder`'s dictionary (0 when it has none).
    static func phoneCount(of token: String, in decoder: OpaquePointer) -> Int {
        guard let text = ps_lookup_word(decoder, token) else { return 0 }
        defer { free(text) }
        return String(cString: text).split(separator: " ").count
    }

    /// The part of the time the words take that is free text, 0...1
    /// (0 when nothing was heard).
    static func freeTextShare(of words: [RecognizedWord]) -> Double {
        let free = words.filter(\.isFreeText).reduce(0.0) { $0 + max($1.end - $1.start, 0) }
        let all = words.reduce(0.0) { $0 + max($1.end - $1.start, 0) }
        return all > 0 ? free / all : 0
    }

    /// The confidence of a reading with no grammar word: its free-text
    /// words' (their n-gram posteriors, weighted by their length), as for an
    /// answer that is free text alone; 0 when nothing was heard at all (an
    /// empty reading was reported as heard with confidence 1).
    static func freeTextConfidence(of words: [RecognizedWord]) -> Double {
        let spoken = words.filter(\.isFreeText)
        let length = spoken.reduce(0.0) { $0 + max($1.end - $1.start, 0.01) }
        guard length > 0 else { return 0 }
        return spoken.reduce(0.0) { $0 + $1.confidence * max($1.end - $1.start, 0.01) } / length
    }

    /// The decoder of the confidence's yardstick: the allphone search over
    /// the phone n-gram model, in a decoder of its own so that it can run
    /// beside the grammar pass while a stream is heard. Made when first
    /// needed; nil when the model has no phone n-gram model.
    func phoneDecoder(_ state: inout State) throws -> OpaquePointer? {
        if let made = state.phonesDecoder { return made }
        guard let phoneModel = model.phoneLanguageModel else { return nil }
        var args = DecoderOptions.measuredArguments.merging(sharedArguments) { _, given in given }
        // The grammar's wide beams (1e-80) made the phone loop ten times
        // slower than real time; context-independent phones are a tenth of
        // the states.
        args["-beam"] = "1e-40"
        args["-pbeam"] = "1e-40"
        args["-wbeam"] = "1e-30"
        args["-allphone_ci"] = "yes"
        let made = try Self.makeDecoder(args, modelPath: model.acousticModel)
        // The phone model is read here rather than by `-allphone`, so that
        // its scores can be cached (see ``NGramScoreCache``).
        var mapped: MappedLanguageModel?
        do {
            guard let logmath = ps_get_logmath(made),
                  let phoneLanguageModel = ngram_model_read(ps_get_config(made), phoneModel, NGRAM_AUTO, logmath)
            else { throw RecognitionError("pocketsphinx could not read the phone language model \(phoneModel) (reinstall pocketsphinx-en-us, or give a model folder with en-us-phone.lm.bin)") }
            defer { ngram_model_free(phoneLanguageModel) }
            // Every phone n-gram's score asked once, now, from the model's
            // own copy; then its tables are read from a mapping of the file
            // instead, and both the copy's pages (0.86 MB) and the mapping's
            // go back to the system, never read again.
            if NGramScoreCache.install(on: phoneLanguageModel, logmath: logmath) {
                NGramScoreCache.fill(phoneLanguageModel)
                mapped = MappedLanguageModel.map(phoneLanguageModel, logmath: logmath, file: phoneModel)
                mapped?.releasePages()
            }
            guard ps_set_allphone(made, "phones", phoneLanguageModel) == 0, ps_set_search(made, "phones") == 0
            else { throw RecognitionError("pocketsphinx could not start the phone loop over \(phoneModel)") }
        } catch {
            ps_free(made)
            mapped?.unmap()
            throw error
        }
        if let mapped { state.mappedLanguageModels.append((made, mapped)) }
        state.phonesDecoder = made
        state.keepInitialMean(of: made)
        state.senoneScores = SharedSenoneScores.install(owner: state.decoder, reader: made)
        // Installed before lending: lent parameters no longer pass the checks of a model of its own.
        state.share(with: made)
        model.definitionFile.releasePages()
        return made
    }

    /// One decoded token with its frames.
    struct Segment {
        var token: String
        var startFrame: Int
        var endFrame: Int
        var confidence: Double
        /// The acoustic score (pocketsphinx's log base), for confidence.
        var acoustic: Int = 0
    }

    /// Decodes `samples` with the decoder's current search.
    private static func decode(_ samples: some Collection<Int16>, with decoder: OpaquePointer, frameRate: Double,
                               collectingHistory: Bool = true) throws -> [Segment] {
        try startUtterance(decoder, collectingHistory: collectingHistory)
        try process(Array(samples), with: decoder, wholeUtterance: true)
        return try endUtterance(decoder)
    }

    /// Starts an utterance with the decoder's current search.
    static func startUtterance(_ decoder: OpaquePointer, collectingHistory: Bool = true) throws {
        // Decoding in pieces (a stream) switches sphinxbase's cepstral mean
        // normalisation to its running estimate for good; a whole utterance
        // is normalised by its own mean again, as the model's feat.params
        // says, so what a decoder streamed before cannot change it.
        if let feat = ps_get_feat(decoder), let configured = cmd_ln_str_r(ps_get_config(decoder), "-cmn") {
            feat.pointee.cmn = cmn_type_from_str(configured)
        }
        // A new stream resets the front end's noise and silence estimates,
        // so each utterance is decoded the same whatever came before it
        // (replays and benchmarks repeat; the whole utterance is here).
        guard ps_start_stream(decoder) >= 0, ps_start_utt(decoder) >= 0 else { throw RecognitionError("pocketsphinx could not start an utterance") }
        if collectingHistory { collectHistory(of: decoder) }
    }

    /// Has a grammar search free the word exits no path it follows can
    /// reach any more, as it goes (``hark_fsg_history_collector_install``):
    /// pocketsphinx keeps every one until the utterance ends, 57 MB of them
    /// in 4 s of noisy speech with every sample app. Once per search; a
    /// search that is not a grammar search, or not laid out as the
    /// collector expects, is left alone (and keeps them all).
    static func collectHistory(of decoder: OpaquePointer) {
        guard let name = ps_get_search(decoder), let fsg = ps_get_fsg(decoder, name) else { return }
        _ = hark_fsg_history_collector_install(UnsafeMutableRawPointer(decoder), UnsafeRawPointer(ps_get_config(decoder)), UnsafeRawPointer(fsg))
    }

    /// How much the grammar search searched in an utterance.
    public struct SearchWork: Sendable, Equatable {
        /// Phone models (HMMs) it evaluated, summed over the frames.
        public var models: Int
        /// The frames (100 a second).
        public var frames: Int
        /// Phone models evaluated per frame, on average.
        public var modelsPerFrame: Double { frames > 0 ? Double(models) / Double(frames) : 0 }
    }

    /// The grammar search's work in the utterance heard last (or being
    /// heard): pocketsphinx's own count, which it otherwise only logs. nil
    /// when the search is not a grammar search, or without
    /// ``DecoderOptions/collectsSearchHistory`` (it is read through the
    /// structures the collector has checked).
    public func lastSearchWork() -> SearchWork? {
        state.withLock { state -> SearchWork? in
            guard let decoder = state?.decoder else { return nil }
            var models: Int64 = 0
            var frames: Int32 = 0
            guard hark_fsg_search_work(UnsafeMutableRawPointer(decoder), &models, &frames) == 0 else { return nil }
            return SearchWork(models: Int(models), frames: Int(frames))
        }
    }

    /// Decodes the next samples of the utterance.
    static func process(_ samples: [Int16], with decoder: OpaquePointer, wholeUtterance: Bool) throws {
        let processed = samples.withUnsafeBufferPointer { buffer in
            ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, wholeUtterance ? 1 : 0)
        }
        guard processed >= 0 else { throw RecognitionError("pocketsphinx failed to decode \(samples.count) samples") }
    }

    /// Ends the utterance: the words of its best path, with their frames.
    ///
    /// pocketsphinx's own utterance probability (`ps_get_prob`) is not
    /// asked for: the grammar search gives none without a lattice, and the
    /// n-gram search's costs a forward-backward pass over its lattice after
    /// the person stopped speaking. The confidence is Hark's own (the phone
    /// pass, ``recognition(of:samples:grammar:dictated:phones:state:)``).
    ///
    /// Once they are read, what the search kept of the utterance is let go
    /// (``releaseUtterance(of:)``): nothing reads the ended utterance again.
    static func endUtterance(_ decoder: OpaquePointer) throws -> [Segment] {
        guard ps_end_utt(decoder) >= 0 else { throw RecognitionError("pocketsphinx failed to end the utterance") }
        defer { releaseUtterance(of: decoder) }
        return segments(of: decoder)
    }

    /// Lets go of what the decoder's search kept of the ended utterance,
    /// rather than keep it until the next utterance starts: a grammar
    /// search's word exits (``hark_fsg_history_release``, with the history
    /// collector; up to 6 MB in noisy speech with every sample app), an
    /// n-gram search's lattice and the pages of its backpointer and score
    /// tables (``hark_ngram_search_release``; about 3 MB after noisy
    /// speech), a phone loop's history (``hark_allphone_search_release``;
    /// about 0.6 MB in 4.5 s). Each would otherwise be held beside what the
    /// answer needs (its code paged in, a grammar rebuilt for a new task),
    /// where many turns of `hark listen` peak. Each call checks the
    /// search's kind and layout and leaves any other alone. After it the
    /// decoder reads as having heard nothing.
    static func releaseUtterance(of decoder: OpaquePointer) {
        let raw = UnsafeMutableRawPointer(decoder)
        _ = hark_fsg_history_release(raw)
        _ = hark_ngram_search_release(raw)
        _ = hark_allphone_search_release(raw)
    }

    /// The tokens of the decoder's best path (so far, in an utterance not
    /// yet ended), with their frames, posteriors and acoustic scores.
    static func segments(of decoder: OpaquePointer) -> [Segment] {
        let lmath = ps_get_logmath(decoder)
        var segments: [Segment] = []
        var seg = ps_seg_iter(decoder)
        while let s = seg {
            var sf: Int32 = 0, ef: Int32 = 0, ascr: Int32 = 0, lscr: Int32 = 0, lback: Int32 = 0
            ps_seg_frames(s, &sf, &ef)
            let post = ps_seg_prob(s, &ascr, &lscr, &lback)
            if let w = ps_seg_word(s).map({ String(cString: $0) }) {
                segments.append(Segment(token: w, startFrame: Int(sf), endFrame: Int(ef), confidence: min(1, logmath_exp(lmath, post)),
                                        acoustic: Int(ascr)))
            }
            seg = ps_seg_next(s)
        }
        return segments
    }

    /// The words of the first pass, with each run of free-text phones
    /// replaced by what the n-gram decoder hears in those seconds.
    private static func transcribeFreeText(_ segments: [Segment], samples: [Int16], dictated streamedDictation: [Segment]?, state: State, frameRate: Double) throws -> [RecognizedWord] {
        func word(_ segment: Segment, _ text: String, freeText: Bool = false) -> RecognizedWord {
            RecognizedWord(word: text, start: Double(segment.startFrame) / frameRate,
                           end: Double(segment.endFrame + 1) / frameRate, confidence: segment.confidence, isFreeText: freeText)
        }
        // The n-gram model reads the whole utterance once, so each free-text
        // word is chosen in the context of the words around it ("remind me
        // to | leave home | at eight"); a run of free text then takes the
        // words whose middle falls inside the run's frames. Decoding each
        // run's frames alone measured worse: the run's first words lost
        // their context, and its edges cut words in half.
        var context: [Segment]? = streamedDictation
        func dictated(_ run: [Segment]) throws -> [RecognizedWord] {
            // One phone is no free text: the tail of the word before it or a
            // breath after it, where the n-gram pass would find a word ("send a
            // message to Bobo on MonkeyChat" heard with the message "top").
            guard run.count >= DecoderGrammar.shortestFreeText, let first = run.first, let last = run.last,
                  let dictation = state.dictation else { return [] }
            if context == nil { context = try decode(samples[...], with: dictation, frameRate: frameRate) }
            return context!.compactMap { segment in
                let middle = (segment.startFrame + segment.endFrame + 1) / 2
                guard (first.startFrame...last.endFrame).contains(middle), let text = spokenWord(segment.token) else { return nil }
                return word(segment, text, freeText: true)
            }
        }
        var words: [RecognizedWord] = []
        var run: [Segment] = []
        for segment in segments {
            if PhoneLoop.kind(of: segment.token) == .dictation {
                run.append(segment)
                continue
            }
            guard let text = spokenWord(segment.token) else { continue }  // fillers inside a run stay in it
            words += try dictated(run)
            run = []
            words.append(word(segment, text))
        }
        words += try dictated(run)
        return words
    }

    /// Makes the n-gram decoder for free text (once) and teaches it the
    /// grammar's words it lacks, with the lexicon's pronunciations.
    private func prepareDictation(_ grammar: DecoderGrammar, in state: inout State) throws {
        let needed = grammar.graph.vocabulary.union(grammar.dictation.words)
        if state.dictation == nil {
            guard let lm = grammar.dictation.languageModel ?? model.languageModel else {
                throw RecognitionError.missingModel(model.acousticModel, "free-text slots need an n-gram language model (en-us.lm.bin) beside it")
            }
            // The n-gram search is built over the decoder's dictionary: given
            // all of CMU's 135,000 words it took 45 MiB (the dictionary's hash
            // table, the search's per-word tables, the lexicon tree), most of
            // them words the n-gram model does not have. Given a list of the
            // words it reads free text as, only those (or the most frequent of
            // them), the dictation words and the grammar's are given — those the
            // dictionary has; the others are added below, which also adds
            // them to the language model. Without one, the whole dictionary.
            var args = DecoderOptions.dictationArguments.merging(sharedArguments) { _, given in given }
            args["-dict"] = model.dictionary
            args["-lm"] = lm
            var restricted: InMemoryFile?
            if !grammar.dictation.readingWords.isEmpty {
                let reading = grammar.dictation.readingWords.prefix(grammar.dictation.readingVocabularySize ?? .max)
                let words = needed.union(reading).filter { state.lexicon.dictionaryPronunciations(of: $0) != nil }
                let file = try InMemoryFile(named: "dictation", contents: state.lexicon.pronouncingDictionary(for: words).text)
                args["-dict"] = file.path
                restricted = file
            }
            let made = try withExtendedLifetime(restricted) { try Self.makeDecoder(args, modelPath: model.acousticModel) }
            if let mapped = MappedLanguageModel.map(made, file: lm) { state.mappedLanguageModels.append((made, mapped)) }
            state.dictation = made
            state.keepInitialMean(of: made)
            state.share(with: made)
        }
        guard let dictation = state.dictation else { return }
        let missing = needed.filter { !Self.knows(dictation, $0) }.sorted()
        var variants = missing.flatMap { word in
            (state.lexicon.pronunciations(of: word) ?? []).enumerated().map { i, phones in
                (i == 0 ? word : "\(word)(\(i + 1))", phones.joined(separator: " "))
            }
        }
        if !variants.isEmpty, state.dictationClasses >= state.dictationClassLimit {
            // sphinxbase holds at most 128 classes: start over with one.
            // Nothing may keep the freed decoder (resetting the means wrote
            // into the freed one: heap corruption).
            state.free(dictation)
            state.dictation = nil
            state.dictationClasses = 0
            return try prepareDictation(grammar, in: &state)
        }
        let unknown = Self.wordsOutsideLanguageModel(variants.map(\.0), of: dictation)
        if !unknown.isEmpty {
            if Self.addWordClass(unknown, to: dictation) {
                state.dictationClasses += 1
            } else {
                // Without a class they would go in as unigrams past the
                // model's vocabulary, which crashes its search (below):
                // the n-gram pass does without them.
                variants.removeAll { unknown.contains($0.0) }
            }
        }
        for (i, (word, phones)) in variants.enumerated() {
            // Updating the search once, after the last word, keeps this fast.
            _ = ps_add_word(dictation, word, phones, i == variants.count - 1 ? 1 : 0)
        }
        if !variants.isEmpty { Self.returnFreedMemory() }
    }

    /// The n-gram model's word whose contexts words it lacks are given.
    static let addedWordClassTag = "john"
    /// The n-gram model the decoder's default search reads (the first of its set).
    static func languageModel(of decoder: OpaquePointer) -> OpaquePointer? {
        guard let set = ps_get_lm(decoder, "_default"), let iterator = ngram_model_set_iter(set) else { return nil }
        defer { ngram_model_set_iter_free(iterator) }
        var name: UnsafePointer<CChar>?
        return ngram_model_set_iter_model(iterator, &name)
    }

    /// How many words the dictation decoder's n-gram model holds as plain
    /// unigrams (words given as a class are not counted); nil before free
    /// text was first needed.
    var dictationUnigramCount: Int? {
        state.withLock { state in
            guard let dictation = state?.dictation, let lm = Self.languageModel(of: dictation),
                  let counts = ngram_model_get_counts(lm) else { return nil }
            return Int(counts[0])
        }
    }

    /// Which of `words` the decoder's n-gram model does not have.
    private static func wordsOutsideLanguageModel(_ words: [String], of decoder: OpaquePointer) -> Set<String> {
        guard let lm = languageModel(of: decoder) else { return Set(words) }
        return Set(words.filter { ngram_wid(lm, $0) == NGRAM_INVALID_WID })
    }

    /// Gives the n-gram model `words` as one class sharing the contexts of
    /// ``addedWordClassTag``, so that ps_add_word finds them there.
    ///
    /// Left to ps_add_word, a word the model lacks becomes a unigram with an
    /// id past the vocabulary the model's trie was built for; looking such a
    /// word up as the history of a frequent word, sphinxbase's interpolation
    /// search (lm_trie.c, uniform_find) steps past the end of the word's
    /// range and wanders through memory: wrong scores, and now and then a
    /// crash in bitarr_read_int25 (CI saw one). A class word is scored as its
    /// tag, whose id is in range.
    private static func addWordClass(_ words: Set<String>, to decoder: OpaquePointer) -> Bool {
        guard let lm = languageModel(of: decoder), ngram_wid(lm, addedWordClassTag) != NGRAM_INVALID_WID else { return false }
        let weights = [Float](repeating: 1 / Float(words.count), count: words.count)
        return withCStrings(words.sorted()) { names, count in
            ngram_model_add_class(lm, addedWordClassTag, 1, names, weights, count)
        } >= 0
    }

    /// Whether `decoder`'s dictionary has `word`.
    private static func knows(_ decoder: OpaquePointer, _ word: String) -> Bool {
        guard let phones = ps_lookup_word(decoder, word) else { return false }
        free(phones)
        return true
    }

    /// The word as spoken: fillers and silences dropped, variant marks removed.
    static func spokenWord(_ token: String) -> String? {
        if token.hasPrefix("<") || token.hasPrefix("[") || token.hasPrefix("(") || token == "sil" { return nil }
        if token.hasSuffix(")"), let open = token.lastIndex(of: "(") { return String(token[..<open]) }
        return token
    }
}

/// Loads each dictionary once per process: parsing 135,000 entries is the
/// slowest part of start-up.
final class LexiconCache: Sendable {
    static let shared = LexiconCache()
    private let cache = Mutex<[String: Lexicon]>([:])

    func lexicon(at path: String) throws -> Lexicon {
        if let cached = cache.withLock({ $0[path] }) { return cached }
        let lexicon = try Lexicon(contentsOf: path)
        cache.withLock { $0[path] = lexicon }
        return lexicon
    }
}
