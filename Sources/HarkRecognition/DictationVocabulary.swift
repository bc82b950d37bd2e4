import Foundation

/// The words a free-text slot may take, each with its unigram probability,
/// so that the grammar's dictation loop prefers common words as an n-gram
/// model would.
public struct DictationVocabulary: Sendable, Equatable {
    /// log10 probability of each word.
    public private(set) var logProbabilities: [String: Double]

    /// The probability given to words added from the apps' vocabulary,
    /// that of a moderately common word.
    public static let addedWordLogProbability = -4.0

    /// A factor on every dictated word's probability: a word the grammar
    /// names is surer than one the dictation loop guesses, so the loop does
    /// not swallow grammar words ("bobo the great") or insert short ones.
    ///
    /// Chosen by measurement over the audio fixtures (see docs/measurements.md, "Tuning"):
    /// 1e-5 got every recipient right and the lowest free-text word error
    /// rate of 1, 0.1, 0.01, 1e-3, 1e-4 and 1e-5.
    public var wordPenalty: Double = 1e-5

    /// The words the n-gram pass may read free text as, most frequent
    /// first (`models/dictation/reading-words.txt`: the 72,138 words of the
    /// n-gram model the pronunciation dictionary has); with ``words`` and
    /// the grammar's, they make the n-gram decoder's dictionary. Empty: the
    /// whole pronunciation dictionary (135,000 words, most of which the
    /// n-gram model does not have).
    public var readingWords: [String] = []

    /// How many of ``readingWords`` the n-gram pass knows (the most
    /// frequent; the dictation words and the grammar's are known besides);
    /// nil: all.
    public var readingVocabularySize: Int? = DictationVocabulary.defaultReadingVocabularySize

    /// The n-gram pass's words by default: the 31,000 most frequent of the
    /// n-gram model's 72,138. Measured (docs/measurements.md, "Memory"):
    /// 40,000 had `hark listen` with every sample app 18 MB smaller than
    /// all 72,138, with free text read as well; 31,000 took 5 MB more off
    /// every utterance (no fixture's `hark listen` over 128 MB, clean or in
    /// noise, against 39 of 105 in noise with 40,000), every fixture
    /// understood as before and free text's word error no worse. 30,000
    /// lost a fixture ("… to say see you soon" heard "… and see you soon"),
    /// pruning luck as "pears" was at 40,000 (with every word and no cap on
    /// active HMMs, `-maxhmmpf -1`, it is "paris"). The first 10,000 saved
    /// more but changed more free text.
    public static let defaultReadingVocabularySize = 31_000

    /// The n-gram language model the n-gram pass reads free text with, in
    /// place of the acoustic model's own (``AcousticModel/languageModel``):
    /// `models/dictation/language-model.lm.bin`, which `scripts/prune-lm.py`
    /// (run by `scripts/setup.sh`) makes from Debian's by relative-entropy
    /// pruning — 1,315,153 of its 2,051,547 bigrams and 1,015,516 of its
    /// 1,669,625 trigrams, 9 MB less resident, every fixture read as before
    /// (docs/measurements.md, "Memory") — and keeps of only the words this pass knows
    /// (``defaultReadingVocabularySize`` and the dictation words, 31,002 of
    /// 72,547 with the sentence markers: 1,232,770 bigrams and 1,007,873
    /// trigrams, 16.0 MB). nil: the acoustic model's.
    public var languageModel: String?

    public init(logProbabilities: [String: Double] = [:]) {
        self.logProbabilities = logProbabilities
    }

    /// Reads ``readingWords``, one word a line, most frequent first: the
    /// first ``readingVocabularySize`` of them (set it before), which are
    /// all the n-gram pass knows and all its pruned model holds.
    ///
    /// - Throws: ``RecognitionError`` naming the file when it cannot be read.
    public mutating func loadReadingWords(contentsOf path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw RecognitionError("\(path): cannot read the n-gram pass's word list (regenerate it with scripts/make-dictation-vocabulary.sh)")
        }
        readingWords = text.split(whereSeparator: \.isNewline).prefix(readingVocabularySize ?? .max).map(String.init)
    }

    /// Reads `word<TAB>log10 probability` lines (`models/dictation/words.txt`).
    ///
    /// - Throws: ``RecognitionError`` naming the file and line at fault.
    public init(contentsOf path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw RecognitionError("\(path): cannot read the dictation vocabulary (regenerate it with scripts/make-dictation-vocabulary.sh)")
        }
        var result: [String: Double] = [:]
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            let fields = line.split(separator: "\t")
            guard fields.count == 2, let logp = Double(fields[1]), logp <= 0 else {
                throw RecognitionError("\(path):\(i + 1): expected 'word<TAB>log10 probability', found '\(line.prefix(60))'")
            }
            result[String(fields[0])] = logp
        }
        logProbabilities = result
    }

    /// Adds words (the apps' own) that are not in the vocabulary yet.
    public mutating func add(_ words: some Sequence<String>) {
        for word in words where logProbabilities[word] == nil {
            logProbabilities[word] = Self.addedWordLogProbability
        }
    }

    public var words: [String] { logProbabilities.keys.sorted() }

    /// Each word's probability among these words (they sum to 1), sorted by word.
    func normalized() -> [(word: String, probability: Double)] {
        let total = logProbabilities.values.reduce(0) { $0 + pow(10, $1) }
        return words.map { ($0, wordPenalty * pow(10, logProbabilities[$0]!) / total) }
    }
}
