/// How ``Endpointer`` decides where utterances begin and end. Durations are
/// in seconds, levels in dB; negative or NaN durations count as zero.
public struct EndpointerConfiguration: Sendable, Equatable {
    /// Silence after speech that ends the utterance.
    public var trailingSilence: Double
    /// Silence after speech that ends the utterance when a streaming
    /// recognizer says what was heard is already a whole sentence of the
    /// grammar (grammar-aware endpointing); nil waits ``trailingSilence``
    /// always. Measured (docs/measurements.md, "Streaming"): long enough for a pause
    /// inside a sentence that happens to be complete so far to be rare,
    /// short enough to answer well before ``trailingSilence``.
    public var completeSentenceSilence: Double?
    /// The same for a sentence the grammar cannot continue ("cancel my
    /// ride"), where no later word can change the meaning: nil uses
    /// ``completeSentenceSilence``.
    public var finalSentenceSilence: Double?
    /// The same for a whole sentence ending in free text whose last words
    /// read as the end of a sentence (a streaming recognizer judges, by its
    /// dictation's language model): longer than ``completeSentenceSilence``,
    /// since a person dictating pauses more, shorter than
    /// ``trailingSilence``. nil waits ``trailingSilence`` whenever the
    /// sentence ends in free text.
    public var freeTextEndSilence: Double?
    /// Silence after speech that ends the utterance when a streaming
    /// recognizer says what was heard is the beginning of a sentence of the
    /// grammar and not yet a whole one ("send a message to …", "cancel my
    /// …"): the person cannot be done, and is pausing inside the sentence.
    /// Longer than ``trailingSilence``, which then ends only utterances
    /// that are whole sentences, or no sentence at all. nil, or no longer
    /// than ``trailingSilence``, waits ``trailingSilence`` always. A plain
    /// ``Endpointer`` has no recognizer and ignores it; ``LiveHearing``
    /// applies it.
    public var unfinishedSentenceSilence: Double?
    /// Audio kept before the detected start of speech, so soft onsets
    /// ("f", "h") reach the recognizer.
    public var leadingPadding: Double
    /// Audio kept after the detected end of speech, for soft endings.
    public var trailingPadding: Double
    /// Less speech than this in total is a click or a cough, not an utterance.
    public var minimumSpeech: Double
    /// An utterance is cut here even if speech goes on.
    public var maximumUtterance: Double
    /// How far above the noise floor a 10 ms frame's energy must be to count as speech.
    public var speechMargin: Double
    /// Once an utterance has begun, frames more than this many dB below its
    /// loudest 50 ms so far no longer continue it, even above the noise
    /// floor: the breath, the room's echo and the background after the last
    /// word are not speech going on, and a floor from the quietest moments
    /// sits well below them. For ``noiseWindow`` after an utterance, sound
    /// this far below its voice does not start a new one either. nil counts
    /// every frame above the floor.
    public var speechRange: Double?
    /// Frames quieter than this (dBFS) are never speech, whatever the noise
    /// floor; this keeps dither and faint hiss in digital silence out.
    public var minimumSpeechLevel: Double
    /// The noise floor is the lowest frame energy seen over this many
    /// seconds: long enough to span a sentence's pauses, short enough to
    /// follow a change of background.
    public var noiseWindow: Double

    /// A configuration; the defaults suit commands spoken to a microphone.
    public init(
        trailingSilence: Double = 0.8,
        completeSentenceSilence: Double? = 0.35,
        finalSentenceSilence: Double? = 0.2,
        freeTextEndSilence: Double? = 0.5,
        unfinishedSentenceSilence: Double? = 1.2,
        leadingPadding: Double = 0.3,
        trailingPadding: Double = 0.2,
        minimumSpeech: Double = 0.15,
        maximumUtterance: Double = 20,
        speechMargin: Double = 12,
        speechRange: Double? = 30,
        minimumSpeechLevel: Double = -60,
        noiseWindow: Double = 3
    ) {
        self.trailingSilence = trailingSilence
        self.completeSentenceSilence = completeSentenceSilence
        self.finalSentenceSilence = finalSentenceSilence
        self.freeTextEndSilence = freeTextEndSilence
        self.unfinishedSentenceSilence = unfinishedSentenceSilence
        self.leadingPadding = leadingPadding
        self.trailingPadding = trailingPadding
        self.minimumSpeech = minimumSpeech
        self.maximumUtterance = maximumUtterance
        self.speechMargin = speechMargin
        self.speechRange = speechRange
        self.minimumSpeechLevel = minimumSpeechLevel
        self.noiseWindow = noiseWindow
    }
}
