import Foundation
import HarkAudio

/// The audio of one user turn from a WAV file: decoded, down-mixed,
/// resampled to 16 kHz, and trimmed to the speech the endpointer finds, so
/// leading and trailing silence do not change what is heard.
public enum TurnAudio {
    /// `path` may be `-`: raw signed 16-bit little-endian mono PCM at 16 kHz
    /// on standard input.
    ///
    /// - Throws: ``AudioError`` naming the file when it cannot be used.
    public static func read(path: String, configuration: EndpointerConfiguration = EndpointerConfiguration()) throws -> [Int16] {
        let audio = path == "-"
            ? try PCMAudio.rawStandardInput()
            : try WAVReader.readForRecognition(contentsOf: path)
        return try samples(of: audio, configuration: configuration)
    }

    /// `audio` (16 kHz) trimmed to the speech the endpointer finds, as samples.
    public static func samples(of audio: PCMAudio, configuration: EndpointerConfiguration = EndpointerConfiguration()) throws -> [Int16] {
        // All of it when no speech is found, so a quiet speaker is still
        // decoded rather than dropped.
        (try Endpointer.trim(audio, configuration: configuration) ?? audio).int16Samples()
    }
}
