import Foundation
import HarkTestSupport
import Testing

@testable import HarkAudio

/// How test WAV files store their samples.
enum SampleEncoding {
    case unsigned8, int16, int24, int32, int64, float32, float64

    var bits: Int {
        switch self {
        case .unsigned8: 8
        case .int16: 16
        case .int24: 24
        case .int32, .float32: 32
        case .int64, .float64: 64
        }
    }

    var isFloat: Bool { self == .float32 || self == .float64 }

    /// The largest error quantisation can introduce, with a little slack.
    var tolerance: Float {
        switch self {
        case .unsigned8: 1.0 / 128
        case .int16: 1.0 / 32768
        default: 1e-6
        }
    }

    /// The little-endian bytes of one sample in [-1, 1].
    func bytes(_ value: Double) -> [UInt8] {
        var out: [UInt8] = []
        func integer(_ scale: Double, maximum: Double) -> Double { (value * scale).rounded().clamped(-scale, maximum) }
        switch self {
        case .unsigned8: out.append(UInt8(integer(128, maximum: 127) + 128))
        case .int16: out.appendLE(Int16(integer(32768, maximum: 32767)))
        case .int24:
            let word = UInt32(bitPattern: Int32(integer(8_388_608, maximum: 8_388_607)))
            out += [UInt8(word & 0xFF), UInt8((word >> 8) & 0xFF), UInt8((word >> 16) & 0xFF)]
        case .int32: out.appendLE(Int32(integer(2_147_483_648, maximum: 2_147_483_647)))
        case .int64: out.appendLE(Int64((value * 9_223_372_036_854_775_808).clamped(-9.2e18, 9.2e18)))
        case .float32: out.appendLE(Float(value).bitPattern)
        case .float64: out.appendLE(value.bitPattern)
        }
        return out
    }
}

extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(high, Swift.max(low, self)) }
}

