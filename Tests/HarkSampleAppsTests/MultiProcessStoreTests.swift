import Foundation
import HarkCatalog
import HarkSampleApps
import HarkTestSupport
import Synchronization
import Testing

/// Several processes on one data directory (two `hark converse`, `hark
/// vocab` beside a running `hark listen`) never lose each other's writes:
/// every store takes an advisory lock beside its file and re-reads the file
/// before changing it. The eggs/bread case, with real processes.
@Suite("Stores shared by several processes")
struct MultiProcessStoreTests {
    static let writers = ["a", "b", "c", "d"]
    static let writesEach = 25

    /// Starts `hark-store-stress --concurrent` for every writer at once and waits for all.
    func runWriters(_ data: URL) throws -> [String: ProcessOutput] {
        let results = Mutex<[String: ProcessOutput]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: Self.writers.count) { i in
            let writer = Self.writers[i]
            do {
                let result = try ProcessRunner.run(CrashSafetyTests.stress, ["--concurrent", data.path, writer, String(Self.writesEach)])
                results.withLock { $0[writer] = result }
            } catch {
                failures.withLock { $0.append("\(writer): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        return results.withLock { $0 }
    }

    @Test("4 processes × 25 writes each to the message, list, vocabulary and authorization stores: all 100 in every store")
    func concurrentWriters() async throws {
        let data = try temporaryDirectory("shared").appendingPathComponent("data")
        // A reader in this process, opened before the writers start.
        let lists = try NotebookStore(container: AppGroupContainer(dataDirectory: data, group: ListOMat.group), initial: ListOMat.initial)
        let results = try runWriters(data)
        for writer in Self.writers {
            let result = try #require(results[writer])
            #expect(result.status == 0, "writer \(writer) failed: \(result.err)")
            #expect(result.out.split(separator: "\n").count == Self.writesEach, "writer \(writer) acknowledged: \(result.out)")
        }
        let tags = Self.writers.flatMap { writer in (0..<Self.writesEach).map { "\(writer)-\($0)" } }

        let chat = try MonkeyChat.Store(container: AppGroupContainer(dataDirectory: data, group: MonkeyChat.group))
        let sent = Set(await chat.sentMessages().map(\.content))
        #expect(tags.filter { !sent.contains($0) } == [], "messages lost")

        // The reader opened before the writes sees them (it re-reads a file another process replaced).
        let grocery = await lists.notebook.lists.first { $0.title == "Grocery" }
        let items = Set(try #require(grocery).tasks.map(\.title))
        #expect(tags.filter { !items.contains("item \($0)") } == [], "list items lost")
        #expect(items.isSuperset(of: ["apples", "bananas"]), "the list's first items are kept")

        let contacts = Set(try UserVocabularyStore(dataDirectory: data).vocabulary(app: "MonkeyChat")["contactName"] ?? [])
        #expect(tags.filter { !contacts.contains("Contact \($0)") } == [], "vocabulary lost")

        let statuses = try AuthorizationStore(dataDirectory: data).statuses()
        #expect(tags.filter { statuses["App-\($0)"] != .authorized } == [], "authorizations lost")
    }

    @Test("eggs and bread: three `hark converse` processes adding to one grocery list keep every item")
    func eggsAndBread() throws {
        let converse = try Converse()
        let shoppers = ["eggs", "bread", "milk"]
        let sizes = ["small", "large", "brown", "fresh"]
        let outputs = Mutex<[String: (status: Int32, out: String, err: String)]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: shoppers.count) { i in
            let food = shoppers[i]
            let turns = sizes.map { "add \($0) \(food) to my grocery list in ListOMat" }
            do {
                let result = try runHark(["converse", "--json", "--apps", converse.apps.path, "--data-dir", converse.data.path],
                                         input: turns.joined(separator: "\n") + "\n")
                outputs.withLock { $0[food] = result }
            } catch {
                failures.withLock { $0.append("\(food): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        for food in shoppers {
            let result = try #require(outputs.withLock { $0[food] })
            #expect(result.status == 0, "\(food): \(result.err)")
            let codes = try result.out.split(separator: "\n").map { try JSONDecoder().decode(ConverseTurn.self, from: Data($0.utf8)).code }
            #expect(codes == Array(repeating: "success", count: sizes.count), "\(food): \(result.out) \(result.err)")
        }
        let book = try #require(try converse.read(group: ListOMat.group, file: "notebook.json") as? [String: Any])
        let lists = try #require(book["lists"] as? [[String: Any]])
        let grocery = try #require(lists.first { $0["title"] as? String == "Grocery" })
        let titles = Set((grocery["tasks"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String })
        let wanted = shoppers.flatMap { food in sizes.map { "\($0) \(food)" } }
        #expect(wanted.filter { !titles.contains($0) } == [], "items lost from the grocery list: \(titles.sorted())")
    }
}
