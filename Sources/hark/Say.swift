import ArgumentParser
import HarkALSA
import HarkAudio
import HarkSpeech

extension HarkCommand {
    /// `hark say TEXT`: speak with espeak-ng to the speaker or a WAV file.
    struct Say: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Speak text with Hark's voice, to a WAV file or the ALSA playback device.")

        @Argument(help: "The text to speak.")
        var text: String?

        @Flag(help: "List the espeak-ng voices and exit.")
        var listVoices = false

        @Option(help: "Write a 16-bit WAV file instead of playing.")
        var out: String?

        @Option(help: "ALSA playback device.")
        var device: String = "default"

        @OptionGroup var voice: VoiceOptions

        func validate() throws {
            if !listVoices, text == nil { throw ValidationError("give the text to speak, or --list-voices") }
        }

        func run() async throws {
            try await Self.reportingErrors {
                if listVoices {
                    try Output.line(ESpeakSynthesizer.availableVoices().joined(separator: "\n"))
                    return
                }
                guard let text else { return }
                let synthesizer = try ESpeakSynthesizer(voice: voice.voice, rate: voice.rate)
                let audio = try synthesizer.synthesize(text)
                if let out {
                    try WAVWriter.write(audio, to: out)
                } else {
                    try await ALSAPlayback(device: device).write(audio)
                }
            }
        }
    }
}
