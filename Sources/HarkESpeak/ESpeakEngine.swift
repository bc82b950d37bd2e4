import CESpeakNG
import Foundation
import Synchronization

/// The one owner of libespeak-ng's process-global state.
///
/// espeak-ng keeps its voice, parameters, output buffers and callback in
/// globals and is not thread-safe, so every call into it — initialising,
/// selecting a voice, synthesising, listing voices — happens inside
/// ``withEngine(dataPath:_:)``, under a single process-wide lock. Callers
/// re-state the voice and rate they want on every call rather than assuming
/// the previous caller left them in place.
///
/// espeak-ng is initialised once per process and never terminated: with
/// 1.51, `espeak_ng_Terminate` around a re-initialisation hung for good in
/// the library's internal worker thread (seen while writing these tests). So the first data
/// directory to load successfully is the one the process keeps; asking for a
/// different one afterwards is an error rather than a silent switch.
/// A failed initialisation loads nothing and may be retried.
package enum ESpeakEngine {
    /// What espeak-ng currently has loaded.
    struct State {
        /// `nil` until a successful initialisation.
        var loaded: Loaded?
    }

    package struct Loaded {
        /// The `dataPath` argument it was initialised with (`nil`: espeak-ng's default search).
        package var requestedPath: String?
        /// The data directory espeak-ng actually uses.
        package var resolvedPath: String
        package var sampleRate: Int
        /// The last voice selected, to skip reloading the same voice file.
        package var voice: String?

        /// Whether `path` names the directory already loaded (it or its
        /// `espeak-ng-data` subdirectory, as espeak-ng accepts either).
        package func isLoaded(from path: String) -> Bool {
            let wanted = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
            let loaded = URL(fileURLWithPath: resolvedPath).standardizedFileURL.resolvingSymlinksInPath()
            return wanted == loaded || wanted.appendingPathComponent("espeak-ng-data") == loaded
                || path == requestedPath
        }
    }

    private static let state = Mutex(State())

    /// Runs `body` with espeak-ng initialised, holding the global lock.
    ///
    /// `dataPath == nil` accepts whatever data is loaded (espeak-ng's default
    /// search if nothing is loaded yet).
    package static func withEngine<R: Sendable>(
        dataPath: String?, _ body: (inout Loaded) throws(SpeechError) -> R
    ) throws(SpeechError) -> R {
        try validate(dataPath: dataPath)
        return try state.withLock { (state: inout State) throws(SpeechError) -> R in
            if let loaded = state.loaded {
                if let dataPath, !loaded.isLoaded(from: dataPath) {
                    throw SpeechError(.dataPathConflict(requested: dataPath, loaded: loaded.resolvedPath),
                                      reason: "espeak-ng loads one data directory per process")
                }
            } else {
                state.loaded = try initialize(dataPath: dataPath)
            }
            return try body(&state.loaded!)
        }
    }

    private static func validate(dataPath: String?) throws(SpeechError) {
        guard let dataPath else { return }
        // espeak-ng silently falls back to its built-in path when the one
        // given doesn't exist, which would hide a typo; catch that here.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dataPath, isDirectory: &isDirectory),
              isDirectory.boolValue else {
            throw SpeechError(.initializationFailed(dataPath: dataPath), reason: "no such directory")
        }
    }

    /// Initialises espeak-ng. Only called with the lock held, and only until
    /// it first succeeds.
    private static func initialize(dataPath: String?) throws(SpeechError) -> Loaded {
        espeak_ng_InitializePath(dataPath)
        let resolved = currentDataPath() ?? dataPath ?? "(espeak-ng default)"

        var context: espeak_ng_ERROR_CONTEXT?
        defer { espeak_ng_ClearErrorContext(&context) }
        var status = espeak_ng_Initialize(&context)
        guard status == ENS_OK else {
            throw SpeechError(.initializationFailed(dataPath: resolved), reason: message(for: status))
        }
        // Synchronous mode: espeak_Synth returns only when all audio has been
        // handed to the callback, on this thread, while we hold the lock.
        status = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil)
        guard status == ENS_OK else {
            throw SpeechError(.initializationFailed(dataPath: resolved), reason: message(for: status))
        }
        espeak_SetSynthCallback(collectSamples)
        return Loaded(requestedPath: dataPath, resolvedPath: resolved,
                      sampleRate: Int(espeak_ng_GetSampleRate()), voice: nil)
    }

    /// The data directory espeak-ng resolved (from the argument, `ESPEAK_DATA_PATH`, or its default).
    private static func currentDataPath() -> String? {
        var path: UnsafePointer<CChar>?
        _ = espeak_Info(&path)
        return path.map { String(cString: $0) }
    }

    /// espeak-ng's text for a status code.
    package static func message(for status: espeak_ng_STATUS) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "status \(status.rawValue)" : text
    }
}

