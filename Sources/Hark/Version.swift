/// Hark's version: `hark --version`, the man page and `hark bench`'s
/// report.json. Bumped by hand with each release (SwiftPM has no build step
/// that could read `git describe` without a plugin).
public enum HarkVersion {
    public static let number = "0.9.0"
}
