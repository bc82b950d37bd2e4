import CESpeakNG
import Foundation

/// espeak-ng's letter-to-sound rules, for words no pronunciation dictionary
/// has: the phonemes espeak-ng would speak for a text, in IPA.
public enum ESpeakPhonemes {
    /// The IPA phonemes of `text` as `voice` would say it, words separated
    /// by spaces, stress marks included (`"bananarific"` → `"bˌænɐnɑːɹɹˈɪfɪk"`).
    ///
    /// Runs under espeak-ng's process-wide lock, shared with synthesis.
    ///
    /// - Throws: ``SpeechError`` when espeak-ng cannot start or has no such voice.
    public static func ipa(_ text: String, voice: String = "en-us") throws(SpeechError) -> String {
        try ESpeakEngine.withEngine(dataPath: nil) { (engine: inout ESpeakEngine.Loaded) throws(SpeechError) -> String in
            try engine.select(voice: voice, rate: Int(espeakRATE_NORMAL))
            var pieces: [String] = []
            text.withCString { cText in
                var pointer: UnsafeRawPointer? = UnsafeRawPointer(cText)
                // One call per clause; espeak-ng sets the pointer to NULL at the end.
                while let current = pointer {
                    var textPointer: UnsafeRawPointer? = current
                    let phonemes = espeak_TextToPhonemes(&textPointer, Int32(espeakCHARS_UTF8), 0x02 /* IPA */)
                    if let phonemes { pieces.append(String(cString: phonemes)) }
                    if textPointer == current { break }
                    pointer = textPointer
                }
            }
            return pieces.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        }
    }
}
