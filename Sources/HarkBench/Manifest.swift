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

    enum CodingKeys: String, CodingKey { case audio, text, app, intent, slots, conversation, turn }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        audio = try c.decode(String.self, forKey: .audio)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        app = try c.decodeIfPresent(String.self, forKey: .app)
        intent = try c.decodeIfPresent(String.self, forKey: .intent)
        slots = try c.decodeIfPresent([String: String].self, forKey: .slots) ?? [:]
        conversation = try c.decodeIfPresent(String.self, forKey: .conversation)
        turn = try c.decodeIfPresent(Int.self, forKey: .turn)
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

/// A benchmark input that cannot be used.
public struct BenchError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
