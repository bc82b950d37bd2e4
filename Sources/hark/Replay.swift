import ArgumentParser
import Foundation
import Hark
import HarkAudio
import HarkSpeech

extension HarkCommand {
    /// `hark replay FILE.wav...`: each file is one turn of one conversation.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay WAV files through the whole pipeline; each file is one turn of one conversation.",
            discussion: """
                A follow-up answer (when Hark asks a question) goes in the next file.

                Examples:
                  hark replay audio-fixtures/flite-rms/monkeychat-send-bobo-bananas.wav
                  hark replay audio-fixtures/flite-rms/monkeychat-ask-content-1.wav \\
                      audio-fixtures/flite-rms/monkeychat-ask-content-2.wav --json
                """)

        @Argument(help: "WAV files, one per user turn, in order; - reads raw 16 kHz 16-bit mono PCM from standard input.",
                  completion: .file(extensions: ["wav"]))
        var files: [String]

        @Flag(help: "Print one JSON object per turn.")
        var json = false

        @Option(help: "Also write everything Hark says to this WAV file.", completion: .file(extensions: ["wav"]))
        var speakTo: String?

        @OptionGroup var options: AssistantOptions
        @OptionGroup var voice: VoiceOptions

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one WAV file") }
        }

        func run() async throws {
            bootstrapLogging(verbose: options.verbose)
            try await Self.reportingErrors {
                // Read every file first: a bad file fails before any turn runs.
                let utterances = try files.map { try TurnAudio.read(path: $0) }
                let synthesizer = try speakTo.map { _ in try ESpeakSynthesizer(voice: voice.voice, rate: voice.rate) }
                let installed = try Wiring.installedApps(options, decoder: try Wiring.decoder(options))
                let assistant = try installed.makeAssistant()
                var spoken = PCMAudio(samples: [], sampleRate: 22_050)
                for samples in utterances {
                    let turn = try await assistant.hear(samples)
                    try Output.line(json ? turn.jsonLine : turn.terminalCard + "\n")
                    // A slow handler's result, reported when it arrives.
                    for late in await assistant.lateResults() { try Output.line(json ? late.jsonLine : late.terminalCard + "\n") }
                    if let synthesizer {
                        let audio = try synthesizer.synthesize(turn.speech)
                        // Half a second of silence between answers.
                        spoken.samples += audio.samples + [Float](repeating: 0, count: audio.sampleRate / 2)
                        spoken.sampleRate = audio.sampleRate
                    }
                }
                await installed.shutdown()
                if let speakTo {
                    try WAVWriter.write(spoken, to: speakTo)
                }
            }
        }
    }
}
