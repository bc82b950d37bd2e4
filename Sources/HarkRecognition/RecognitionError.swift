/// Everything that can go wrong in recognition, saying what and where and
/// what to do about it.
public struct RecognitionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    static func missingModel(_ path: String, _ detail: String) -> RecognitionError {
        RecognitionError("no acoustic model at '\(path)': \(detail) (install Debian's pocketsphinx-en-us, or pass --model DIR with an acoustic model folder holding mdef, means, variances, transition_matrices and feat.params)")
    }
}
