import Foundation
import HarkGrammar

/// A request in which the person corrected themselves once — "video Bobo,
/// no wait, Bobo Jr., on MonkeyChat", "add mangoes to the banana stash, no,
/// papayas", "I want to FaceTime, I mean video chat, Little Bobo" —: the
/// words before the correction, and the correction with whatever follows
/// it. ``Assistant`` reads the request with the correction in place of
/// what it corrects (``candidates(basis:)``), or not at all.
struct SelfCorrection: Equatable {
    /// The text before the marker ("video Bobo"), and its words ("video bobo").
    var beforeText: String
    var before: [String]
    /// The words after it ("bobo jr on monkeychat"), leading hesitations
    /// and "I mean" dropped.
    var after: [String]
    /// The correction's own clause, when the text goes on after a clause
    /// break ("papayas" of "no, papayas, ListOMat"), and the rest ("listomat").
    var correction: [String]
    var rest: [String]

    /// The one self-correction in `text`, if it holds exactly one: a spoken
    /// marker ("no wait", "wait no", "actually no", "no actually", "sorry I
    /// mean", "no I mean", "I mean no") or, typed, a bare
    /// ", no,", ", sorry,", ", wait," (each perhaps with "I mean" after it)
    /// or ", I mean" after a comma: "request thirty, sorry, forty dollars".
    /// Two corrections, or a marker with nothing on either side, are not
    /// read.
    init?(_ text: String) {
        let range = NSRange(text.startIndex..., in: text)
        let matches = Self.marker.matches(in: text, range: range)
        guard matches.count == 1, let found = Range(matches[0].range, in: text) else { return nil }
        beforeText = String(text[..<found.lowerBound])
        before = TextParser.tokenize(beforeText)
        let tail = String(text[found.upperBound...])
        after = Self.withoutOpening(TextParser.tokenize(tail))
        guard !before.isEmpty, !after.isEmpty else { return nil }
        if let cut = Assistant.clauseBreaks(in: tail).first {
            correction = Self.withoutOpening(TextParser.tokenize(String(tail[..<cut.lowerBound])))
            rest = TextParser.tokenize(String(tail[cut.upperBound...]))
        } else {
            correction = after
            rest = []
        }
    }

    /// `text` with typed numbers, amounts and times in words ("$60," →
    /// "sixty dollars,", "9am" → "nine a m"), its punctuation kept: a
    /// correction is found and put in place among the words a reading
    /// holds ("request $60, actually no, make it $45": the amount read
    /// is "sixty dollars", and "$45" says "forty five dollars", not "45").
    static func numbersInWords(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { chunk -> String in
            let start = chunk.firstIndex { !"([\"'“".contains($0) } ?? chunk.endIndex
            let end = chunk.lastIndex { !".,;:!?)]\"'”…".contains($0) }.map { chunk.index(after: $0) } ?? chunk.endIndex
            guard start < end else { return String(chunk) }
            let core = chunk[start..<end]
            let opensNumber = core.first!.isASCII && core.first!.isNumber
                || ("$£€".contains(core.first!) && core.dropFirst().first.map { $0.isASCII && $0.isNumber } == true)
            guard opensNumber else { return String(chunk) }
            let said = SpokenForm.saidWords(of: String(core))
            guard !said.isEmpty else { return String(chunk) }
            return String(chunk[..<start]) + said.joined(separator: " ") + String(chunk[end...])
        }.joined(separator: " ")
    }

    /// `words` without the hesitations and "I mean" (or "make it", "make
    /// that") a correction opens with.
    private static func withoutOpening(_ words: [String]) -> [String] {
        let spoken = Array(words.drop(while: { TextParser.hesitations.contains($0) }))
        // "…, actually no, make it $45": "$45".
        for opening in [["i", "mean"], ["make", "it"], ["make", "that"]] where spoken.starts(with: opening) && (opening == ["i", "mean"] || spoken.count > 2) {
            return Array(spoken.dropFirst(2))
        }
        return spoken
    }

    /// The words that, typed bare between commas, mark a correction: "add
    /// mangoes, no, papayas", "request thirty, sorry, forty dollars".
    static let typedMarkers = ["no", "sorry", "wait"]

    /// The spoken markers, between any punctuation or none, and the typed
    /// ones that need their commas ("tell Bobo no, I can't come" says no).
    private static let marker: NSRegularExpression = {
        // ("Scratch that" takes back what was said: "…, scratch that, we're walking".)
        let spoken = ["no wait", "wait no", "actually no", "no actually", "sorry i mean", "no i mean", "i mean no"]
            .map { $0.split(separator: " ").joined(separator: "[\\s,.;:!?…-]+") }
        let pattern = "(?:^|[\\s,.;:!?…-]+)\\b(?:" + spoken.joined(separator: "|") + ")\\b[\\s,.;:!?…-]*"
            + "|,\\s*(?:" + typedMarkers.joined(separator: "|") + ")\\s*,\\s*(?:i mean\\b[\\s,]*)?|,\\s*i mean\\b[\\s,]*"
        return try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
    }()

    /// A reading of the request with the correction in place, and how many
    /// of the words before the marker it replaces.
    struct Candidate: Equatable {
        var words: [String]
        var replaced: Int
        /// Whether the correction starts again with the first word it replaces.
        var restarts = false
        /// Whether what it replaces looks like what replaces it: a value
        /// (not free text) ending in the word the correction ends in (an
        /// amount by an amount: "sixty dollars" by "forty five dollars"),
        /// or, read with no basis, as many last words as the correction
        /// has, ending alike ("nine a m" by "ten a m").
        var alike = false
        var text: String { words.joined(separator: " ") }
    }

