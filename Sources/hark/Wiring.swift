import Foundation
import HarkText
import Hark
import HarkCatalog
import HarkRecognition
import HarkSampleApps
import Logging

/// Builds the assistant the commands share: catalog, sample apps and their
/// vocabulary, decoder.
enum Wiring {
    /// The recognizer the options ask for.
    static func decoder(_ options: AssistantOptions) throws -> PocketSphinxDecoder {
        try PocketSphinxDecoder(model: AcousticModel(directory: options.model),
                                options: options.recognizerOptions)
    }

    /// The assistant, with `decoder` or a new one.
    static func assistant(_ options: AssistantOptions, decoder: PocketSphinxDecoder? = nil, textOnly: Bool = false,
                          dataDirectory: URL? = nil) throws -> Assistant {
        let decoder = textOnly ? nil : try decoder ?? Self.decoder(options)
        return try SampleApps.assistant(
            modelsDirectory: Resources.modelsDirectory(), appsDirectory: options.apps, domainsDirectory: options.domains,
            dataDirectory: dataDirectory ?? options.dataDir.map { URL(fileURLWithPath: $0) } ?? AppGroupContainer.defaultDataDirectory(),
            decoder: decoder, locked: options.locked)
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
