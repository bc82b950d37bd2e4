import Foundation
import HarkCatalog
import Testing
import HarkTestSupport

@Suite("Authorizations store")
struct AuthorizationStoreTests {
    func folder() throws -> URL {
        try Scratch.directory("auth")
    }

    @Test("decisions persist, and the first run's preauthorized apps are authorized")
    func persists() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try AuthorizationStore(dataDirectory: dir, preauthorized: ["MonkeyChat"])
        try store.set(.denied, for: "MonkeyPay")
        let again = try AuthorizationStore(dataDirectory: dir, preauthorized: ["MonkeyPay"])
        #expect(try again.isAuthorized("MonkeyChat"))
        #expect(try !again.isAuthorized("MonkeyPay"), "preauthorization applies only when the store is created")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("a store that exists but cannot be read is an error naming it, never taken for empty and overwritten")
    func unreadable() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A folder where the file should be: unreadable as a file, even for root.
        let file = dir.appendingPathComponent("authorizations.json")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(at: file.appendingPathComponent("keep"), withIntermediateDirectories: false)
        let store = try AuthorizationStore(dataDirectory: dir)
        #expect(throws: DataFileError.self) { try store.isAuthorized("MonkeyChat") }
        do {
            try store.set(.authorized, for: "MonkeyChat")
            Issue.record("set should have failed")
        } catch let error as DataFileError {
            #expect(error.description.contains(file.path))
            #expect(error.description.contains("cannot read"))
        }
        #expect(FileManager.default.fileExists(atPath: file.appendingPathComponent("keep").path))
    }
}