    /// The ways the correction can stand in for what it corrects, fewest
    /// words replaced first (a slot's words before the tail's at the same
    /// count); those ``Candidate/alike`` before any, the whole value
    /// before a part ("ask Bobo for sixty dollars for the electric bill" +
    /// "forty five dollars": the amount, not the bill's last word; "at nine
    /// a m" + "ten a m": "nine a m", not "a m"). `basis` is how the words
    /// before the marker read on their own, when they do:
    /// - one of its slots' words replaced by the correction ("video bobo" +
    ///   "bobo jr on monkeychat"), or by the correction's own clause with
    ///   the rest of the text after all ("add mangoes to the banana stash" +
    ///   "papayas", "listomat"); free text's last words too ("remind me to
    ///   buy apples" + "pears");
    /// - the last words replaced by the correction, where it starts again
    ///   with the word it replaces ("… to my shopping note" + "to my house
    ///   note"); with no basis, the last one to six words whatever they are
    ///   ("add apples" + "pears to my grocery list"), those where it starts
    ///   again with the word it replaces first ("show me the training list"
    ///   + "the packing list": not "show me the training the packing list"),
    ///   all of them when it starts again from the first ("add eggs" + "add
    ///   oat milk to my list").
    func candidates(basis: Parse?) -> [Candidate] {
        var found: [Candidate] = []
        let spans = valueSpans(of: basis)
        for span in spans {
            // A list's value is replaced whole ("little bobo" by "bobo jr",
            // never "little bobo jr"); free text's last words too.
            for count in span.freeText ? Array(1...(span.end - span.start)) : [span.end - span.start] {
                var from = span.end - count
                // The correction may start again with the words before the
                // value ("the airport" + "to the train station").
                if from > 0, let lead = (1...min(3, from)).reversed().first(where: { after.starts(with: before[(from - $0)..<from]) }) {
                    from -= lead
                }
                let head = Array(before[..<from]), tail = Array(before[span.end...])
                let alike = !span.freeText && before[span.end - 1] == correction.last
                found.append(Candidate(words: head + after + tail, replaced: count, alike: alike && correction == after))
                if !rest.isEmpty, correction != after {
                    found.append(Candidate(words: head + correction + tail + rest, replaced: count, alike: alike))
                }
            }
        }
        if before.count > 1 {
            let listed = spans.filter { !$0.freeText }
            for count in 1...min(6, before.count) {
                let start = before.count - count
                guard basis == nil || after.first == before[start] else { continue }
                // All of it only when said again from its first word: "add
                // eggs" + "add oat milk to my list".
                guard start > 0 || after.first == before[0] else { continue }
                // Not from inside a list's value ("little bobo" + "bobo jr").
                guard !listed.contains(where: { $0.start < start && start < $0.end }) else { continue }
                // As many words as the correction, ending alike: "at nine a m" + "ten a m, to call Bobo".
                let alike = count == correction.count && before.last == correction.last
                found.append(Candidate(words: Array(before[..<start]) + after, replaced: count, restarts: after.first == before[start], alike: alike))
            }
        }
        var seen: Set<[String]> = []
        // (With a basis, every one of these starts again.)
        func rank(_ candidate: Candidate) -> Int { candidate.alike ? -1 : basis == nil && !candidate.restarts ? 1 : 0 }
        // Alike, the whole value before a part of it: "nine a m", not "a m", by "ten a m".
        func order(_ candidate: Candidate) -> Int { candidate.alike ? -candidate.replaced : candidate.replaced }
        return found.enumerated()
            .sorted { (rank($0.element), order($0.element), $0.offset) < (rank($1.element), order($1.element), $1.offset) }
            .map(\.element)
            .filter { seen.insert($0.words).inserted }
    }

    /// Where the values of `basis` lie among the words before the marker:
    /// each slot's words, and each run of slots next to one another ("twenty"
    /// "dollars": one amount).
    private func valueSpans(of basis: Parse?) -> [(start: Int, end: Int, freeText: Bool)] {
        let runs = (basis?.slots ?? []).compactMap { slot -> (start: Int, end: Int, freeText: Bool)? in
            let words = TextParser.tokenize(slot.raw)
            return before.lastIndex(ofRun: words).map { ($0, $0 + words.count, slot.isFreeText) }
        }.sorted { $0.start < $1.start }
        var spans: [(start: Int, end: Int, freeText: Bool)] = []
        for (i, run) in runs.enumerated() {
            spans.append(run)
            var end = run.end
            for next in runs[(i + 1)...] {
                guard next.start == end else { break }
                end = next.end
                spans.append((run.start, end, false))
            }
        }
        return spans
    }

    /// Whether the correction refuses rather than corrects: "…, no wait,
    /// don't, he's asleep", "…, hmm, no, not today".
    var refuses: Bool {
        let words = correction.drop(while: { TextParser.hesitations.contains($0) })
        guard let first = words.first else { return true }
        return Self.refusals.contains(first) || words.starts(with: ["do", "not"])
    }

    private static let refusals: Set<String> = ["don't", "dont", "not", "never", "forget", "cancel", "stop", "nothing", "no", "nah", "nope"]
}
