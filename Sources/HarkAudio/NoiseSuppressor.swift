#if canImport(Glibc)
import Glibc
#endif

/// Speech enhancement in front of the recognizer: Xiph's RNNoise, a small
/// recurrent network that estimates, 100 times a second, how much of each
/// frequency band is speech and attenuates the rest.
///
/// Why it is here: pocketsphinx's acoustic model was trained on clean
/// speech, and kitchen noise at 12 and 6 dB SNR turns it into misheard
/// slots (barista-dev at 6 dB: 71.0% command acceptance without it, 87.1%
/// with it; clean audio unchanged at 98.7%). Spectral subtraction and
/// speexdsp's preprocessor were measured too and made things worse (speexdsp
/// at 6 dB: 56.8%); see docs/recognition.md.
///
/// RNNoise works on 48 kHz audio in 10 ms frames; the 16 kHz utterance is
/// resampled up with libsamplerate, denoised, and resampled back, and the
/// network's look-ahead is taken out so the output lines up with the input
/// sample for sample. Each call starts a fresh network state, so an
/// utterance is enhanced the same whatever came before it (as the decoder
/// resets its own noise estimate per utterance).
///
/// The library is loaded at run time (`dlopen`): Debian has no RNNoise
/// package, and `scripts/install-rnnoise.py` (run by `scripts/setup.sh`)
/// installs the build of PyPI's `pyrnnoise` 0.4.5, pinned by SHA-256. It is
/// open only while an utterance is denoised (``Library``). Instances are
/// immutable and safe to share between threads.
public final class NoiseSuppressor: @unchecked Sendable {
    /// Where the library is looked for, in order, after `$HARK_RNNOISE_LIBRARY`.
    public static var searchPaths: [String] {
        var paths = ["/usr/local/lib/hark/librnnoise.so"]
        if let home = getenv("HOME").map({ String(cString: $0) }) { paths.append(home + "/.local/lib/hark/librnnoise.so") }
        paths += ["librnnoise.so.0", "librnnoise.so"]
        return paths
    }

    /// The library in use.
    public let libraryPath: String
    /// Samples per RNNoise frame (480: 10 ms at 48 kHz).
    public let frameSize: Int
    /// RNNoise's own rate.
    public static let rate = 48_000
    /// Samples (at 48 kHz) by which RNNoise's output trails its input: two
    /// frames for the 0.2 network in the pinned build (measured by
    /// cross-correlating input and output speech; NoiseSuppressorTests
    /// checks the alignment).
    public static let latency = 960

    /// How much of the input is added back to RNNoise's output (0.1: noise
    /// attenuated by at most about 20 dB). Full suppression leaves near-digital
    /// silence that pocketsphinx's n-gram dictation pass searches slowly and
    /// fills with words; measured on both development sets (docs/measurements.md,
    /// "Decoder settings"):
    ///
    /// | residual | barista-dev 12 / 6 dB | fixtures: command acceptance, WER, RTF |
    /// |---|---|---|
    /// | no RNNoise | 90.3% / 71.0% | 57.9%, 25.7%, 0.323 |
    /// | 0 | 97.4% / 89.0% | 58.7%, 29.4%, 0.492 |
    /// | 0.1 | 94.8% / 87.1% | 60.3%, 21.9%, 0.384 |
    /// | 0.3 | 96.8% / 85.8% | 59.5%, 22.3%, 0.341 |
    ///
    /// 0.1 is the one setting better than no RNNoise on every figure but speed.
    public static let residual: Float = 0.1

