import HarkText

/// A problem with an installed app or a domain grammar, naming the file and
/// key path or line.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    public var description: String

    /// Control characters in `description` (from file names or file
    /// contents) are escaped, so the message is one harmless line.
    public init(_ description: String) {
        self.description = escapingControlCharacters(description)
    }
}
