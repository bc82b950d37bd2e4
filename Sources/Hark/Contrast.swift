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
        for (pattern, keepsFollowing) in Self.patterns {
            for match in pattern.matches(in: text, range: range) {
                guard let whole = Range(match.range, in: text) else { continue }
                let setAside = match.range(at: 1).location == NSNotFound ? [] : Range(match.range(at: 1), in: text).map { TextParser.tokenize(String(text[$0])) } ?? []
                guard keepsFollowing || (1...5).contains(setAside.count), !Self.notAlternatives.contains(setAside.first ?? "") else { continue }
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
        "a", "an", "bad", "good", "right", "quite", "ever", "always", "again", "anymore", "any", "in", "on", "for", "with",
    ]

    /// The patterns, in the order tried, and whether what follows the cut
    /// is kept as part of the request (a time after "not until").
    private static let patterns: [(NSRegularExpression, Bool)] = {
        let clauseEnd = "(?=\\s*(?:[,;:.!?]|$))"
        let sources: [(String, Bool)] = [
            // "(not Bobo, Little Bobo)": the whole aside.
            ("\\s*\\(\\s*not\\s+([^(),]{1,40}),[^()]{1,40}\\)", false),
            // "…, but not until Friday evening": the time stays.
            (",?\\s*(?:but\\s+)?not\\s+until\\b()", true),
            // "Not the grocery list, the banana stash: …".
            ("^\\s*not\\s+([^,;:.!?()]{1,40}?)\\s*[,;:]\\s*", false),
            // "Pay Bobo Jr., not Bobo, $30", "…, not the shopping one".
            ("\\s*,\\s*(?:but\\s+)?not\\s+([^,;:.!?()]{1,40}?)" + clauseEnd, false),
            // "indoors rather than outdoors", "a Monkey Pool instead of a Jungle Limo".
            ("\\s+(?:rather\\s+than|instead\\s+of)\\s+([^,;:.!?()]{1,40}?)" + clauseEnd, false),
        ]
        return sources.map { (try! NSRegularExpression(pattern: $0.0, options: [.caseInsensitive]), $0.1) }
    }()
}
