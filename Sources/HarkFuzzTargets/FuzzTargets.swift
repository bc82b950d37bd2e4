import Foundation
import HarkAudio
import HarkCatalog
import HarkGrammar

/// What Hark reads from files other people wrote, as functions of raw bytes:
/// the entry points of the fuzzers (`Fuzz/`, libFuzzer) and of the test that
/// replays their corpora. Each may reject its input with an error; none may
/// crash or hang, whatever the bytes.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `WAVReader`: a WAV file.
    case wav
    /// `AppInfo` and `AppIntentVocabulary`: an `Info.plist` and an
    /// `AppIntentVocabulary.plist` (XML or binary), and `InfoPlist.strings`.
    case plist
    /// `GrammarParser` and `GrammarCompiler`: a `.hark` grammar.
    case grammar
    /// `RhinoImporter`: a Rhino context in YAML, then the grammar it makes.
    case rhino
    /// `TextParser` over the built-in domain grammars: a typed request.
    case text

    /// Runs the target on `bytes`. Errors are the right answer to bad
    /// input and are ignored here.
    public func run(_ bytes: Data) {
        switch self {
        case .wav:
            let path = Self.scratch("input.wav", bytes)
            _ = try? WAVReader.read(contentsOf: path)
        case .plist:
            let path = Self.scratch("Info.plist", bytes)
            _ = try? AppInfo(contentsOf: path)
            _ = try? AppIntentVocabulary(contentsOf: path)
            // The same bytes as the localised names of an app that is otherwise fine.
            _ = try? Catalog.loadApp(folder: Self.appWithStrings(bytes))
        case .grammar:
            let text = String(decoding: bytes, as: UTF8.self)
            if let file = try? GrammarParser.parse(text, path: "fuzz.hark") {
                _ = try? GrammarCompiler.compile([GrammarInstance(app: "Fuzz", grammar: file)], limits: Self.limits)
            }
        case .rhino:
            let text = String(decoding: bytes, as: UTF8.self)
            if let result = try? RhinoImporter.translate(text, path: "fuzz.yaml", limits: Self.limits),
               let file = try? GrammarParser.parse(result.grammar, path: "fuzz.hark") {
                _ = try? GrammarCompiler.compile([GrammarInstance(app: "Fuzz", grammar: file)], limits: Self.limits)
            }
        case .text:
            _ = Self.parser?.parse(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Smaller than ``GrammarLimits/standard`` so that inputs which hit the
    /// size check (self-doubling rules, any-order groups of big lists) take
    /// milliseconds, not a second: the fuzzer reaches the same check more often.
    static let limits = GrammarLimits(maxStates: 20_000, maxArcs: 40_000, maxRuleDepth: 50)

    /// The built-in domain grammars and the sample apps, compiled once:
    /// `HARK_MODELS` (default `models`, from the checkout's root).
    static let parser: TextParser? = {
        let models = ProcessInfo.processInfo.environment["HARK_MODELS"] ?? "models"
        guard let catalog = try? Catalog.load(appsDirectory: models + "/apps", domainsDirectory: models + "/domains"),
              let graph = try? GrammarCompiler.compile(catalog.grammarInstances()) else { return nil }
        return TextParser(graph: graph)
    }()

    /// Writes `bytes` to this process's scratch file `name` and returns its path.
    static func scratch(_ name: String, _ bytes: Data) -> String {
        let path = scratchFolder + "/" + name
        write(bytes, to: path)
        return path
    }

    /// A plain write: no temporary file, rename or fsync (`FileManager.createFile`
    /// does all three, which was half of the plist target's time). The readers
    /// under test see the same bytes either way.
    static func write(_ bytes: Data, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// A scratch app folder with a valid Info.plist and `bytes` as its `en.lproj/InfoPlist.strings`.
    static func appWithStrings(_ bytes: Data) -> String {
        let folder = scratchFolder + "/App"
        try? FileManager.default.createDirectory(atPath: folder + "/en.lproj", withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: folder + "/Info.plist") {
            let info: [String: Any] = ["CFBundleName": "Fuzz", "IntentsSupported": ["INSendMessageIntent"],
                                       "INAlternativeAppNames": [["INAlternativeAppName": "Fuzzy", "INAlternativeAppNamePronunciationHint": "fuzz ee"]]]
            let data = try? PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            _ = FileManager.default.createFile(atPath: folder + "/Info.plist", contents: data)
        }
        write(bytes, to: folder + "/en.lproj/InfoPlist.strings")
        return folder
    }

    static let scratchFolder: String = {
        // Zero-padded, so every run's paths (and the error messages that
        // quote them) have the same length: a seeded run explores the same inputs.
        // In memory (/dev/shm) where the machine has it: every input is written to a file first.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm")
            : FileManager.default.temporaryDirectory
        let folder = base.appendingPathComponent("hark-fuzz-" + String(format: "%010d", Int(getpid()))).path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()
}
