import ArgumentParser
import HarkAudio
import HarkText

extension HarkCommand {
    /// `hark audio-info FILE.wav`: format, duration, levels.
    struct AudioInfo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audio-info",
            abstract: "Show a WAV file's format, duration, peak and RMS level.")

        @Argument(help: "WAV files.")
        var files: [String]

        func run() async throws {
            try await Self.reportingErrors {
                for file in files {
                    let wav = try WAVReader.read(contentsOf: file)
                    try Output.line("\(escapingControlCharacters(file)):\n\(AudioStatistics(wav))")
                }
            }
        }
    }
}