    private typealias Create = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias Destroy = @convention(c) (OpaquePointer?) -> Void
    private typealias Process = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Float>?, UnsafePointer<Float>?) -> Float
    private typealias FrameSize = @convention(c) () -> Int32

    /// The library opened, and the functions Hark calls.
    ///
    /// It is open only while an utterance is denoised: RNNoise's network
    /// is compiled into it, and running it touches all of its 12 MB of
    /// weights, which stay in the process's resident memory for as long as
    /// the library is mapped. Denoising comes before the decode, so closed
    /// afterwards those pages are not counted again while the recognizer
    /// searches (docs/measurements.md, "Memory in noise and after a change"). Opening
    /// it again finds the file in the page cache: no read from disk.
    private struct Library {
        let handle: UnsafeMutableRawPointer
        let create: Create
        let destroy: Destroy
        let process: Process
        let frameSize: Int

        /// Opens `path`; nil with dlerror's reason when it will not load.
        static func open(_ path: String) throws(NoiseSuppressorError) -> Library? {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { return nil }
            func symbol<T>(_ name: String, as type: T.Type) throws(NoiseSuppressorError) -> T {
                guard let pointer = dlsym(handle, name) else {
                    dlclose(handle)
                    throw NoiseSuppressorError("\(path) is not RNNoise: it has no \(name)(); install it with scripts/install-rnnoise.py or pass --denoise off")
                }
                return unsafeBitCast(pointer, to: type)
            }
            let create = try symbol("rnnoise_create", as: Create.self)
            let destroy = try symbol("rnnoise_destroy", as: Destroy.self)
            let process = try symbol("rnnoise_process_frame", as: Process.self)
            let frameSize = Int(try symbol("rnnoise_get_frame_size", as: FrameSize.self)())
            return Library(handle: handle, create: create, destroy: destroy, process: process, frameSize: frameSize)
        }

        func close() { dlclose(handle) }
    }

    /// Loads RNNoise from `library`, or from `$HARK_RNNOISE_LIBRARY`, or
    /// from the first of ``searchPaths`` that loads, checks it, and closes
    /// it again until an utterance needs it (``Library``).
    ///
    /// - Throws: ``NoiseSuppressorError`` naming every place looked at and
    ///   what to do: install it, point at it, or turn denoising off.
    public init(library: String? = nil) throws(NoiseSuppressorError) {
        let candidates: [String]
        if let library {
            candidates = [library]
        } else if let variable = getenv("HARK_RNNOISE_LIBRARY").map({ String(cString: $0) }), !variable.isEmpty {
            candidates = [variable]
        } else {
            candidates = Self.searchPaths
        }
        var failures: [String] = []
        var loaded: (String, Library)?
        for path in candidates {
            if let opened = try Library.open(path) {
                loaded = (path, opened)
                break
            }
            failures.append(dlerror().map { String(cString: $0) } ?? path)
        }
        guard let (path, opened) = loaded else {
            throw NoiseSuppressorError("cannot load RNNoise (\(failures.joined(separator: "; "))); run scripts/setup.sh (it installs \(Self.searchPaths[0])), set HARK_RNNOISE_LIBRARY to a librnnoise.so, or pass --denoise off")
        }
        defer { opened.close() }
        libraryPath = path
        frameSize = opened.frameSize
        guard frameSize == 480 else {
            throw NoiseSuppressorError("\(path): RNNoise frames of \(frameSize) samples; Hark expects 480 (10 ms at 48 kHz); install the pinned build with scripts/install-rnnoise.py")
        }
    }

    /// Utterances whose estimated SNR is at least this (dB) are left alone.
    /// Measured (docs/measurements.md, "Decoder settings"): clean barista-dev recordings
    /// estimate 42.6 dB and up, kitchen noise mixed at 12 dB at most 31.7
    /// and at 6 dB at most 25.8, the synthetic fixtures 81 dB and up. RNNoise
    /// does not help clean speech and can hurt synthetic voices (flite kal16:
    /// "at eight am" heard as "monday at ten am").
    public static let bypassSNR = 35.0

    /// An estimate of the utterance's signal-to-noise ratio in dB: its
    /// loudest 32 ms frame over the mean of its quietest tenth of frames
    /// (the pauses). An utterance with no pause estimates low, and is denoised.
    public static func estimatedSNR(_ samples: [Int16]) -> Double {
        let frame = 512
        let count = samples.count / frame
        guard count >= 4 else { return 0 }
        var energies = (0..<count).map { f in
            var sum = 0.0
            for i in (f * frame)..<((f + 1) * frame) { sum += Double(samples[i]) * Double(samples[i]) }
            return sum / Double(frame)
        }
        energies.sort()
        let quiet = energies.prefix(max(1, count / 10))
        let floor = quiet.reduce(0, +) / Double(quiet.count) + 1e-10
        return 10 * log10(energies[count - 1] / floor)
    }

    /// Whether an utterance of this ``estimatedSNR(_:)`` is noisy: below
    /// ``bypassSNR`` it is denoised (and its speech presence judged), at or
    /// above it left as it is. The one place that decides.
    public static func isNoisy(estimatedSNR: Double) -> Bool { estimatedSNR < bypassSNR }

    /// `samples` denoised when ``estimatedSNR(_:)`` is below ``bypassSNR``,
    /// otherwise as they are.
    public func suppressIfNoisy(_ samples: [Int16], sampleRate: Int = PCMAudio.recognitionRate) throws(NoiseSuppressorError) -> [Int16] {
        try enhanceIfNoisy(samples, sampleRate: sampleRate)?.samples ?? samples
    }

    /// ``enhance(_:sampleRate:)`` when ``estimatedSNR(_:)`` is below
    /// ``bypassSNR``; nil when the audio is clean and is left as it is.
    public func enhanceIfNoisy(_ samples: [Int16], sampleRate: Int = PCMAudio.recognitionRate) throws(NoiseSuppressorError) -> Enhancement? {
        Self.isNoisy(estimatedSNR: Self.estimatedSNR(samples)) ? try enhance(samples, sampleRate: sampleRate) : nil
    }

    /// `samples` (16 kHz) with the noise attenuated: as many samples, aligned with the input.
    ///
    /// - Throws: ``NoiseSuppressorError`` when resampling fails or RNNoise cannot start.
    public func suppress(_ samples: [Int16], sampleRate: Int = PCMAudio.recognitionRate) throws(NoiseSuppressorError) -> [Int16] {
        try enhance(samples, sampleRate: sampleRate).samples
    }

    /// ``suppress(_:sampleRate:)``'s output, with RNNoise's own reading of
    /// each 10 ms frame: the probability that someone is speaking in it.
    ///
    /// - Throws: ``NoiseSuppressorError`` when resampling fails or RNNoise cannot start.
    public func enhance(_ samples: [Int16], sampleRate: Int = PCMAudio.recognitionRate) throws(NoiseSuppressorError) -> Enhancement {
        guard !samples.isEmpty else { return Enhancement(samples: samples, speechProbabilities: []) }
        let up: PCMAudio
        do {
            up = try Resampler.resample(PCMAudio(int16: samples, sampleRate: sampleRate), to: Self.rate, converter: Resampler.fastConverter)
        } catch {
            throw NoiseSuppressorError("noise suppression: \(error)")
        }
        guard let library = try Library.open(libraryPath) else {
            throw NoiseSuppressorError("\(libraryPath): cannot load RNNoise again (\(dlerror().map { String(cString: $0) } ?? "no reason given")); pass --denoise off to go on without it")
        }
        defer { library.close() }
        guard let state = library.create(nil) else {
            throw NoiseSuppressorError("\(libraryPath): rnnoise_create failed (out of memory?); pass --denoise off to go on without it")
        }
        defer { library.destroy(state) }
        // RNNoise takes 16-bit-scaled floats. Zeros after the end let the
        // look-ahead flush the last frames out.
        let padded = up.samples.count + Self.latency
        let frames = (padded + frameSize - 1) / frameSize
        var input = [Float](repeating: 0, count: frames * frameSize)
        for (i, x) in up.samples.enumerated() { input[i] = x * 32768 }
        var output = [Float](repeating: 0, count: input.count)
        var voice = [Float](repeating: 0, count: frames)
        input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                for frame in 0..<frames {
                    let offset = frame * frameSize
                    voice[frame] = library.process(state, outBuffer.baseAddress! + offset, inBuffer.baseAddress! + offset)
                }
            }
        }
        // The network reads a frame with its look-ahead: the reading that
        // came `latency` samples later is the frame's.
        let lag = Self.latency / frameSize
        let inputFrames = (up.samples.count + frameSize - 1) / frameSize
        let speechProbabilities = Array(voice[min(lag, voice.count)..<min(voice.count, lag + inputFrames)])
        let residual = Self.residual
        let aligned = (0..<up.samples.count).map { output[Self.latency + $0] / 32768 + residual * up.samples[$0] }
        let down: PCMAudio
        do {
            down = try Resampler.resample(PCMAudio(samples: aligned, sampleRate: Self.rate), to: sampleRate, converter: Resampler.fastConverter)
        } catch {
            throw NoiseSuppressorError("noise suppression: \(error)")
        }
        var result = down.int16Samples()
        if result.count > samples.count { result.removeLast(result.count - samples.count) }
        if result.count < samples.count { result += [Int16](repeating: 0, count: samples.count - result.count) }
        return Enhancement(samples: result, speechProbabilities: speechProbabilities)
    }

    /// Denoised audio, and how sure RNNoise was, frame by frame, that it held speech.
    public struct Enhancement: Sendable, Equatable {
        /// As many samples as went in, aligned with them.
        public var samples: [Int16]
        /// RNNoise's voice probability (0...1) for each 10 ms of the input.
        public var speechProbabilities: [Float]

        /// How surely anyone spoke at all: the highest mean of
        /// ``speechProbabilities`` over `window` frames in a row (0.1 s;
        /// the mean of them all when there are fewer). Speech scores near 1
        /// even under loud noise; noise alone scores well under it
        /// (``DenoisingRecognizer/minimumSpeechPresence``).
        ///
        /// 0.1 s is less than a syllable said fast. One- and two-word answers
        /// ("yes", "yep", "no", "nah", "sure", "cancel", "send it", "the second
        /// one", "Bobo"; espeak-ng at 175 and 250 words a minute and flite's
        /// slt) mixed with kitchen noise at 18, 12 and 6 dB, three random
        /// placements each: with 0.3 s, 57 of 243 scored under 0.95 and would
        /// have been taken for nobody speaking; with 0.1 s, 5 (all at 6 dB).
        /// Stretches of the kitchen noise with nobody talking in them score
        /// at most 0.88, white, pink and brown noise 0.50 (docs/measurements.md,
        /// "Out-of-grammar rejection"; `scripts/speech-presence.py`).
        public func speechPresence(window: Int = 10) -> Double {
            guard !speechProbabilities.isEmpty else { return 0 }
            let span = min(window, speechProbabilities.count)
            var sum = speechProbabilities.prefix(span).reduce(0.0) { $0 + Double($1) }
            var best = sum
            for i in span..<speechProbabilities.count {
                sum += Double(speechProbabilities[i]) - Double(speechProbabilities[i - span])
                best = max(best, sum)
            }
            return best / Double(span)
        }
    }
}

/// RNNoise could not be loaded or run; the message says what to do.
public struct NoiseSuppressorError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
