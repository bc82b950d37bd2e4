/// A decoded WAV file: what its header declared and its audio as mono.
public struct WAVFile: Sendable, Equatable {
    /// The path or name the file was read from, for messages.
    public var name: String
    /// The format the file declared.
    public var format: WAVFormat
    /// The audio down-mixed to mono (the average of all channels) at the file's own rate.
    public var audio: PCMAudio

    /// A decoded file.
    public init(name: String, format: WAVFormat, audio: PCMAudio) {
        self.name = name
        self.format = format
        self.audio = audio
    }
}
