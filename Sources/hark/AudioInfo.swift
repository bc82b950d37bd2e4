import ArgumentParser
import Foundation
import HarkAudio
import HarkText

extension HarkCommand {
    /// `hark audio-info FILE.wav`: format, duration, levels.
    struct AudioInfo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audio-info",
            abstract: "Show a WAV file's format, duration, peak and RMS level.",
            discussion: """
                Examples:
                  hark audio-info audio-fixtures/flite-slt/monkeychat-little-bobo.wav
                  hark audio-info --json audio-fixtures/flite-slt/*.wav
                """)

        @Argument(help: "WAV files.", completion: .file(extensions: ["wav"]))
        var files: [String]

        @Flag(help: "Print one JSON object per file: file, codec, sample_rate, channels, bits_per_sample, frames, duration, peak, rms, peak_dbfs, rms_dbfs.")
        var json = false

        struct FileJSON: Encodable {
            var file: String
            var codec: String
            var sampleRate: Int
            var channels: Int
            var bitsPerSample: Int
            var frames: Int
            var duration: Double
            var peak: Double
            var rms: Double
            var peakDbfs: Double
            var rmsDbfs: Double

            enum CodingKeys: String, CodingKey {
                case file, codec, channels, frames, duration, peak, rms
                case sampleRate = "sample_rate", bitsPerSample = "bits_per_sample", peakDbfs = "peak_dbfs", rmsDbfs = "rms_dbfs"
            }
        }

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one WAV file") }
        }

        func run() async throws {
            try await Self.reportingErrors {
                for file in files {
                    let wav = try WAVReader.read(contentsOf: file)
                    let statistics = AudioStatistics(wav)
                    if json {
                        // -inf dBFS (silence) is not JSON: the lowest finite value stands for it.
                        func finite(_ x: Double) -> Double { x.isFinite ? x : -Double.greatestFiniteMagnitude }
                        try printJSON(FileJSON(file: file, codec: statistics.codec, sampleRate: statistics.sampleRate,
                                               channels: statistics.channels, bitsPerSample: statistics.bitsPerSample,
                                               frames: statistics.frameCount, duration: statistics.duration,
                                               peak: statistics.peak, rms: statistics.rms,
                                               peakDbfs: finite(statistics.peakDBFS), rmsDbfs: finite(statistics.rmsDBFS)))
                    } else {
                        try Output.line("\(escapingControlCharacters(file)):\n\(statistics)")
                    }
                }
            }
        }
    }
}
