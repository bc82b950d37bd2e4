import ArgumentParser
import HarkALSA
import HarkAudio
import HarkSpeech

extension HarkCommand {
    /// `hark say TEXT`: speak with espeak-ng to the speaker or a WAV file.
    struct Say: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Speak text with Hark's voice, to a WAV file or the ALSA playback device.",
            usage: "hark say <text> [--out <file.wav>] [<options>]\nhark say --list-voices [--json]",
            discussion: """
                Examples:
                  hark say "Your message to Bobo was sent" --out answer.wav
                  hark say --list-voices --json
                """)

        @Argument(help: "The text to speak.")
        var text: String?

        @Flag(help: "List the espeak-ng voices and exit.")
        var listVoices = false

        @Flag(help: "With --list-voices, print the voices as a JSON array.")
        var json = false

        @Option(help: "Write a 16-bit WAV file instead of playing.", completion: .file(extensions: ["wav"]))
        var out: String?

        @Option(help: "ALSA playback device.")
        var device: String = "default"

        @OptionGroup var voice: VoiceOptions

        func validate() throws {
            if !listVoices, text == nil { throw ValidationError("give the text to speak, or --list-voices") }
            if json, !listVoices { throw ValidationError("--json goes with --list-voices") }
        }

        func run() async throws {
            try await Self.reportingErrors {
                if listVoices {
                    let voices = ESpeakSynthesizer.availableVoices()
                    if json { try printJSON(voices) } else { try Output.line(voices.joined(separator: "\n")) }
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
