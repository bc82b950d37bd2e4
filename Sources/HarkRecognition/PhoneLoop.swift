/// Phone loops: the cheap stand-ins for "any speech" in the first pass.
///
/// A free-text slot in the grammar search is a loop over one pseudo-word
/// per phone of the acoustic model, each paying a penalty. It finds where
/// the free text starts and ends without searching a dictation vocabulary;
/// the n-gram pass then reads those seconds of audio as words. The same
/// loop, with its own word names, is the garbage branch that rejects speech
/// no grammar covers: a sentence is accepted only when a grammar path beats
/// "any phones at all" plus the rejection penalty per phone.
enum PhoneLoop {
    /// The en-us model's context-independent speech phones (CMU ARPAbet).
    static let phones = [
        "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH", "IH", "IY",
        "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T", "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH",
    ]

    /// What a phone pseudo-word stands for.
    enum Kind: String, CaseIterable {
        /// Inside a free-text slot.
        case dictation = "+hark_text_"
        /// The garbage branch: out-of-grammar speech.
        case garbage = "+hark_garbage_"
    }

    /// The pseudo-word for `phone` in a loop of `kind`.
    static func word(_ phone: String, _ kind: Kind) -> String { kind.rawValue + phone.lowercased() }

    /// Which loop a decoded token belongs to, if it is a phone pseudo-word.
    static func kind(of token: String) -> Kind? {
        Kind.allCases.first { token.hasPrefix($0.rawValue) }
    }
}
