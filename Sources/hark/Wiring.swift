import Foundation
import HarkText
import Hark
import HarkAudio
import HarkCatalog
import HarkEngine
import HarkRecognition
import HarkSampleApps
import Logging

/// Builds the assistant the commands share: the installed apps (with the
/// sample apps' code for those of them that are installed, and each app's
/// intents extension), the data folder, the decoder.
enum Wiring {
    /// The recognizer the options ask for: pocketsphinx, with noise
    /// suppression in front of it when `--denoise` turns it on.
    static func decoder(_ options: AssistantOptions) throws -> any SpeechRecognizer {
        let decoder = try PocketSphinxDecoder(model: AcousticModel(directory: options.model),
                                              options: options.recognizerOptions)
        guard options.denoise.enabled else { return decoder }
        do {
            return DenoisingRecognizer(decoder, suppressor: try NoiseSuppressor())
        } catch {
            throw RecognitionError(error.description)
        }
    }

    /// The data folder: `--data-dir`, else `$HARK_DATA_DIR`, `$XDG_DATA_HOME/hark` or `~/.local/share/hark`.
    static func dataDirectory(_ dataDir: String?) -> URL {
        dataDir.map { URL(fileURLWithPath: $0) } ?? AppGroupContainer.defaultDataDirectory()
    }

    /// The builder for these apps, with the sample apps' modules.
    static func builder(apps: String?, domains: String?, dataDirectory: URL, decoder: (any SpeechRecognizer)? = nil,
                        locked: Bool = false, takesUnnamedHeardRequests: Bool = false,
                        configuration: EngineConfiguration = EngineConfiguration()) -> AssistantBuilder {
        var builder = AssistantBuilder(appsDirectory: apps, domainsDirectory: domains, modelsDirectory: Resources.modelsDirectory(),
                                       dataDirectory: dataDirectory, recognizer: decoder, logger: Logger(label: "hark"),
                                       configuration: configuration, locked: locked)
        builder.takesUnnamedHeardRequests = takesUnnamedHeardRequests
        for module in SampleApps.modules { builder.add(module) }
        return builder
    }

    /// The installed apps the options name, started.
    static func installedApps(_ options: AssistantOptions, decoder: (any SpeechRecognizer)? = nil,
                              dataDirectory: URL? = nil) throws -> InstalledApps {
        try builder(apps: options.apps, domains: options.domains,
                    dataDirectory: dataDirectory ?? Self.dataDirectory(options.dataDir),
                    decoder: decoder, locked: options.locked, takesUnnamedHeardRequests: options.takeUnnamedRequests).start()
    }

    /// The assistant, with `decoder` or a new one.
    static func assistant(_ options: AssistantOptions, decoder: (any SpeechRecognizer)? = nil, textOnly: Bool = false,
                          dataDirectory: URL? = nil) throws -> Assistant {
        let decoder = textOnly ? nil : try decoder ?? Self.decoder(options)
        return try installedApps(options, decoder: decoder, dataDirectory: dataDirectory).makeAssistant()
    }
}

extension Turn {
    /// One JSON object on one line.
    var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The terminal card: what was heard, the intent, its fields, the answer.
    /// Text from apps and their stores has its control characters escaped.
    var terminalCard: String {
        let safe = escapingControlCharacters
        var lines = ["heard:  \(heard.isEmpty ? "(nothing)" : safe(heard))" + (audioSeconds > 0 ? String(format: "  (confidence %.2f)", confidence) : "")]
        if let app, let intent { lines.append("intent: \(safe(app)) / \(safe(intent))") }
        if let card {
            lines += card.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + safe(String($0)) }
        } else {
            for (name, value) in slots.sorted(by: { $0.key < $1.key }) { lines.append("  \(safe(name)): \(safe(value))") }
        }
        lines.append("hark:   \(safe(speech))  [\(safe(code))]")
        return lines.joined(separator: "\n")
    }
}
