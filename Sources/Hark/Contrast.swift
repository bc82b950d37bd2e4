import Foundation
import HarkGrammar

/// An alternative the person sets aside inside the request itself, and the
/// request without it:
/// - "Pay Bobo Jr., not Bobo, $30 on MonkeyPay" → "Pay Bobo Jr., $30 on MonkeyPay";
/// - "Not the grocery list, the banana stash: add peanut butter to it" →
///   "the banana stash: add peanut butter to it";
/// - "text Little Bobo (not Bobo, Little Bobo) that …" → "text Little Bobo that …";
/// - "Start a Bananarific, indoors rather than outdoors" → "…, indoors";
/// - "remind me to water the plants, but not until Friday evening" →
///   "remind me to water the plants Friday evening".
///
/// ``Assistant`` reads the request without the alternative first, and takes
/// that reading unless it dictates words up to where the alternative was
/// ("tell Bobo I'm fine, not sick" says all of it).
struct Contrast: Equatable {
    /// The request without the alternative.
    var text: String
    /// The words set aside ("bobo", "the grocery list").
    var setAside: [String]
    /// The words of the request before the cut, as read.
    var before: [String]

    /// The first contrast in `text`, if any: the set-aside words one to
    /// five words long.
    init?(_ text: String) {
        let range = NSRange(text.startIndex..., in: text)
        if let redone = Self.doneOtherwise(text, range: range) {
            self = redone
            return
        }
        for (pattern, keepsFollowing) in Self.patterns {
            for match in pattern.matches(in: text, range: range) {
                guard let whole = Range(match.range, in: text) else { continue }
                let setAside = match.range(at: 1).location == NSNotFound ? [] : Range(match.range(at: 1), in: text).map { TextParser.tokenize(String(text[$0])) } ?? []
                guard keepsFollowing || (1...5).contains(setAside.count), !Self.notAlternatives.contains(setAside.first ?? ""),
                      !Self.notAlternativeRuns.contains(where: setAside.starts(with:)) else { continue }
                let head = String(text[..<whole.lowerBound]), tail = String(text[whole.upperBound...])
                let joined = (head + (keepsFollowing ? " " : "") + tail).trimmingCharacters(in: .whitespaces)
                guard !TextParser.tokenize(joined).isEmpty else { continue }
                self.text = joined
                self.setAside = setAside
                self.before = TextParser.tokenize(head)
                return
            }
        }
        return nil
    }

    /// Words after "not" that say how, not which: "not now", "not sure".
    private static let notAlternatives: Set<String> = [
        "now", "yet", "sure", "really", "too", "very", "so", "that", "to", "only", "just", "even", "much", "at", "all",
        "bad", "good", "right", "quite", "ever", "always", "again", "anymore", "any", "in", "on", "for", "with",
    ]

    /// Runs after "not" that say how, not which: "not a problem", "not a lot".
    private static let notAlternativeRuns: [[String]] = [
        ["a", "problem"], ["a", "lot"], ["a", "bit"], ["a", "big"], ["a", "chance"], ["a", "word"], ["a", "thing"], ["a", "fan"],
        ["a", "good"], ["a", "great"], ["a", "huge"], ["a", "single"], ["an", "issue"], ["an", "option"], ["a", "good", "idea"],
    ]

    /// A thing the person says not to do, then how to do it instead, with
    /// the same verb: "don't mark Bobo's messages as read, mark them as
    /// unread" → "mark Bobo's messages as unread"; "don't add it to the
    /// grocery list, add it to the banana stash" → "add it to the banana
    /// stash". A pronoun in the second ("them") stands for the first's words
    /// up to where the two part. Nothing is set aside as a value: a message
    /// or note that dictates the verb after the cut keeps all of it ("tell
    /// Bobo don't wait up, wait at the station").
    private static func doneOtherwise(_ text: String, range: NSRange) -> Contrast? {
        guard let match = doneOtherwisePattern.firstMatch(in: text, range: range),
              let whole = Range(match.range, in: text), let first = Range(match.range(at: 1), in: text),
              let second = Range(match.range(at: 3), in: text) else { return nil }
        let undone = TextParser.tokenize(String(text[first])), done = TextParser.tokenize(String(text[second]))
        var words = done
        if done.count >= 3, undone.count >= 3, pronouns.contains(done[1]),
           let part = undone.indices.dropFirst(2).first(where: { undone[$0] == done[2] }) {
            words = Array(undone[..<part]) + done.dropFirst(2)
        }
        let head = String(text[..<whole.lowerBound]).trimmingCharacters(in: .whitespaces)
        let joined = ([head] + words + [String(text[whole.upperBound...])]).filter { !$0.isEmpty }.joined(separator: " ")
        return Contrast(text: joined, setAside: [], before: TextParser.tokenize(head))
    }

    private init(text: String, setAside: [String], before: [String]) {
        self.text = text
        self.setAside = setAside
        self.before = before
    }

    private static let pronouns: Set<String> = ["it", "them", "those", "these", "this", "that", "him", "her"]

    /// "don't <verb> …, [but | just | instead] <the same verb> …", each to its clause's end.
    private static let doneOtherwisePattern = try! NSRegularExpression(
        pattern: "(?:^|(?<=[,.;:!?]))\\s*(?:don['’]?t|do\\s+not)\\s+(([a-z]+)\\b[^,;.!?]{1,60}?)\\s*[,;]\\s*(?:but\\s+|just\\s+|instead\\s+|rather\\s+)?(\\2\\b[^,;.!?]*)",
        options: [.caseInsensitive])

    /// The patterns, in the order tried, and whether what follows the cut
    /// is kept as part of the request (a time after "not until").
    private static let patterns: [(NSRegularExpression, Bool)] = {
        let clauseEnd = "(?=\\s*(?:[,;:.!?]|$))"
        let sources: [(String, Bool)] = [
            // "(not Bobo, Little Bobo)": the whole aside.
            ("\\s*\\(\\s*not\\s+([^(),]{1,40}),[^()]{1,40}\\)", false),
            // "…, but not until Friday evening": the time stays.
            (",?\\s*(?:but\\s+)?not\\s+until\\b()", true),
            // "Not the grocery list, the banana stash: …"; "What's my balance? Not checking, the savings account".
            ("(?:^|(?<=[.?!;]))\\s*not\\s+([^,;:.!?()]{1,40}?)\\s*[,;:]\\s*", false),
            // "Pay Bobo Jr., not Bobo, $30", "…, not the shopping one".
            ("\\s*,\\s*(?:but\\s+)?not\\s+([^,;:.!?()]{1,40}?)" + clauseEnd, false),
            // "indoors rather than outdoors", "a Monkey Pool instead of a Jungle Limo".
            ("\\s+(?:rather\\s+than|instead\\s+of)\\s+([^,;:.!?()]{1,40}?)" + clauseEnd, false),
        ]
        return sources.map { (try! NSRegularExpression(pattern: $0.0, options: [.caseInsensitive]), $0.1) }
    }()
}
