import ArgumentParser
import Foundation
import Hark
import HarkCatalog

/// "Did you mean ...?" for misspelt subcommands and app names, and the
/// installed app names shell completion offers.
enum Suggestions {
    /// The candidates closest to `word` (case-insensitive edit distance of at
    /// most a third of its length, at least 1 and at most 3), nearest first.
    static func nearest(to word: String, in candidates: [String]) -> [String] {
        let limit = min(3, max(1, word.count / 3))
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        guard let best = scored.map(\.1).min() else { return [] }
        return scored.filter { $0.1 == best }.map(\.0)
    }

    /// " (did you mean 'x'?)", or "" when nothing is close.
    static func didYouMean(_ word: String, in candidates: [String]) -> String {
        let close = nearest(to: word, in: candidates)
        guard !close.isEmpty else { return "" }
        return "; did you mean \(close.map { "'\($0)'" }.joined(separator: " or "))?"
    }

    /// Edit distance over characters: insertions, deletions, substitutions
    /// and transpositions of neighbours ("jsfg" is one edit from "jsgf").
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// Walks `arguments` down the command tree; when a word stands where
    /// only a subcommand may, and it names none, prints
    /// `hark: error: unknown command 'replai'; did you mean 'replay'?` and
    /// exits 64 (as argument-parser does for other usage errors).
    static func checkSubcommand(of root: any ParsableCommand.Type, in arguments: [String]) {
        var command: any ParsableCommand.Type = root
        var path = [name(of: root)]
        for word in arguments {
            if word == "--" || word.hasPrefix("-") { return }
            let subcommands: [any ParsableCommand.Type] = command.configuration.subcommands
            guard !subcommands.isEmpty else { return }
            if let next = subcommands.first(where: { names(of: $0).contains(word) }) {
                command = next
                path.append(name(of: next))
                continue
            }
            if word == "help" { return }
            // A group with a default subcommand passes the word on to it;
            // only a word close to a subcommand's name is taken as a typo.
            let hint = didYouMean(word, in: subcommands.map { name(of: $0) })
            if command.configuration.defaultSubcommand != nil, hint.isEmpty { return }
            let message = "hark: error: unknown command '\(word)'\(hint) (see `\(path.joined(separator: " ")) --help`)\n"
            FileHandle.standardError.write(Data(message.utf8))
            exit(64)
        }
    }

    /// A command's name as typed.
    static func name(of command: any ParsableCommand.Type) -> String {
        let configuration = command.configuration
        if let name = configuration.commandName { return name }
        return String(describing: command).lowercased()
    }

    /// A command's name and aliases.
    static func names(of command: any ParsableCommand.Type) -> [String] {
        [name(of: command)] + command.configuration.aliases
    }

    /// The bundle names of the apps in `--apps DIR` when the command line
    /// being completed has one, else in the installed models: the values
    /// shell completion offers for an app name.
    static func installedAppNames(_ arguments: [String]) -> [String] {
        var folder = (Resources.modelsDirectory() as NSString).appendingPathComponent("apps")
        if let i = arguments.firstIndex(of: "--apps"), i + 1 < arguments.count { folder = arguments[i + 1] }
        return appNames(in: folder)
    }

    /// The bundle names (CFBundleName) of the apps in `folder`, sorted.
    static func appNames(in folder: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.sorted().compactMap { name -> String? in
            let plist = ((folder as NSString).appendingPathComponent(name) as NSString).appendingPathComponent("Info.plist")
            return FileManager.default.fileExists(atPath: plist) ? try? AppInfo(contentsOf: plist).bundleName : nil
        }
    }
}
