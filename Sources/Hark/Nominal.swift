import Foundation
import HarkGrammar

/// A request said as the thing wanted rather than as an order, and the
/// orders it may stand for:
/// - "A Jungle Limo for four to the river with MonkeyRide is what we need" →
///   "get me a Jungle Limo for four to the river with MonkeyRide", …;
/// - "Bobo's messages flagged in MonkeyChat, please" → "flag Bobo's messages
///   in MonkeyChat, please";
/// - "Coconuts and mangoes onto the banana stash in List-o-Mat" → "add
///   coconuts and mangoes to the banana stash in List-o-Mat";
/// - "Time for an indoor Bananarific workout in MonkeyFit" → "start an indoor
///   Bananarific workout in MonkeyFit".
///
/// ``Assistant`` reads these only when the request reads as nothing as
/// said, and names its app: "a pizza with extra cheese" is no request to
/// anyone, and a statement ("my MonkeyFit workout was cancelled") keeps its
/// verb and is no nominal request.
enum Nominal {
    /// An order a nominal request may stand for.
    struct Order: Equatable {
        /// The order ("get me a Jungle Limo …").
        var text: String
        /// The words of the thing wanted, in it ("a jungle limo …").
        var thing: [String]
        /// Whether it adds what was said onto a list ("Coconuts … onto the
        /// banana stash"): its first words are the items, free text.
        var addsItems = false
    }

    /// The orders `text` may stand for, the likeliest first; empty when it
    /// opens as a sentence with a verb of its own or a question does.
    static func orders(for text: String) -> [Order] {
        orderTexts(for: text).map { verb, thing, adds in
            Order(text: verb + " " + thing, thing: TextParser.tokenize(thing), addsItems: adds)
        }
    }

