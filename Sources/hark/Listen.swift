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
            abstract: "Listen on the microphone (or raw 16-bit PCM on stdin with --device -) and answer each utterance.")

        @Option(help: "ALSA capture device, or - for raw signed 16-bit little-endian mono PCM on standard input.")
        var device: String = "default"

        @Option(help: "Sample rate of raw PCM on standard input.")
        var inputRate: Int = 16_000

        @Option(help: "Seconds of silence that end an utterance.")
        var trailingSilence: Double = 0.8

        @Option(help: "ALSA playback device for Hark's answers; 'none' to only print them.")
        var playback: String = "default"

        @Flag(help: "Print one JSON object per turn.")
        var json = false

        @OptionGroup var options: AssistantOptions
        @OptionGroup var voice: VoiceOptions

        func validate() throws {
            guard trailingSilence > 0.05, trailingSilence < 10 else {
                throw ValidationError("--trailing-silence must be between 0.05 and 10 seconds")
            }
        }

        func run() async throws {
            bootstrapLogging(verbose: options.verbose)
            try await Self.reportingErrors {
                let source: any AudioSource = device == "-"
                    ? RawPCMSource(fileHandle: .standardInput, sampleRate: inputRate)
                    : try ALSACapture(device: device)
                let assistant = try Wiring.assistant(options)
                let synthesizer = try ESpeakSynthesizer(voice: voice.voice, rate: voice.rate)
                let speaker: ALSAPlayback? = playback == "none" ? nil : ALSAPlayback(device: playback)
                if let speaker { try speaker.checkDevice() }
                var configuration = EndpointerConfiguration()
                configuration.trailingSilence = trailingSilence
                var endpointer = Endpointer(configuration: configuration)
                FileHandle.standardError.write(Data("hark: listening on \(source.name); speak to an app by name\n".utf8))
                func answer(_ utterance: Utterance) async throws {
                    let turn = try await assistant.hear(utterance.samples)
                    print(json ? turn.jsonLine : turn.card + "\n")
                    if let speaker { try await speaker.write(try synthesizer.synthesize(turn.speech)) }
                    // A slow handler's result, spoken when it arrives.
                    for late in await assistant.lateResults() {
                        print(json ? late.jsonLine : late.card + "\n")
                        if let speaker { try await speaker.write(try synthesizer.synthesize(late.speech)) }
                    }
                }
                for try await frame in source.frames() {
                    for utterance in endpointer.process(frame) { try await answer(utterance) }
                }
                for utterance in endpointer.finish() { try await answer(utterance) }
            }
        }
    }
}
