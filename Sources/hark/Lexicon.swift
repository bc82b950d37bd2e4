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

                Examples:
                  hark lexicon MonkeyChat Bobo
                  hark lexicon Bananarific --hint "ba nana ri fic" --json
                """)

        @Argument(help: "Words or names.")
        var words: [String]

        @Option(help: "A pronunciation hint for the words given (a phonetic spelling such as \"list oh mat\").")
        var hint: String?

        @Option(help: "Acoustic model folder (its pronunciation dictionary is used).", completion: .directory)
        var model: String = AcousticModel.defaultDirectory

        @Flag(help: "Print JSON: {words: [{word, variant, phones, source}], hint: {hint, phones, pieces} or null}.")
        var json = false

        struct Report: Encodable {
            struct Entry: Encodable { var word: String; var variant: Int; var phones: [String]; var source: String }
            struct Piece: Encodable { var word: String; var source: String }
            struct Hint: Encodable { var hint: String; var phones: [String]; var pieces: [Piece] }
            var words: [Entry] = []
            var hint: Hint?

            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(words, forKey: .words)
                try c.encode(hint, forKey: .hint)
            }

            enum CodingKeys: String, CodingKey { case words, hint }
        }

        func validate() throws {
            guard !words.isEmpty else { throw ValidationError("give at least one word") }
        }

        func run() async throws {
            try await Self.reportingErrors { try printPhones() }
        }

        func printPhones() throws {
            let lexicon = try Lexicon(contentsOf: try AcousticModel(directory: model).dictionary)
            var missing: [String] = []
            var output = Report()
            for word in words.flatMap({ SpokenForm.words(of: $0) }) {
                guard let pronunciation = lexicon.lookup(word) else {
                    missing.append(word)
                    continue
                }
                for (i, phones) in pronunciation.variants.enumerated() {
                    output.words.append(.init(word: word, variant: i + 1, phones: phones, source: "\(pronunciation.source)"))
                    guard !json else { continue }
                    let name = i == 0 ? word : "\(word)(\(i + 1))"
                    try Output.line("\(name)\t\(phones.joined(separator: " "))\t\(pronunciation.source)")
                }
            }
            if let hint {
                guard let (phones, pieces) = lexicon.pronounce(hint: hint) else {
                    throw CommandFailure(description: "the hint '\(hint)' has a piece that cannot be pronounced")
                }
                output.hint = .init(hint: hint, phones: phones, pieces: pieces.map { .init(word: $0.word, source: "\($0.source)") })
                if !json {
                    let detail = pieces.map { "\($0.word): \($0.source)" }.joined(separator: ", ")
                    try Output.line("\(words.joined(separator: " ")) (hint \"\(hint)\")\t\(phones.joined(separator: " "))\thint (\(detail))")
                }
            }
            if json { try printJSON(output) }
            if !missing.isEmpty {
                throw CommandFailure(description: "no pronunciation for \(missing.map { "'\($0)'" }.joined(separator: ", ")) (is espeak-ng installed?)")
            }
        }
    }
}
