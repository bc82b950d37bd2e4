import Foundation
import HarkCatalog
import HarkSampleApps
import Testing

/// The data the apps and the user keep survives the process being killed
/// at any moment: `hark-store-stress` makes 1,000 numbered writes to
/// MonkeyChat's message store and to the user-vocabulary store, printing
/// "ack N" once both are on disk; this test kills it with SIGKILL at
/// random (seeded) moments and starts it again after the last
/// acknowledged write until all 1,000 are acknowledged.
@Suite("Crash safety: SIGKILL during writes")
struct CrashSafetyTests {
    static var stress: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hark-store-stress").path
    }

    /// Runs the writer from `from`, kills it after `delay` (nil: lets it
    /// finish); returns the acknowledged numbers it printed.
    func run(_ data: URL, from: Int, count: Int, killAfter delay: Duration?) throws -> [Int] {
        let out = data.deletingLastPathComponent().appendingPathComponent("acks-\(UUID().uuidString)")
        try #require(FileManager.default.createFile(atPath: out.path, contents: nil))
        let handle = try FileHandle(forWritingTo: out)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.stress)
        process.arguments = [data.path, String(from), String(count)]
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let delay {
            Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) * 1e-18 + Double(delay.components.seconds))
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try handle.close()
        let text = try String(contentsOf: out, encoding: .utf8)
        // A line cut short by the kill has no newline yet: only whole lines count.
        let whole = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex)])
        return whole.split(separator: "\n").compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
    }

    @Test("every acknowledged write of 1,000 is there after random SIGKILLs, and every file reads")
    func killedAtRandom() async throws {
        let data = try temporaryDirectory("crash").appendingPathComponent("data")
        let total = 1000
        var generator = SystemRandomNumberGenerator.seeded(20261123)
        var acknowledged = Set<Int>()
        var next = 0, kills = 0, stalled = 0
        while next < total, kills < 400, stalled < 20 {
            let delay = Duration.milliseconds(Int.random(in: 30...250, using: &generator))
            let acks = try run(data, from: next, count: total, killAfter: delay)
            kills += 1
            acknowledged.formUnion(acks)
            if let last = acks.last { next = last + 1; stalled = 0 } else { stalled += 1 }
        }
        if next < total { acknowledged.formUnion(try run(data, from: next, count: total, killAfter: nil)) }
        let unacknowledged = (0..<total).filter { !acknowledged.contains($0) }
        #expect(unacknowledged.isEmpty, "\(unacknowledged.count) writes never acknowledged, from \(unacknowledged.first ?? 0): the writer could not go on")
        #expect(kills >= 10, "the writer was killed only \(kills) times")

        // Nothing is corrupt: both stores open, and every acknowledged write is in them.
        let chat = try MonkeyChat.Store(container: AppGroupContainer(dataDirectory: data, group: MonkeyChat.group))
        let sent = Set(await chat.sentMessages().map(\.content))
        let missingMessages = (0..<total).filter { !sent.contains("banana \($0)") }
        #expect(missingMessages.isEmpty, "messages lost: \(missingMessages.prefix(10))")
        let contacts = Set(try UserVocabularyStore(dataDirectory: data).vocabulary(app: "MonkeyChat")["contactName"] ?? [])
        let missingContacts = (0..<total).filter { !contacts.contains("Contact \($0)") }
        #expect(missingContacts.isEmpty, "vocabulary lost: \(missingContacts.prefix(10))")
        print("crash safety: \(total) acknowledged writes to each store, \(kills) SIGKILLs, nothing lost or corrupt")
    }
}

extension SystemRandomNumberGenerator {
    /// A seeded generator (SplitMix64), so the kill moments repeat.
    static func seeded(_ seed: UInt64) -> SeededGenerator { SeededGenerator(state: seed) }
}

struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
