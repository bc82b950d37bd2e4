import ArgumentParser
import HarkAudio

/// Where utterances end: `hark listen` and `hark bench --streaming`.
struct EndpointingOptions: ParsableArguments {
    @Option(help: "Seconds of silence that end an utterance.")
    var trailingSilence: Double = 0.8

    @Option(help: ArgumentHelp("Seconds of silence that end an utterance once what was heard is already a whole sentence of the grammar (grammar-aware endpointing); 'off' always waits --trailing-silence.", valueName: "seconds|off"))
    var completeSentenceSilence: String = "0.35"

    @Option(help: ArgumentHelp("The same for a sentence the grammar cannot continue.", valueName: "seconds"))
    var finalSentenceSilence: Double = 0.2

    @Option(help: ArgumentHelp("Seconds of silence that end an utterance whose whole sentence ends in free text that reads as the end of a sentence (\"... saying I'm running late\"); 'off' waits --trailing-silence after free text.", valueName: "seconds|off"))
    var freeTextEndSilence: String = "0.5"

    @Option(help: ArgumentHelp("Seconds of silence that end an utterance while what was heard is only the beginning of a sentence of the grammar (\"send a message to ...\"): a pause inside the sentence; 'off' waits --trailing-silence.", valueName: "seconds|off"))
    var unfinishedSentenceSilence: String = "1.2"

    @Option(help: ArgumentHelp("Once an utterance has begun, sound more than this many dB below its loudest moment no longer continues it (breath, echo, background after the last word); 'off' counts all sound above the noise floor.", valueName: "dB|off"))
    var speechRange: String = "30"

    func validate() throws {
        if speechRange != "off" {
            guard let range = Double(speechRange), range >= 10, range <= 90 else {
                throw ValidationError("--speech-range takes dB from 10 to 90, or 'off'")
            }
        }
        guard finalSentenceSilence >= 0.05, finalSentenceSilence <= trailingSilence else {
            throw ValidationError("--final-sentence-silence takes seconds from 0.05 to --trailing-silence (\(trailingSilence))")
        }
        guard trailingSilence > 0.05, trailingSilence < 10 else {
            throw ValidationError("--trailing-silence must be between 0.05 and 10 seconds")
        }
        try checkSilence(freeTextEndSilence, of: "--free-text-end-silence")
        try checkSilence(completeSentenceSilence, of: "--complete-sentence-silence")
        guard unfinishedSentenceSilence == "off"
            || Double(unfinishedSentenceSilence).map({ $0 >= trailingSilence && $0 < 10 }) == true else {
            throw ValidationError("--unfinished-sentence-silence takes seconds from --trailing-silence (\(trailingSilence)) to 10, or 'off'")
        }
    }

    /// A shorter silence than the trailing one: seconds from 0.05 to
    /// --trailing-silence, or 'off'.
    private func checkSilence(_ value: String, of option: String) throws {
        guard value == "off" || Double(value).map({ $0 >= 0.05 && $0 <= trailingSilence }) == true else {
            throw ValidationError("\(option) takes seconds from 0.05 to --trailing-silence (\(trailingSilence)), or 'off'")
        }
    }

    /// The endpointer's settings.
    var configuration: EndpointerConfiguration {
        var configuration = EndpointerConfiguration()
        configuration.trailingSilence = trailingSilence
        configuration.completeSentenceSilence = completeSentenceSilence == "off" ? nil : Double(completeSentenceSilence)
        configuration.finalSentenceSilence = finalSentenceSilence
        configuration.freeTextEndSilence = freeTextEndSilence == "off" ? nil : Double(freeTextEndSilence)
        configuration.unfinishedSentenceSilence = unfinishedSentenceSilence == "off" ? nil : Double(unfinishedSentenceSilence)
        configuration.speechRange = speechRange == "off" ? nil : Double(speechRange)
        return configuration
    }
}
