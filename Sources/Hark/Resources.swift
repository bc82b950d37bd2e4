import Foundation
import HarkRecognition

/// Finds Hark's `models/` folder: `$HARK_MODELS`, `./models`, or the one
/// beside the checkout the executable was built in (`.build/<config>/hark`).
public enum Resources {
    public static func modelsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["HARK_MODELS"], !dir.isEmpty { return dir }
        let fm = FileManager.default
        let cwd = URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("models")
        if fm.fileExists(atPath: cwd.appendingPathComponent("domains").path) { return cwd.path }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("models")
            if fm.fileExists(atPath: candidate.appendingPathComponent("domains").path) { return candidate.path }
            dir.deleteLastPathComponent()
        }
        return cwd.path
    }

    /// The words free-text slots may take, from `models/dictation/words.txt`.
    ///
    /// - Throws: ``RecognitionError`` naming the file when it is missing or malformed.
    public static func dictation(modelsDirectory: String) throws -> DictationVocabulary {
        try DictationVocabulary(contentsOf: (modelsDirectory as NSString).appendingPathComponent("dictation/words.txt"))
    }
}

/// A missing or unreadable resource file.
public struct ResourceError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
