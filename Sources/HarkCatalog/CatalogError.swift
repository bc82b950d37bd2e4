/// A problem with an installed app or a domain grammar, naming the file and
/// key path or line.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
