import Foundation

/// One labelled utterance of a benchmark manifest (`audio-fixtures/manifest.jsonl`):
/// the audio, what was said, and what Hark should make of it.
public struct LabelledUtterance: Sendable, Decodable {
    /// Path of the WAV file, resolved against the manifest's folder.
    public var audio: String
    /// The words spoken, when known (for word error rate).
    public var text: String?
    public var app: String?
    /// nil for out-of-grammar audio that must be rejected.
    public var intent: String?
    public var slots: [String: String]
    /// Turns of one conversation share this; they run in `turn` order with one assistant.
    public var conversation: String?
    public var turn: Int?
    /// The manifest's `set` (a group of utterances, e.g. "core"), when it gives one.
    public var set: String?

    enum CodingKeys: String, CodingKey { case audio, text, app, intent, slots, conversation, turn, set }

    public init(audio: String, text: String? = nil, app: String? = nil, intent: String?, slots: [String: String] = [:],
                conversation: String? = nil, turn: Int? = nil, set: String? = nil) {
        self.set = set
        self.audio = audio
        self.text = text
        self.app = app
        self.intent = intent
        self.slots = slots
        self.conversation = conversation
        self.turn = turn
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        audio = try c.decode(String.self, forKey: .audio)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        app = try c.decodeIfPresent(String.self, forKey: .app)
        intent = try c.decodeIfPresent(String.self, forKey: .intent)
        slots = try c.decodeIfPresent([String: String].self, forKey: .slots) ?? [:]
        conversation = try c.decodeIfPresent(String.self, forKey: .conversation)
        turn = try c.decodeIfPresent(Int.self, forKey: .turn)
        set = try c.decodeIfPresent(String.self, forKey: .set)
    }
}

/// Reads benchmark manifests.
public enum Manifest {
    /// Reads a JSON Lines manifest; `audio` paths are made absolute against its folder.
    ///
    /// - Throws: ``BenchError`` naming the file and line at fault.
    public static func load(_ path: String) throws -> [LabelledUtterance] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchError("\(path): cannot read the manifest")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var result: [LabelledUtterance] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                var utterance = try JSONDecoder().decode(LabelledUtterance.self, from: Data(line.utf8))
                if !utterance.audio.hasPrefix("/") { utterance.audio = folder.appendingPathComponent(utterance.audio).path }
                result.append(utterance)
            } catch {
                throw BenchError("\(path):\(number + 1): not a manifest line (\(error)); expected {\"audio\", \"text\", \"app\", \"intent\", \"slots\"}")
            }
        }
        return result
    }
}

/// Reads the speech-to-intent benchmark's label files (Picovoice's format,
/// as in `barista-dev/labels.json`):
/// `{"<file>.wav": {"intent": "orderDrink", "slots": {"size": "large"}}}`.
public enum Labels {
    struct Entry: Decodable {
        var intent: String?
        var slots: [String: String]?
    }

    /// Reads `path`; each file name is resolved against `audioDirectory`.
    /// Utterances come in file-name order. Slot values are kept as written
    /// (scoring trims them); an entry without an intent is audio that must
    /// be rejected.
    ///
    /// - Throws: ``BenchError`` naming the file (and the entry) at fault.
    public static func load(_ path: String, audioDirectory: String) throws -> [LabelledUtterance] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("\(path): cannot read the labels")
        }
        let entries: [String: Entry]
        do {
            entries = try JSONDecoder().decode([String: Entry].self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw BenchError("\(path): not JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription))")
        } catch let DecodingError.typeMismatch(_, context) {
            throw BenchError("\(path): \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription); expected {\"<file>.wav\": {\"intent\": \"...\", \"slots\": {\"name\": \"value\"}}}")
        } catch {
            throw BenchError("\(path): \(error); expected {\"<file>.wav\": {\"intent\": \"...\", \"slots\": {...}}}")
        }
        guard !entries.isEmpty else { throw BenchError("\(path): no labelled files") }
        let folder = URL(fileURLWithPath: audioDirectory)
        return entries.keys.sorted().map { file in
            let entry = entries[file]!
            let audio = file.hasPrefix("/") ? file : folder.appendingPathComponent(file).path
            return LabelledUtterance(audio: audio, intent: entry.intent, slots: entry.slots ?? [:])
        }
    }

    /// Where a labels file's audio is by default: its `audio/` folder when
    /// there is one, else its own folder.
    public static func defaultAudioDirectory(for path: String) -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let audio = folder.appendingPathComponent("audio")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: audio.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return audio.path
        }
        return folder.path
    }
}

/// A benchmark input that cannot be used.
public struct BenchError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
