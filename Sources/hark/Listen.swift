import ArgumentParser
import Foundation
import Hark
import HarkALSA
import HarkAudio
import HarkSpeech

extension HarkCommand {
    /// `hark listen`: the live loop — microphone (or raw PCM on stdin),
    /// endpointer, assistant, spoken answer.
    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Listen on the microphone (or raw 16-bit PCM on stdin with --device -) and answer each utterance.",
            discussion: """
                Push-to-talk / terminal use (no --wake): every utterance is a request; the answer is shown as a card and spoken briefly (questions in full, a finished request's first sentence).

                Hands-free (--wake "hey hark"): utterances without the wake phrase are ignored; what follows it is the request (or, said alone, Hark answers "Yes?" and takes the next utterance); every answer is spoken in full.

                Examples:
                  sox audio-fixtures/flite-rms/monkeychat-send-bobo-bananas.wav \\
                      -t raw -r 16000 -c 1 -e signed -b 16 - |
                      hark listen --device - --playback none --json
                """)

        @Option(help: "ALSA capture device, or - for raw signed 16-bit little-endian mono PCM on standard input.")
        var device: String = "default"

        @Option(help: "Sample rate of raw PCM on standard input.")
        var inputRate: Int = 16_000

        @OptionGroup var endpointing: EndpointingOptions

        @Option(help: "ALSA playback device for Hark's answers; 'none' to only print them.")
        var playback: String = "default"

        @Option(help: "Hands-free: answer only what follows this wake phrase (pocketsphinx keyword spotting).")
        var wake: String?

        @Option(help: "Keyword-spotting threshold for --wake (lower hears the phrase more readily, and falsely more often).")
        var wakeThreshold: Double = 1e-20

        @Flag(help: "Print one JSON object per turn.")
        var json = false

        @Option(help: "The room or place this microphone is in; each turn carries it (`site` in --json).")
        var site: String?

        @OptionGroup var options: AssistantOptions
        @OptionGroup var voice: VoiceOptions

        func validate() throws {
            if let wake, !wake.contains(where: \.isLetter) { throw ValidationError("--wake needs words, got '\(wake)'") }
            guard wakeThreshold > 0, wakeThreshold < 1 else { throw ValidationError("--wake-threshold must be between 0 and 1, e.g. 1e-20") }
        }

        func run() async throws {
            bootstrapLogging(verbose: options.verbose)
            try await Self.reportingErrors {
                let source: any AudioSource = device == "-"
                    ? RawPCMSource(fileHandle: .standardInput, sampleRate: inputRate)
                    : try ALSACapture(device: device)
                let decoder = try Wiring.decoder(options)
                let installed = try Wiring.installedApps(options, decoder: decoder)
                let assistant = try installed.makeAssistant()
                let synthesizer = try ESpeakSynthesizer(voice: voice.voice, rate: voice.rate)
                let speaker: ALSAPlayback? = playback == "none" ? nil : ALSAPlayback(device: playback)
                if let speaker { try speaker.checkDevice() }
                var configuration = VoiceSession.Configuration()
                configuration.endpointer = endpointing.configuration
                configuration.wakePhrase = wake
                configuration.wakeThreshold = wakeThreshold
                let session = VoiceSession(source: source, assistant: assistant, recognizer: decoder,
                                           synthesizer: synthesizer, sink: speaker, configuration: configuration)
                FileHandle.standardError.write(Data("hark: listening on \(source.name); \(wake.map { "say \"\($0)\", then" } ?? "") speak to an app by name\n".utf8))
                let json = self.json, wake = self.wake ?? "", site = self.site
                try await session.run { event in
                    switch event {
                    case .turn(var turn):
                        turn.site = site
                        try Output.line(json ? turn.jsonLine : turn.terminalCard + "\n")
                    case .awake:
                        if json { try Output.line(#"{"code":"awake","speech":"Yes?"}"#) } else { try Output.line("hark:   Yes?\n") }
                    case .ignored(let seconds):
                        FileHandle.standardError.write(Data(String(format: "hark: (%.1f s without \"%@\", ignored)\n", seconds, wake).utf8))
                    case .unheard(let seconds):
                        FileHandle.standardError.write(Data(String(format: "hark: (%.1f s with no words Hark knows, not answered)\n", seconds).utf8))
                    case .droppedWhileSpeaking(let seconds):
                        FileHandle.standardError.write(Data(String(format: "hark: (%.1f s heard while speaking, dropped)\n", seconds).utf8))
                    }
                }
                await installed.shutdown()
            }
        }
    }
}