extension [UInt8] {
    mutating func appendLE(_ value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

/// Builds WAV files byte by byte, including deliberately broken ones.
struct WAVBuilder {
    var formatTag: UInt16 = 1
    var channels = 1
    var sampleRate = 16_000
    var bitsPerSample = 16
    var extensible = false
    /// The sub-format GUID's first two bytes when extensible (the real format tag).
    var subFormatTag: UInt16?
    var blockAlign: Int?
    /// Chunks placed between `fmt ` and `data`.
    var extraChunks: [(id: String, body: [UInt8])] = []
    /// The size written in the `data` header instead of the real one.
    var dataSize: UInt32?
    var riffSize: UInt32?

    init(encoding: SampleEncoding = .int16, channels: Int = 1, sampleRate: Int = 16_000) {
        formatTag = encoding.isFloat ? 3 : 1
        bitsPerSample = encoding.bits
        self.channels = channels
        self.sampleRate = sampleRate
    }

    var fmtBody: [UInt8] {
        var fmt: [UInt8] = []
        let align = blockAlign ?? channels * bitsPerSample / 8
        fmt.appendLE(extensible ? 0xFFFE : formatTag)
        fmt.appendLE(UInt16(truncatingIfNeeded: channels))
        fmt.appendLE(UInt32(truncatingIfNeeded: sampleRate))
        fmt.appendLE(UInt32(truncatingIfNeeded: sampleRate * align))
        fmt.appendLE(UInt16(truncatingIfNeeded: align))
        fmt.appendLE(UInt16(truncatingIfNeeded: bitsPerSample))
        if extensible {
            fmt.appendLE(UInt16(22))
            fmt.appendLE(UInt16(truncatingIfNeeded: bitsPerSample))
            fmt.appendLE(UInt32(channels == 2 ? 3 : 0))
            fmt.appendLE(subFormatTag ?? formatTag)
            fmt += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        return fmt
    }

    func build(data: [UInt8]) -> [UInt8] {
        var body = Array("WAVE".utf8)
        body += chunk("fmt ", fmtBody)
        for extra in extraChunks { body += chunk(extra.id, extra.body) }
        body += Array("data".utf8)
        body.appendLE(dataSize ?? UInt32(data.count))
        body += data
        if data.count % 2 == 1 { body.append(0) }
        var file = Array("RIFF".utf8)
        file.appendLE(riffSize ?? UInt32(body.count))
        return file + body
    }

    /// A chunk with its pad byte when the body has odd length.
    func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        var bytes = Array(id.utf8)
        bytes.appendLE(UInt32(body.count))
        bytes += body
        if body.count % 2 == 1 { bytes.append(0) }
        return bytes
    }
}

/// Interleaves per-channel sample values into WAV data bytes.
func interleave(_ channels: [[Double]], as encoding: SampleEncoding) -> [UInt8] {
    var bytes: [UInt8] = []
    for frame in 0..<(channels.first?.count ?? 0) {
        for channel in channels { bytes += encoding.bytes(channel[frame]) }
    }
    return bytes
}

/// `count` samples of a sine wave.
func sine(frequency: Double, amplitude: Double = 0.5, sampleRate: Int, count: Int, phase: Double = 0) -> [Double] {
    (0..<count).map { amplitude * sin(2 * .pi * frequency * Double($0) / Double(sampleRate) + phase) }
}

/// The power of `frequency` in `samples` (Goertzel), normalised so a full-scale sine gives about 0.25.
func tonePower(_ samples: [Float], frequency: Double, sampleRate: Int) -> Double {
    let coefficient = 2 * cos(2 * .pi * frequency / Double(sampleRate))
    var previous = 0.0
    var beforePrevious = 0.0
    for sample in samples {
        let current = Double(sample) + coefficient * previous - beforePrevious
        beforePrevious = previous
        previous = current
    }
    let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    let n = Double(samples.count)
    return power / (n * n)
}

/// Mean square of the samples.
func meanSquare(_ samples: some Collection<Float>) -> Double {
    samples.isEmpty ? 0 : samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)
}

/// Sign changes from negative to positive.
func upwardZeroCrossings(_ samples: [Float]) -> Int {
    zip(samples, samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
}

/// A small deterministic random generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Gaussian-ish noise (sum of uniforms) with the given RMS.
func noise(count: Int, rms: Double, generator: inout SeededGenerator) -> [Double] {
    // The sum of four uniforms on [-1, 1] has variance 4/3.
    let scale = rms / (4.0 / 3.0).squareRoot()
    return (0..<count).map { _ in
        scale * (0..<4).reduce(0.0) { sum, _ in sum + Double.random(in: -1...1, using: &generator) }
    }
}

/// A fresh directory for one test's files, removed when the test is done with it.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("HarkAudioTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let file = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}

/// Runs a command-line tool and fails the test if it does not succeed.
func run(_ tool: String, _ arguments: [String]) throws {
    let result = try ProcessRunner.run(tool, arguments)
    try #require(result.status == 0, "\(tool) \(arguments.joined(separator: " ")) failed: \(result.err)")
}

let soxPath = "/usr/bin/sox"
let espeakPath = "/usr/bin/espeak-ng"
let toolsAvailable = FileManager.default.isExecutableFile(atPath: soxPath)
    && FileManager.default.isExecutableFile(atPath: espeakPath)

/// Expects `body` to throw an ``AudioError`` of `kind` whose description names `path` on one line.
func expectAudioError(
    _ kind: AudioError.Kind, naming path: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(AudioError) -> Void
) {
    do {
        try body()
        Issue.record("expected \(kind), but it succeeded", sourceLocation: sourceLocation)
    } catch {
        #expect(error.kind == kind, sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix(path + ": "), sourceLocation: sourceLocation)
        #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
    }
}

/// Expects two long sequences to be equal, reporting only the first difference
/// (printing whole arrays of samples would bury the failure).
func expectIdentical<Element: Equatable>(
    _ actual: [Element], _ expected: [Element], _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard actual != expected else { return }
    let index = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, expected.count)
    let detail = index < min(actual.count, expected.count) ? "\(actual[index]) vs \(expected[index])" : "lengths \(actual.count) vs \(expected.count)"
    Issue.record("\(what): first difference at index \(index) (\(detail))", sourceLocation: sourceLocation)
}
