import Foundation
import HarkRecognition

/// Finds Hark's `models/` folder (apps, domain grammars, dictation words).
///
/// In this order, the first that exists wins:
/// 1. `$HARK_MODELS`, when set (used as given, even if it does not exist, so
///    a wrong value is an error naming it rather than a silent fallback);
/// 2. the installed models, `<prefix>/share/hark/models` for an executable in
///    `<prefix>/bin` (what `make install PREFIX=...` lays out);
/// 3. `./models` in the current directory (a checkout);
/// 4. `models/` in the checkout the executable was built in
///    (`<checkout>/.build/<config>/hark`);
/// and otherwise `./models`, which then fails naming that path.
public enum Resources {
    public static func modelsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       executable: String = CommandLine.arguments[0],
                                       currentDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        if let dir = environment["HARK_MODELS"], !dir.isEmpty { return dir }
        let fm = FileManager.default
        func holdsModels(_ url: URL) -> Bool { fm.fileExists(atPath: url.appendingPathComponent("domains").path) }
        let binary = URL(fileURLWithPath: executable, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true))
            .resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = binary.deletingLastPathComponent().appendingPathComponent("share/hark/models").standardizedFileURL
        if holdsModels(installed) { return installed.path }
        let cwd = URL(fileURLWithPath: currentDirectory).appendingPathComponent("models")
        if holdsModels(cwd) { return cwd.path }
        var dir = binary
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("models")
            if holdsModels(candidate) { return candidate.path }
            dir.deleteLastPathComponent()
        }
        return cwd.path
    }

    /// The words free-text slots may take, from `models/dictation/words.txt`,
    /// those the n-gram pass reads them as, from `reading-words.txt`, and
    /// its pruned language model, `language-model.lm.bin`, when
    /// `scripts/prune-lm.py` has made it (else the acoustic model's own).
    ///
    /// - Throws: ``RecognitionError`` naming the file when it is missing or malformed.
    public static func dictation(modelsDirectory: String) throws -> DictationVocabulary {
        let folder = (modelsDirectory as NSString).appendingPathComponent("dictation")
        var vocabulary = try DictationVocabulary(contentsOf: (folder as NSString).appendingPathComponent("words.txt"))
        try vocabulary.loadReadingWords(contentsOf: (folder as NSString).appendingPathComponent("reading-words.txt"))
        let pruned = (folder as NSString).appendingPathComponent("language-model.lm.bin")
        if FileManager.default.isReadableFile(atPath: pruned) { vocabulary.languageModel = pruned }
        return vocabulary
    }
}

/// A missing or unreadable resource file.
public struct ResourceError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
