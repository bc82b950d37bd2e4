import ArgumentParser
import Foundation
import HarkGrammar
import HarkRecognition

extension HarkCommand {
    /// `hark lexicon WORD... [--hint "list oh mat"]`: the phones Hark hears a word by.
    struct LexiconCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lexicon",
            abstract: "Print the phones Hark uses for words and names, and where they come from (cmudict, hint, espeak-ng g2p).",
            discussion: """
                Names are split into grammar words as Hark speaks them ("MonkeyChat" is "monkey chat").
                Example: hark lexicon Bananarific --hint "ba nana ri fic"
                """)

        @Argument(help: "Words or names.")
        var words: [String]

        @Option(help: "A pronunciation hint for the words given (a phonetic spelling such as \"list oh mat\").")
        var hint: String?

        @Option(help: "Acoustic model folder (its pronunciation dictionary is used).")
        var model: String = AcousticModel.defaultDirectory

        func validate() throws {
            guard !words.isEmpty else { throw ValidationError("give at least one word") }
        }

        func run() async throws {
            try await Self.reportingErrors { try printPhones() }
        }

        func printPhones() throws {
            let lexicon = try Lexicon(contentsOf: try AcousticModel(directory: model).dictionary)
            var missing: [String] = []
            for word in words.flatMap({ SpokenForm.words(of: $0) }) {
                guard let pronunciation = lexicon.lookup(word) else {
                    missing.append(word)
                    continue
                }
                for (i, phones) in pronunciation.variants.enumerated() {
                    let name = i == 0 ? word : "\(word)(\(i + 1))"
                    try Output.line("\(name)\t\(phones.joined(separator: " "))\t\(pronunciation.source)")
                }
            }
            if let hint {
                guard let (phones, pieces) = lexicon.pronounce(hint: hint) else {
                    throw CommandFailure(description: "the hint '\(hint)' has a piece that cannot be pronounced")
                }
                let detail = pieces.map { "\($0.word): \($0.source)" }.joined(separator: ", ")
                try Output.line("\(words.joined(separator: " ")) (hint \"\(hint)\")\t\(phones.joined(separator: " "))\thint (\(detail))")
            }
            if !missing.isEmpty {
                throw CommandFailure(description: "no pronunciation for \(missing.map { "'\($0)'" }.joined(separator: ", ")) (is espeak-ng installed?)")
            }
        }
    }
}