extension ESpeakEngine.Loaded {
    /// Selects `voice` (if not already selected) and the speaking rate.
    package mutating func select(voice: String, rate: Int) throws(SpeechError) {
        if self.voice != voice {
            self.voice = nil
            // Same lookup as `espeak-ng -v NAME`: a voice file or voice name
            // ("en-us", "gmw/en-US", "en-us+f3"), else a language ("en-gb").
            var status = espeak_ng_SetVoiceByName(voice)
            if status == ENS_VOICE_NOT_FOUND {
                status = voice.withCString { language in
                    var selector = espeak_VOICE()
                    selector.languages = language
                    return espeak_ng_SetVoiceByProperties(&selector)
                }
            }
            guard status == ENS_OK else {
                if status == ENS_VOICE_NOT_FOUND {
                    throw SpeechError(.unknownVoice(voice), reason: ESpeakEngine.message(for: status))
                }
                throw SpeechError(.synthesisFailed, reason: ESpeakEngine.message(for: status))
            }
            self.voice = voice
        }
        let status = espeak_ng_SetParameter(espeakRATE, Int32(rate), 0)
        guard status == ENS_OK else {
            throw SpeechError(.invalidRate(rate), reason: ESpeakEngine.message(for: status))
        }
    }

    /// Names for every installed (non-MBROLA) voice that `select` accepts.
    package mutating func voiceNames() -> [String] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var candidates: [(language: String, file: String)] = []
        var index = 0
        while let voice = list[index] {
            index += 1
            // `languages` is a sequence of (priority byte, NUL-terminated
            // name) pairs; the first name is the voice's main language.
            guard let languages = voice.pointee.languages, languages[0] != 0,
                  let identifier = voice.pointee.identifier else { continue }
            candidates.append((String(cString: languages + 1), String(cString: identifier)))
        }
        // Check each name really selects (a few language tags, e.g. Cherokee's
        // "chr-US-Qaaa-x-west", don't resolve, even with `espeak-ng -v`).
        var names = Set<String>()
        for candidate in candidates {
            if (try? select(voice: candidate.language, rate: Int(espeakRATE_NORMAL))) != nil {
                names.insert(candidate.language)
            } else if (try? select(voice: candidate.file, rate: Int(espeakRATE_NORMAL))) != nil {
                names.insert(candidate.file)
            }
        }
        return names.sorted()
    }

    /// Synthesises `text` (UTF-8, plain text — no SSML, no phoneme input) with
    /// the selected voice and rate; returns espeak-ng's 16-bit samples.
    package func synthesize(_ text: String) throws(SpeechError) -> [Int16] {
        let collector = SampleCollector()
        // The C callback can't capture Swift context; it finds the collector
        // through the user_data pointer espeak-ng attaches to every event.
        let userData = Unmanaged.passUnretained(collector).toOpaque()
        let status: espeak_ng_STATUS = withExtendedLifetime(collector) {
            text.withCString { cText in
                espeak_ng_Synthesize(cText, text.utf8.count + 1, 0, POS_CHARACTER, 0,
                                     UInt32(espeakCHARS_UTF8), nil, userData)
            }
        }
        guard status == ENS_OK else {
            throw SpeechError(.synthesisFailed, reason: ESpeakEngine.message(for: status))
        }
        return collector.samples
    }
}

/// Where the synthesis callback puts audio; lives for one synthesis call,
/// used only by the thread holding the engine lock.
private final class SampleCollector {
    var samples: [Int16] = []
}

/// espeak-ng's synthesis callback: appends each chunk to the call's collector.
/// Returning 0 tells espeak-ng to continue.
private let collectSamples: @convention(c) (
    UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?
) -> Int32 = { wav, count, events in
    guard let wav, count > 0, let userData = events?.pointee.user_data else { return 0 }
    let collector = Unmanaged<SampleCollector>.fromOpaque(userData).takeUnretainedValue()
    collector.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    return 0
}
