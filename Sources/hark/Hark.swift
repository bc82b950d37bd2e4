import ArgumentParser
import HarkAllocator
import Foundation
import HarkText
#if canImport(Glibc)
import Glibc
#endif
import Hark
import HarkAudio
import HarkRecognition
import HarkSpeech
import Logging

/// `hark`: offline speech-to-intent, the SiriKit way.
@main
struct HarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hark",
        abstract: "Offline speech-to-intent: speak to an app by name, Hark runs its intent.",
        discussion: """
            Examples:
              hark replay audio-fixtures/flite-rms/monkeychat-send-bobo-bananas.wav audio-fixtures/flite-rms/answer-yes-send-it.wav
              printf 'Send a MonkeyChat message to Bobo saying hello\\nyes\\n' | hark converse
              hark domains --intent INSendMessageIntent

            Models (apps, domain grammars, dictation words) are found in $HARK_MODELS, else <prefix>/share/hark/models beside the installed executable, else ./models. See `man hark` and `hark help <subcommand>`.
            """,
        version: HarkVersion.number,
        subcommands: [Replay.self, Listen.self, Converse.self, Apps.self, DomainsCommand.self, Say.self, AudioInfo.self,
                      BenchCommand.self, Import.self, Export.self, LexiconCommand.self, Vocab.self, Serve.self]
    )

    static func main() async {
        Output.holdStandardDescriptors()
        Suggestions.checkSubcommand(of: Self.self, in: Array(CommandLine.arguments.dropFirst()))
        await main(nil)
    }
}

/// Options every command that runs the assistant shares.
struct AssistantOptions: ParsableArguments {
    @Option(help: "Acoustic model folder.", completion: .directory)
    var model: String = AcousticModel.defaultDirectory

    @Option(help: "Folder of installed apps (one folder per app with an Info.plist).", completion: .directory)
    var apps: String?

    @Option(help: "Folder of built-in domain grammars (*.hark).", completion: .directory)
    var domains: String?

    @Option(help: "Where the apps keep their data (default: $HARK_DATA_DIR, $XDG_DATA_HOME/hark or ~/.local/share/hark).",
            completion: .directory)
    var dataDir: String?

    @Option(name: .customLong("decoder-option"), help: ArgumentHelp("A pocketsphinx setting as NAME=VALUE (e.g. lw=8); repeatable.", valueName: "name=value"))
    var decoderOptions: [String] = []

    @Option(help: ArgumentHelp("Out-of-grammar rejection: the garbage loop's probability per phone; higher rejects more, 'off' accepts the nearest sentence.", valueName: "penalty|off"),
            completion: .list(["off", String(DecoderOptions.defaultRejectionPhonePenalty)]))
    var rejection: String = String(DecoderOptions.defaultRejectionPhonePenalty)

    @Option(help: ArgumentHelp("Reject what is heard with less confidence than this (0...1; 0 keeps everything).", valueName: "confidence"))
    var minConfidence: Double = DecoderOptions.defaultMinimumConfidence

    @Option(help: ArgumentHelp("Reject a request with free text (a message, a note) heard with less confidence than this in the words around the free text (0...1; used only when --min-confidence is above 0).", valueName: "confidence"))
    var minFreeTextConfidence: Double = DecoderOptions.defaultMinimumFreeTextConfidence

    @Option(help: ArgumentHelp("With several apps installed, reject a request that names no app heard with less confidence than this (0...1; used only when --min-confidence is above 0).", valueName: "confidence"))
    var minUnnamedConfidence: Double = DecoderOptions.defaultMinimumUnnamedConfidence

    @Option(help: ArgumentHelp("Reject a request that names its app and ends in free text taking 30% or more of its time, heard with less confidence than this in the words around the free text (0...1; used only when --min-confidence is above 0).", valueName: "confidence"))
    var minNamedFreeTextConfidence: Double = DecoderOptions.defaultMinimumNamedFreeTextConfidence

    @Option(help: ArgumentHelp("Reject a request whose app's name is heard with a pause longer than this inside it, in seconds ('monkey … ride'), or 'off'.", valueName: "seconds"))
    var maxPauseInAppName: String = String(DecoderOptions.defaultMaximumPauseInAppName)

    @Flag(help: "Keep a reading forced onto speech it does not fit: a carrier squeezed to its shortest before free text, or most of the grammar's words unlike the audio (rejected by default when --min-confidence is above 0).")
    var keepForcedReadings = false

    @Option(help: ArgumentHelp("Reject a reading that the dictation, free to hear any words, explains better than the grammar's path by more than this many nats of acoustic score per frame, or 'off' (used only when an app has free text and --min-confidence is above 0).", valueName: "nats"))
    var maxDictationLead: String = String(DecoderOptions.defaultMaximumDictationLead)

    @Option(help: ArgumentHelp("While listening, free text at the end of a sentence reads as finished (ended after --free-text-end-silence) when the dictation's language model gives the sentence's end after its last two words at least this probability (0...1; 1 never).", valueName: "probability"))
    var freeTextEndProbability: Double = DecoderOptions.defaultFreeTextEndProbability

    @Option(help: "Noise suppression before decoding: 'auto' uses RNNoise when it can be loaded and warns once when not; 'rnnoise' requires it ($HARK_RNNOISE_LIBRARY names another build); 'off'.")
    var denoise: Denoise = .auto

    @Flag(name: .shortAndLong, help: "Log what each stage does to standard error.")
    var verbose = false

    @Flag(help: "Behave as on a locked device: payments, rides and the apps' IntentsRestrictedWhileLocked are refused.")
    var locked = false

    @Flag(help: "With several apps installed, take a heard request that names no app (by default Hark asks for the app's name; typed requests are always taken).")
    var takeUnnamedRequests = false
}

