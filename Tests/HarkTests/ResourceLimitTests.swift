import Foundation
import HarkTestSupport
import Testing

/// Inputs that are small but explode, or large: the real `hark` binary,
/// run under a 1 GiB address-space ceiling (`prlimit --as`), must end each
/// with its one-line error. Before the limits, these took 3 to 7.7 GB, or
/// aborted inside the allocator or pocketsphinx (issue 18).
@Suite("Resource limits: exploding and oversized inputs under a memory ceiling")
struct ResourceLimitTests {
    /// The address space the binary gets: well above what the sample apps
    /// need (they run under 512 MiB), far below what an unbounded expansion takes.
    static let ceiling = 1 << 30

    /// Runs `hark arguments` under the ceiling.
    func runCapped(_ arguments: [String], stdin: String? = nil) throws -> ProcessOutput {
        var environment = ProcessInfo.processInfo.environment
        environment["HARK_DATA_DIR"] = try temporaryDirectory("limits").path
        return try ProcessRunner.run("/usr/bin/prlimit", ["--as=\(Self.ceiling)", Repo.hark] + arguments,
                                     currentDirectory: Repo.root, environment: environment, inputFile: stdin)
    }

    /// A refusal: status 1 (not a signal), one line naming `naming`, saying `saying`.
    func expectRefusal(_ result: ProcessOutput, naming: String, saying: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, "status \(result.status): \(result.err)", sourceLocation: sourceLocation)
        #expect(result.err.hasPrefix("hark: error: \(naming)"), "\(result.err)", sourceLocation: sourceLocation)
        #expect(result.err.contains(saying), "\(result.err)", sourceLocation: sourceLocation)
        #expect(result.err.filter { $0 == "\n" }.count == 1, "\(result.err)", sourceLocation: sourceLocation)
    }

    /// A WAV header for `seconds` of 16 kHz 16-bit mono, the samples left as
    /// a hole in a sparse file (no disk used, every byte readable).
    func longWAV(seconds: Int, rate: Int = 16_000) throws -> String {
        let dataBytes = seconds * rate * 2
        var header = Data("RIFF".utf8)
        func le32(_ v: Int) -> Data { withUnsafeBytes(of: UInt32(v).littleEndian) { Data($0) } }
        func le16(_ v: Int) -> Data { withUnsafeBytes(of: UInt16(v).littleEndian) { Data($0) } }
        header += le32(36 + dataBytes) + Data("WAVEfmt ".utf8) + le32(16)
        header += le16(1) + le16(1) + le32(rate) + le32(rate * 2) + le16(2) + le16(16)
        header += Data("data".utf8) + le32(dataBytes)
        let path = try temporaryDirectory("wav").appendingPathComponent("long.wav").path
        #expect(FileManager.default.createFile(atPath: path, contents: header))
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: UInt64(header.count + dataBytes))
        try handle.close()
        return path
    }

    @Test("rules that each use the next twice, 22 and 40 levels: a size error naming the file and rule")
    func doublingGrammars() throws {
        for levels in [22, 40] {
            let apps = "Tests/Malformed/grammar-doubling-\(levels)-levels"
            let result = try runCapped(["export", "jsgf", "--apps", apps])
            expectRefusal(result, naming: "\(apps)/Broken/Broken.hark:", saying: "the grammar expands to more than 200000 states")
            #expect(result.err.contains("while expanding <d0> -> <d1>"))
        }
    }

    @Test("a Rhino context whose macros double: a size error at the first macro")
    func doublingMacros() throws {
        let out = try temporaryDirectory("rhino").appendingPathComponent("Out").path
        let result = try runCapped(["import", "rhino", "Tests/Malformed/rhino/doubling-macros.yaml", "--out", out])
        expectRefusal(result, naming: "Tests/Malformed/rhino/doubling-macros.yaml:5:5:", saying: "@d0 -> @d1")
    }

    @Test("a YAML billion laughs: refused before the aliases are expanded")
    func billionLaughs() throws {
        let out = try temporaryDirectory("rhino").appendingPathComponent("Out").path
        let result = try runCapped(["import", "rhino", "Tests/Malformed/rhino/billion-laughs.yaml", "--out", out])
        expectRefusal(result, naming: "Tests/Malformed/rhino/billion-laughs.yaml:", saying: "aliases of aliases multiply")
    }

    @Test("10,000 nested arrays in XML, and in a strings file: refused before Foundation parses them")
    func deepPlists() throws {
        for apps in ["Tests/Malformed/apps-deep-xml-plist", "Tests/Malformed/apps-deep-strings"] {
            let result = try runCapped(["apps", "list", "--apps", apps])
            expectRefusal(result, naming: "\(apps)/Broken/", saying: "nested more than 100 levels deep")
        }
    }

    @Test("a 30-minute WAV: replay refuses it from the header, without reading the samples")
    func thirtyMinutes() throws {
        let path = try longWAV(seconds: 1_800)
        let result = try runCapped(["replay", path])
        expectRefusal(result, naming: path, saying: "too long for one turn (1800 s of audio")
    }

    @Test("1 MB declaring 63 Hz (7,937 s once resampled): refused before resampling")
    func lowRate() throws {
        let path = try longWAV(seconds: 7_937, rate: 63)
        let result = try runCapped(["replay", path])
        expectRefusal(result, naming: path, saying: "sample rate 63 Hz is outside the 4000...384000 Hz")
    }

    @Test("more than five minutes of raw PCM on standard input: refused once the limit is passed")
    func longStandardInput() throws {
        let path = try temporaryDirectory("raw").appendingPathComponent("long.raw").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: UInt64(301 * 16_000 * 2))
        try handle.close()
        let result = try runCapped(["replay", "-"], stdin: path)
        expectRefusal(result, naming: "standard input", saying: "too long for one turn")
    }

    @Test("a turn just under the limit is still replayed")
    func underTheLimit() throws {
        let path = try longWAV(seconds: 2)
        let result = try runCapped(["replay", path, "--json"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("\"code\":\"notUnderstood\""), "\(result.out)")
    }
}
