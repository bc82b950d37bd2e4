import Foundation
import HarkESpeak
import Synchronization

/// Pronunciations for words no dictionary has ("bobo", "bananarific",
/// "fic"): espeak-ng's letter-to-sound rules, its IPA mapped onto the
/// ARPAbet phones of pocketsphinx's en-us acoustic model.
///
/// Deterministic: the same word always gets the same phones (espeak-ng's
/// rules are fixed for a given espeak-ng version). Results are cached per
/// process.
public final class LetterToSound: Sendable {
    /// The process's converter, with espeak-ng's `en-us` voice.
    public static let shared = LetterToSound()

    /// The espeak-ng voice whose rules are used.
    public let voice: String
    private let cache = Mutex<[String: [String]]>([:])

    public init(voice: String = "en-us") {
        self.voice = voice
    }

    /// The phones of `word`, or nil when espeak-ng gives nothing usable
    /// (no letters, or espeak-ng is missing).
    public func phones(for word: String) -> [String]? {
        let key = word.lowercased()
        if let cached = cache.withLock({ $0[key] }) { return cached.isEmpty ? nil : cached }
        let ipa = (try? ESpeakPhonemes.ipa(key, voice: voice)) ?? ""
        let phones = Self.arpabet(fromIPA: ipa)
        cache.withLock { $0[key] = phones }
        return phones.isEmpty ? nil : phones
    }

    /// The ARPAbet phones (the en-us model's 39, no stress digits) of an
    /// IPA string as espeak-ng writes it: stress and length marks dropped,
    /// diphthongs and affricates read as one phone, a repeated consonant
    /// ("ɹɹ" across espeak-ng's syllable boundary) read once.
    public static func arpabet(fromIPA ipa: String) -> [String] {
        let scalars = Array(ipa.unicodeScalars)
        var phones: [String] = []
        var i = 0
        while i < scalars.count {
            var matched = false
            for length in stride(from: min(maximumSymbolLength, scalars.count - i), through: 1, by: -1) {
                var symbol = String.UnicodeScalarView()
                symbol.append(contentsOf: scalars[i..<(i + length)])
                guard let mapped = ipaToARPAbet[String(symbol)] else { continue }
                for phone in mapped {
                    // "ɜːɹ" is ER, not ER R; "ɹɹ" is one R.
                    if phone == "R", phones.last == "ER" { continue }
                    if let last = phones.last, last == phone, consonants.contains(phone) { continue }
                    phones.append(phone)
                }
                i += length
                matched = true
                break
            }
            // Stress, length, syllable marks, word gaps and anything unknown carry no phone.
            if !matched { i += 1 }
        }
        return phones
    }

    static let consonants: Set<String> = [
        "B", "CH", "D", "DH", "F", "G", "HH", "JH", "K", "L", "M", "N", "NG", "P", "R", "S", "SH", "T", "TH", "V", "W", "Y", "Z", "ZH",
    ]

    /// The en-us model's phones (without SIL): what ``arpabet(fromIPA:)`` may produce.
    public static let modelPhones: Set<String> = consonants.union([
        "AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW",
    ])

    /// espeak-ng's en-us IPA symbols and the ARPAbet phones they stand for.
    /// Longest symbols are tried first.
    static let ipaToARPAbet: [String: [String]] = [
        // Vowels and diphthongs
        "æ": ["AE"], "a": ["AE"], "aɪ": ["AY"], "aɪə": ["AY", "ER"], "aʊ": ["AW"], "aʊə": ["AW", "ER"],
        "ɑ": ["AA"], "ɑː": ["AA"], "ɒ": ["AA"], "ɔ": ["AO"], "ɔː": ["AO"], "ɔɪ": ["OY"],
        "ə": ["AH"], "ɐ": ["AH"], "ʌ": ["AH"], "əl": ["AH", "L"], "ɚ": ["ER"], "ɝ": ["ER"], "ɜ": ["ER"], "ɜː": ["ER"],
        "ɛ": ["EH"], "e": ["EH"], "eɪ": ["EY"], "eə": ["EH", "R"], "ɛɹ": ["EH", "R"],
        "ɪ": ["IH"], "ᵻ": ["IH"], "ɨ": ["IH"], "i": ["IY"], "iː": ["IY"], "iə": ["IY", "ER"], "ɪə": ["IH", "R"],
        "o": ["OW"], "oʊ": ["OW"], "əʊ": ["OW"], "oː": ["AO"],
        "ʊ": ["UH"], "ʊə": ["UH", "R"], "u": ["UW"], "uː": ["UW"], "ʉ": ["UW"],
        // Consonants
        "b": ["B"], "d": ["D"], "f": ["F"], "ɡ": ["G"], "g": ["G"], "h": ["HH"], "k": ["K"], "l": ["L"], "m": ["M"],
        "n": ["N"], "p": ["P"], "s": ["S"], "t": ["T"], "v": ["V"], "w": ["W"], "z": ["Z"],
        "ŋ": ["NG"], "θ": ["TH"], "ð": ["DH"], "ʃ": ["SH"], "ʒ": ["ZH"], "tʃ": ["CH"], "dʒ": ["JH"],
        "ɹ": ["R"], "r": ["R"], "ɾ": ["T"], "ʔ": ["T"], "j": ["Y"], "x": ["K"], "ç": ["HH"], "ʍ": ["W"], "ɬ": ["L"],
        "ɫ": ["L"], "l̩": ["AH", "L"], "n̩": ["AH", "N"], "m̩": ["AH", "M"],
    ]

    /// Every phone the IPA table can produce.
    public static var ipaToARPAbetValues: [String] { ipaToARPAbet.values.flatMap { $0 } }

    static let maximumSymbolLength = ipaToARPAbet.keys.map { $0.unicodeScalars.count }.max() ?? 1
}