/// `--denoise`: noise suppression in front of the recognizer.
enum Denoise: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, rnnoise, off

    /// Whether RNNoise runs: `auto` probes for the library once per process
    /// and, when it cannot be loaded, warns once on standard error and goes
    /// on without it.
    var enabled: Bool {
        switch self {
        case .rnnoise: true
        case .off: false
        case .auto: Self.rnnoiseAvailable
        }
    }

    /// Loads RNNoise once (a global's initialiser runs once, thread-safely).
    private static let rnnoiseAvailable: Bool = {
        do {
            _ = try NoiseSuppressor()
            return true
        } catch {
            let message = String(describing: error).split(separator: "\n").joined(separator: " ")
            FileHandle.standardError.write(Data("hark: warning: decoding without noise suppression (--denoise auto): \(message)\n".utf8))
            return false
        }
    }()
}

extension AssistantOptions {
    func validate() throws {
        for option in decoderOptions where !option.contains("=") {
            throw ValidationError("--decoder-option takes NAME=VALUE, got '\(option)'")
        }
        guard (0...1).contains(minConfidence) else {
            throw ValidationError("--min-confidence takes a number from 0 to 1 (e.g. 0.12), got \(minConfidence)")
        }
        guard (0...1).contains(minFreeTextConfidence) else {
            throw ValidationError("--min-free-text-confidence takes a number from 0 to 1 (e.g. 0.55), got \(minFreeTextConfidence)")
        }
        guard (0...1).contains(minUnnamedConfidence) else {
            throw ValidationError("--min-unnamed-confidence takes a number from 0 to 1 (e.g. 0.45), got \(minUnnamedConfidence)")
        }
        guard (0...1).contains(minNamedFreeTextConfidence) else {
            throw ValidationError("--min-named-free-text-confidence takes a number from 0 to 1 (e.g. 0.45), got \(minNamedFreeTextConfidence)")
        }
        if maxPauseInAppName != "off" {
            guard let seconds = Double(maxPauseInAppName), seconds >= 0, seconds.isFinite else {
                throw ValidationError("--max-pause-in-app-name takes seconds (e.g. 0.1) or 'off', got '\(maxPauseInAppName)'")
            }
        }
        if maxDictationLead != "off" {
            guard let nats = Double(maxDictationLead), nats.isFinite else {
                throw ValidationError("--max-dictation-lead takes nats per frame (e.g. 0.5) or 'off', got '\(maxDictationLead)'")
            }
        }
        guard (0...1).contains(freeTextEndProbability) else {
            throw ValidationError("--free-text-end-probability takes a number from 0 to 1 (e.g. 0.06), got \(freeTextEndProbability)")
        }
        if rejection != "off" {
            guard let p = Double(rejection), p > 0, p < 1 else {
                throw ValidationError("--rejection takes a probability between 0 and 1 (e.g. 1e-8) or 'off', got '\(rejection)'")
            }
        }
    }

    /// The recognizer settings these options give.
    var recognizerOptions: DecoderOptions {
        DecoderOptions(arguments: decoderArguments, rejectionPhonePenalty: rejection == "off" ? nil : Double(rejection),
                       minimumConfidence: minConfidence,
                       minimumFreeTextConfidence: minFreeTextConfidence,
                       minimumUnnamedConfidence: minUnnamedConfidence,
                       minimumNamedFreeTextConfidence: minNamedFreeTextConfidence,
                       maximumPauseInAppName: maxPauseInAppName == "off" ? nil : Double(maxPauseInAppName),
                       freeTextEndProbability: freeTextEndProbability,
                       rejectsForcedReadings: !keepForcedReadings,
                       maximumDictationLead: maxDictationLead == "off" ? nil : Double(maxDictationLead))
    }

    /// The `--decoder-option` settings as pocketsphinx arguments.
    var decoderArguments: [String: String] {
        Dictionary(decoderOptions.map { option in
            let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }, uniquingKeysWith: { _, last in last })
    }
}

/// Options for Hark's voice.
struct VoiceOptions: ParsableArguments {
    @Option(help: "espeak-ng voice (see `hark say --list-voices`).",
            completion: .custom { _, _, _ in ESpeakSynthesizer.availableVoices() })
    var voice: String = "en-us"

    @Option(help: "Speaking rate in words per minute.")
    var rate: Int = 175

    func validate() throws {
        guard (80...450).contains(rate) else { throw ValidationError("--rate must be between 80 and 450 words per minute") }
    }
}

/// A one-line error for the person at the terminal, then a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}

extension ParsableCommand {
    /// Runs `body`, turning any library error into `hark: error: <one line>` and exit 1.
    static func reportingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            // One line whatever the error holds: control characters from
            // file names and file contents are shown escaped.
            let message = escapingControlCharacters(String(describing: error))
            FileHandle.standardError.write(Data("hark: error: \(message)\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// Logging to standard error: warnings, everything down to debug with
/// `--verbose`, or the level `HARK_LOG_LEVEL` names (`trace` adds each
/// endpointing decision of `hark listen` and `hark bench --streaming`).
func bootstrapLogging(verbose: Bool) {
    let named = ProcessInfo.processInfo.environment["HARK_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = named ?? (verbose ? .debug : .warning)
        return handler
    }
    // The tool's malloc (Sources/HarkAllocator): what memory figures are measured with.
    Logger(label: "hark").debug("malloc", metadata: [
        "malloc": "\(hark_allocator_version().map { "jemalloc " + String(cString: $0) } ?? "not jemalloc")",
        "malloc.options": "\(String(cString: hark_allocator_options()))"])
}

/// Prints `value` as one line of JSON (keys sorted, so output is stable).
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    try Output.line(String(decoding: try encoder.encode(value), as: UTF8.self))
}
