import Foundation
import HarkCatalog
import Testing

/// The data folder holds only what Hark wrote, and what it reads from there
/// is checked like any other input: special files are refused without
/// blocking, sizes are capped, leftovers of killed writers are cleaned up,
/// and every failure is one sentence naming the path.
@Suite("Data files and folders")
struct DataFileTests {
    @Test("a FIFO, a device (through a symbolic link) or a folder in place of a data file is refused at once, naming it")
    func specialFiles() throws {
        let dir = try temporaryDirectory()
        let fifo = dir.appendingPathComponent("fifo.json"), zero = dir.appendingPathComponent("zero.json")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
        #expect(throws: DataFileError(path: fifo.path, operation: .read, code: 79, detail: "it is a FIFO (named pipe), not a regular file")) {
            try DataFile.read(fifo)
        }
        #expect(throws: DataFileError(path: zero.path, operation: .read, code: 79, detail: "it is a character device, not a regular file")) {
            try DataFile.read(zero)
        }
        // Neither is replaced by a save.
        #expect(throws: DataFileError.self) { try AtomicFile.write(Data("{}".utf8), to: fifo) }
        #expect(throws: DataFileError.self) { try AtomicFile.write(Data("{}".utf8), to: zero) }
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat(zero.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        let error = try #require(throws: DataFileError.self) { try DataFile.read(fifo) }
        #expect(error.description == "\(fifo.path): cannot read (it is a FIFO (named pipe), not a regular file); it was left as it is, not replaced; move it aside; Hark reads its data from regular files only")
    }

    @Test("a file over the limit is an error naming it and the limit, not read into memory")
    func sizeCap() throws {
        let file = try temporaryDirectory().appendingPathComponent("big.json")
        try Data(repeating: 0x20, count: 5000).write(to: file)
        #expect(try DataFile.read(file, limit: 5000)?.count == 5000)
        let error = try #require(throws: DataFileError.self) { try DataFile.read(file, limit: 4999) }
        #expect(error.description.hasPrefix("\(file.path): cannot read (it is 5000 bytes, over the limit of 4999 bytes for this file)"))
    }

    @Test("temporary files of writers that no longer exist are removed; a living writer's and other files are kept")
    func staleTemporaries() throws {
        let dir = try temporaryDirectory()
        // A process that has exited: its pid is free (until reused, which the check allows for).
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let names = [
            ".messages.json.\(dead.processIdentifier).12345.tmp",   // dead writer: removed
            ".messages.json.\(getpid()).678.tmp",                    // this (living) process: kept
            ".messages.json.lock", "messages.json", "notes.tmp", ".x.tmp", ".a.b.c.tmp",
        ]
        for name in names { try Data("x".utf8).write(to: dir.appendingPathComponent(name)) }
        let removed = AtomicFile.removeStaleTemporaries(in: dir)
        #expect(removed == [names[0]])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == names.dropFirst().sorted())
    }

    @Test("a data folder that cannot be made is one sentence naming it and why, never a Foundation error")
    func folderInTheWay() throws {
        let file = try temporaryDirectory().appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        for path in ["/dev/null", file.path] {
            let error = try #require(throws: DataFileError.self) {
                try UserVocabularyStore(dataDirectory: URL(fileURLWithPath: path))
            }
            #expect(error.description.hasPrefix("\(path): cannot create the data folder (it is a"), "\(error)")
            #expect(!error.description.contains("NSCocoaErrorDomain"))
            #expect(throws: DataFileError.self) { try AuthorizationStore(dataDirectory: URL(fileURLWithPath: path).appendingPathComponent("sub")) }
        }
    }
}

@Suite("User vocabulary files are checked when loaded")
struct VocabularyLoadLimitTests {
    func store(with json: String) throws -> (UserVocabularyStore, URL) {
        let store = try UserVocabularyStore(dataDirectory: try temporaryDirectory())
        let file = store.directory.appendingPathComponent("MonkeyChat.json")
        try Data(json.utf8).write(to: file)
        return (store, file)
    }

    @Test("a string over 1,024 UTF-16 units, too many strings or an empty one in a file is an error naming the file")
    func limitsOnLoad() throws {
        let long = String(repeating: "a", count: 1025)
        let many = (0...UserVocabularyStore.maximumStringsPerType).map { "\"n\($0)\"" }.joined(separator: ",")
        for (json, message) in [
            (#"{"contactName": ["Bobo", "\#(long)"]}"#, "contactName string 2 ('aaaa"),
            (#"{"contactName": [\#(many)]}"#, "contactName has 1001 strings; the limit is 1000 per type"),
            (#"{"contactName": ["Bobo", " "]}"#, "contactName string 2 is empty"),
        ] {
            let (store, file) = try store(with: json)
            let error = try #require(throws: CatalogError.self) { try store.vocabulary(app: "MonkeyChat") }
            #expect(error.description.hasPrefix("\(file.path): \(message)"), "\(error)")
            // `set` keeps the file as it is rather than replace what it cannot read.
            #expect(throws: CatalogError.self) { try store.set(["Koko"], type: .contactGroupName, app: "MonkeyChat") }
            #expect(try String(contentsOf: file, encoding: .utf8) == json)
        }
    }

    @Test("a 3 MB vocabulary file is a one-line error naming the file and the limit")
    func hugeFile() throws {
        let strings = (0..<3000).map { "\"\(String(repeating: "bobo ", count: 200))\($0)\"" }
        let (store, file) = try store(with: #"{"contactName": [\#(strings.joined(separator: ","))]}"#)
        let error = try #require(throws: DataFileError.self) { try store.vocabulary(app: "MonkeyChat") }
        #expect(error.description.hasPrefix("\(file.path): cannot read (it is 3"), "\(error)")
        #expect(error.description.contains("over the limit of \(UserVocabularyStore.maximumFileSize) bytes"))
        #expect(!error.description.contains("\n"))
    }

    @Test("set refuses more than 1,000 strings of a type, or a vocabulary over the file limit, and writes nothing")
    func limitsOnSet() throws {
        let (store, file) = try store(with: #"{"contactName": ["Bobo"]}"#)
        #expect(throws: CatalogError.self) {
            try store.set((0...1000).map { "n\($0)" }, type: .contactName, app: "MonkeyChat")
        }
        let long = (0..<200).map { "\($0) " + String(repeating: "b", count: 1000) }
        let error = try #require(throws: CatalogError.self) { try store.set(long, type: .contactName, app: "MonkeyChat") }
        #expect(error.description.contains("the limit is \(UserVocabularyStore.maximumFileSize) bytes per app"), "\(error)")
        #expect(try store.vocabulary(app: "MonkeyChat") == ["contactName": ["Bobo"]])
        _ = file
    }
}
