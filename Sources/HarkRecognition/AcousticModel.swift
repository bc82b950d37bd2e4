import Foundation

/// Where the acoustic model, pronunciation dictionary and n-gram language
/// model are on disk.
public struct AcousticModel: Sendable, Equatable {
    /// Debian's `pocketsphinx-en-us` model folder.
    public static let defaultDirectory = "/usr/share/pocketsphinx/model/en-us"

    /// The acoustic model folder (holds `mdef`).
    public var acousticModel: String
    /// The pronunciation dictionary (CMU format).
    public var dictionary: String
    /// The general n-gram language model, when present.
    public var languageModel: String?
    /// The phone n-gram model (`en-us-phone.lm.bin`), when present: the
    /// yardstick of a word's confidence (see ``PocketSphinxDecoder``).
    public var phoneLanguageModel: String?

    static let requiredFiles = ["mdef", "means", "variances", "transition_matrices"]

    /// Finds the model files under `directory`.
    ///
    /// `directory` may be the acoustic model folder itself, or a folder like
    /// Debian's `model/en-us` holding it (`en-us/`) beside
    /// `cmudict-en-us.dict` and `en-us.lm.bin`.
    ///
    /// - Throws: ``RecognitionError`` naming the folder and what is missing.
    public init(directory: String = AcousticModel.defaultDirectory) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RecognitionError.missingModel(directory, "no such directory")
        }
        let url = URL(fileURLWithPath: directory)
        let candidates = [url, url.appendingPathComponent("en-us")]
        guard let hmm = candidates.first(where: { fm.fileExists(atPath: $0.appendingPathComponent("mdef").path) }) else {
            throw RecognitionError.missingModel(directory, "no 'mdef' in it or in its 'en-us' folder")
        }
        for file in Self.requiredFiles where !fm.isReadableFile(atPath: hmm.appendingPathComponent(file).path) {
            throw RecognitionError.missingModel(hmm.path, "'\(file)' is missing or unreadable")
        }
        // The dictionary sits in the acoustic model folder or beside it.
        let searchDirs = [hmm, hmm.deletingLastPathComponent()]
        func find(_ suffix: String, preferring preferred: String) -> String? {
            for dir in searchDirs {
                let exact = dir.appendingPathComponent(preferred)
                if fm.isReadableFile(atPath: exact.path) { return exact.path }
                if let names = try? fm.contentsOfDirectory(atPath: dir.path).sorted(),
                   let name = names.first(where: { $0.hasSuffix(suffix) }) {
                    return dir.appendingPathComponent(name).path
                }
            }
            return nil
        }
        guard let dict = find(".dict", preferring: "cmudict-en-us.dict") else {
            throw RecognitionError.missingModel(directory, "no pronunciation dictionary (*.dict) in '\(hmm.path)' or beside it")
        }
        acousticModel = hmm.path
        dictionary = dict
        let phoneModels = searchDirs.map { $0.appendingPathComponent("en-us-phone.lm.bin").path }
        phoneLanguageModel = phoneModels.first(where: { fm.isReadableFile(atPath: $0) })
        languageModel = find(".lm.bin", preferring: "en-us.lm.bin")
    }
}