    private static func orderTexts(for text: String) -> [(String, String, Bool)] {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for pattern in needs {
            let range = NSRange(text.startIndex..., in: text)
            text = pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "")
        }
        // "Time for a Bananarific", "how about a Jungle Limo": the thing after it.
        if let opener = openers.first(where: { TextParser.tokenize(text).starts(with: $0) }),
           let cut = text.range(of: opener.joined(separator: " "), options: [.caseInsensitive, .anchored]) {
            text = String(text[cut.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
        guard let first = TextParser.tokenize(text).first, !notNominal.contains(first) else { return [] }
        // "My MonkeyFit workout was cancelled": a statement, not a thing wanted (before any colon: a message's words may say anything).
        // Nor one with a subject ("… but I haven't the faintest idea"), nor a long one.
        let told = TextParser.tokenize(String(text.prefix { $0 != ":" }))
        guard told.count <= 25, !told.contains(where: { statements.contains($0) || subjects.contains($0) }) else { return [] }
        // A passive: "Bobo's messages flagged in MonkeyChat" → "flag Bobo's messages in MonkeyChat".
        let spelled = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if let index = spelled.indices.dropFirst().first(where: { participles[bare(spelled[$0])] != nil }),
           let verb = participles[bare(spelled[index])] {
            // Not "Bobo got paid", "Bobo just sent the funniest voice note": a
            // participle after a subject's verb or an adverb, or before an
            // object, tells of what was done.
            guard !spelled[..<index].contains(where: { auxiliaries.contains(bare($0)) }),
                  !spelled.dropFirst(index + 1).prefix(1).contains(where: { objects.contains(bare($0)) }) else { return [] }
            let thing = lowered(spelled[..<index].joined(separator: " "))
            return [(verb, ([thing] + spelled[(index + 1)...]).joined(separator: " "), false)]
        }
        let thing = lowered(text)
        // "Coconuts and mangoes onto the banana stash".
        if thing.range(of: "\\b(onto|into)\\b", options: .regularExpression) != nil {
            return [("add", thing.replacingOccurrences(of: "\\b(onto|into)\\b", with: "to", options: .regularExpression), true)]
        }
        // Otherwise a thing said with its article ("a Jungle Limo …", "the
        // status of …", "my contact QR code …") or a payment's noun: the
        // verbs a request for it may have left out, in turn.
        guard let opening = TextParser.tokenize(text).first, thingOpeners.contains(opening) else { return [] }
        return verbs.map { ($0, thing, false) }
    }

    /// A word without the punctuation typed around it, in lower case.
    private static func bare(_ word: String) -> String {
        word.lowercased().trimmingCharacters(in: .punctuationCharacters)
    }

    /// `text` with its first letter in lower case, unless it is a name ("Bobo's").
    private static func lowered(_ text: String) -> String {
        guard let first = text.split(separator: " ").first, thingOpeners.union(["new"]).contains(bare(String(first)))
            || first.allSatisfy({ $0.isLowercase || !$0.isLetter }) else { return text }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// What says the thing is wanted, after it: "… is what I need", "… needed", "… would be great".
    private static let needs: [NSRegularExpression] = [
        ",?\\s+(?:is|are)\\s+(?:what|all)\\s+(?:i|we)\\s+(?:need|want|'d like|would like)(?=\\s*[.!?]*\\s*$)",
        ",?\\s+(?:is\\s+|are\\s+)?(?:needed|wanted|required)(?:\\s*,?\\s*please)?(?=\\s*[.!?]*\\s*$)",
        ",?\\s+would\\s+be\\s+(?:great|good|nice|lovely|perfect|appreciated)(?=\\s*[.!?]*\\s*$)",
    ].map { try! NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }

    /// Words before the thing wanted.
    private static let openers: [[String]] = [["time", "for"], ["how", "about"], ["what", "about"]]

    /// The verbs tried before the thing wanted, in turn.
    private static let verbs = ["send", "start", "get me", "show me", "create", "make", "book", "put"]

    /// Participles of a passive request, and the order each stands for.
    private static let participles: [String: String] = [
        "marked": "mark", "flagged": "flag", "unflagged": "unflag", "deleted": "delete", "added": "add", "sent": "send",
        "paid": "pay", "booked": "book", "cancelled": "cancel", "canceled": "cancel", "ended": "end", "started": "start",
        "paused": "pause", "resumed": "resume", "transferred": "transfer", "requested": "request", "created": "create",
        "moved": "move", "checked": "check", "ticked": "tick",
    ]

    /// Words that make the participle tell of something done ("I flagged", "got cancelled", "just sent").
    private static let auxiliaries: Set<String> = [
        "got", "been", "be", "get", "gets", "i", "we", "you", "he", "she", "they", "just", "already", "never", "finally", "also", "still",
    ]

    /// Words after a verb that make it active, with an object ("sent the …").
    private static let objects: Set<String> = ["the", "a", "an", "my", "me", "him", "her", "us", "them", "his", "it", "that", "this", "some"]

    /// How a thing wanted opens.
    private static let thingOpeners: Set<String> = [
        "a", "an", "the", "my", "our", "some", "another", "one", "two", "three", "four", "five", "payment", "transfer", "money",
    ]

    private static let subjects: Set<String> = ["i", "i'm", "i've", "i'd", "i'll", "we", "we're", "we've", "you", "you're", "he", "she", "they", "it's", "he's", "she's", "they're"]

    /// Verbs that make the sentence tell of something ("… was cancelled", "… is late").
    private static let statements: Set<String> = [
        "was", "were", "is", "are", "has", "have", "had", "will", "won't", "isn't", "wasn't", "did", "never", "always", "just", "already",
        "because", "it", "again",
    ]

    /// First words of a sentence that is no nominal request: a verb, a
    /// question, a person telling something.
    private static let notNominal: Set<String> = [
        "i", "i'm", "i've", "i'd", "i'll", "we", "we're", "you", "he", "she", "they", "it", "it's", "this", "that", "there", "there's",
        "can", "could", "would", "will", "should", "shall", "do", "does", "did", "is", "are", "was", "were", "what", "what's",
        "where", "where's", "how", "why", "when", "who", "which", "please", "let", "let's", "don't", "not", "no", "yes",
    ]
}
