import CALSA
import Foundation
import HarkAudio

/// One ALSA configuration for the whole test process.
///
/// ALSA reads its configuration once and caches it process-wide, so every
/// test shares a single asoundrc, written on first use, that defines all the
/// PCMs the tests need. They are built from ALSA's own `null` and `file`
/// plugins, so the real capture and playback code runs without a sound card:
///
/// - `hark_out`: playback; the `file` plugin writes every sample played to ``outputFile``.
/// - `hark_in`: capture; the `file` plugin's `infile` supplies ``input16k`` as the microphone.
/// - `hark_in48`: capture of ``input48k`` (a 48 kHz, 440 Hz sine), for the resampling path.
/// - `hark_in_stereo`: capture of ``inputStereo`` (interleaved L/R), for the downmix path.
///
/// `ALSA_CONFIG_PATH` replaces ALSA's configuration search; the system
/// `alsa.conf` is listed first so other code in the same process ("default")
/// still sees the usual devices, and ours is added after it.
struct ALSATestEnvironment: Sendable {
    static let shared = ALSATestEnvironment()

    let directory: URL
    let outputFile: URL
    let input16k: [Int16]
    let input48k: [Int16]
    let inputStereo: [Int16]

    /// A 440 Hz sine at `rate`, amplitude `amplitude` of full scale.
    static func sine(count: Int, rate: Int, amplitude: Double = 0.5, frequency: Double = 440) -> [Int16] {
        (0..<count).map { i in
            Int16((amplitude * 32767 * sin(2 * .pi * frequency * Double(i) / Double(rate))).rounded())
        }
    }

    private init() {
        let fm = FileManager.default
        directory = fm.temporaryDirectory
            .appendingPathComponent("hark-alsa-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? fm.removeItem(at: directory)
        try! fm.createDirectory(at: directory, withIntermediateDirectories: true)
        outputFile = directory.appendingPathComponent("out.raw")

        // 1.05 s, deliberately not a whole number of 100 ms frames.
        input16k = Self.sine(count: 16_800, rate: 16_000)
        input48k = Self.sine(count: 48_000, rate: 48_000)
        let left = Self.sine(count: 8_000, rate: 16_000, amplitude: 0.6, frequency: 300)
        let right = Self.sine(count: 8_000, rate: 16_000, amplitude: 0.3, frequency: 1_000)
        inputStereo = zip(left, right).flatMap { [$0, $1] }

        let in16k = directory.appendingPathComponent("in16k.raw")
        let in48k = directory.appendingPathComponent("in48k.raw")
        let inStereo = directory.appendingPathComponent("in-stereo.raw")
        try! Self.rawBytes(input16k).write(to: in16k)
        try! Self.rawBytes(input48k).write(to: in48k)
        try! Self.rawBytes(inputStereo).write(to: inStereo)

        let asoundrc = directory.appendingPathComponent("asoundrc")
        let config = """
            pcm.hark_null { type null }
            pcm.hark_out {
                type file
                slave.pcm "hark_null"
                file "\(outputFile.path)"
                format "raw"
            }
            pcm.hark_in {
                type file
                slave.pcm "hark_null"
                infile "\(in16k.path)"
                file "/dev/null"
                format "raw"
            }
            pcm.hark_in48 {
                type file
                slave.pcm "hark_null"
                infile "\(in48k.path)"
                file "/dev/null"
                format "raw"
            }
            pcm.hark_in_stereo {
                type file
                slave.pcm "hark_null"
                infile "\(inStereo.path)"
                file "/dev/null"
                format "raw"
            }

            """
        try! config.write(to: asoundrc, atomically: true, encoding: .utf8)

        var paths = [asoundrc.path]
        let systemConfig = String(cString: snd_config_topdir()) + "/alsa.conf"
        if fm.fileExists(atPath: systemConfig) {
            paths.insert(systemConfig, at: 0)
        }
        setenv("ALSA_CONFIG_PATH", paths.joined(separator: ":"), 1)
        // Make ALSA (re)read its configuration now: if anything in this
        // process touched ALSA first, its cached config lacks our PCMs.
        _ = snd_config_update()
    }

    /// Little-endian 16-bit bytes, as the `file` plugin reads and writes them.
    static func rawBytes(_ samples: [Int16]) -> Data {
        var data = Data(capacity: samples.count * 2)
        for sample in samples {
            withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    static func samples(fromRaw data: Data) -> [Int16] {
        stride(from: 0, to: data.count - 1, by: 2).map { i in
            Int16(littleEndian: Int16(bitPattern: UInt16(data[data.startIndex + i])
                | UInt16(data[data.startIndex + i + 1]) << 8))
        }
    }
}
