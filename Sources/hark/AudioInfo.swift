import ArgumentParser
import Foundation
import HarkAudio
import HarkRecognition
import HarkText

extension HarkCommand {
    /// `hark audio-info FILE.wav`: format, duration, levels.
    struct AudioInfo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audio-info",
            abstract: "Show a WAV file's format, duration, peak and RMS level.",
            discussion: """
                With --speech-presence, also how Hark's noise stage judges the file as an utterance: its estimated SNR, whether RNNoise runs on it (under 35 dB), and RNNoise's speech presence (the best 0.1 s mean of its voice probability; a noisy utterance under 0.95 is taken for nobody speaking; --presence-window FRAMES averages over another span).

                Examples:
                  hark audio-info audio-fixtures/flite-slt/monkeychat-little-bobo.wav
                  hark audio-info --json audio-fixtures/flite-slt/*.wav
                  hark audio-info --speech-presence audio-fixtures/espeak-rp-fast/seed-a-2.wav
                """)

        @Argument(help: "WAV files.", completion: .file(extensions: ["wav"]))
        var files: [String]

        @Flag(help: "Print one JSON object per file: file, codec, sample_rate, channels, bits_per_sample, frames, duration, peak, rms, peak_dbfs, rms_dbfs.")
        var json = false

        @Flag(help: "Also judge each file as Hark's noise stage does: estimated SNR, whether RNNoise runs, RNNoise's speech presence (needs RNNoise: scripts/setup.sh).")
        var speechPresence = false

        // For measurement (scripts/speech-presence.py --window), out of the usage line.
        @Option(help: ArgumentHelp("With --speech-presence: the span RNNoise's voice probability is averaged over, in 10 ms frames (Hark's: 10).",
                                   valueName: "frames", visibility: .hidden))
        var presenceWindow = 10

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
            var estimatedSNR: Double?
            var denoised: Bool?
            var speechPresence: Double?

            enum CodingKeys: String, CodingKey {
                case file, codec, channels, frames, duration, peak, rms, denoised
                case sampleRate = "sample_rate", bitsPerSample = "bits_per_sample", peakDbfs = "peak_dbfs", rmsDbfs = "rms_dbfs"
                case estimatedSNR = "estimated_snr_db", speechPresence = "speech_presence"
            }
        }

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one WAV file") }
            guard presenceWindow > 0 else { throw ValidationError("--presence-window must be at least 1 frame") }
        }

        /// How Hark's noise stage judges a recording as one utterance.
        struct NoiseJudgement {
            var estimatedSNR: Double
            var denoised: Bool
            var speechPresence: Double

            init(_ wav: WAVFile, suppressor: NoiseSuppressor, window: Int) throws {
                let samples = try wav.audio.toRecognitionFormat().int16Samples()
                estimatedSNR = NoiseSuppressor.estimatedSNR(samples)
                denoised = NoiseSuppressor.isNoisy(estimatedSNR: estimatedSNR)
                speechPresence = try suppressor.enhance(samples).speechPresence(window: window)
            }

            var description: String {
                String(format: "estimated SNR %.1f dB (%@), speech presence %.3f (%@)", estimatedSNR,
                       denoised ? "noisy: denoised" : "clean: left as it is", speechPresence,
                       speechPresence >= DenoisingRecognizer.defaultMinimumSpeechPresence ? "someone speaks"
                           : denoised ? "taken for nobody speaking" : "under the floor, but clean: not judged")
            }
        }

        func run() async throws {
            try await Self.reportingErrors {
                let suppressor = speechPresence ? try NoiseSuppressor() : nil
                for file in files {
                    let wav = try WAVReader.read(contentsOf: file)
                    let statistics = AudioStatistics(wav)
                    let judgement = try suppressor.map { try NoiseJudgement(wav, suppressor: $0, window: presenceWindow) }
                    if json {
                        // -inf dBFS (silence) is not JSON: the lowest finite value stands for it.
                        func finite(_ x: Double) -> Double { x.isFinite ? x : -Double.greatestFiniteMagnitude }
                        try printJSON(FileJSON(file: file, codec: statistics.codec, sampleRate: statistics.sampleRate,
                                               channels: statistics.channels, bitsPerSample: statistics.bitsPerSample,
                                               frames: statistics.frameCount, duration: statistics.duration,
                                               peak: statistics.peak, rms: statistics.rms,
                                               peakDbfs: finite(statistics.peakDBFS), rmsDbfs: finite(statistics.rmsDBFS),
                                               estimatedSNR: judgement.map { finite($0.estimatedSNR) }, denoised: judgement?.denoised,
                                               speechPresence: judgement?.speechPresence))
                    } else {
                        try Output.line("\(escapingControlCharacters(file)):\n\(statistics)" + (judgement.map { "\n" + $0.description } ?? ""))
                    }
                }
            }
        }
    }
}
