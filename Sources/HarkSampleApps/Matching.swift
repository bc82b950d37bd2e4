import Foundation
import HarkGrammar
import HarkIntents

/// How the sample apps find what the person named among their own names
/// (contacts, lists, tasks, workouts): the List-o-Mat rules.
///
/// - an exact match (same words) → `success`
/// - one partial match (the spoken words are part of one name) → `confirmationRequired`
/// - several partial matches → `disambiguation` (2 to 10, in the app's
///   order); more than 10 → `needsMoreDetails` (SiriKit offers at most 10)
/// - else, names that sound the same word for word ("by iphone" for "buy
///   iPhone"), or else that share a distinctive word ("my iphone"): one is
///   `confirmationRequired`, several a `disambiguation` — what a recognizer
///   hears in free text is often a homophone or a near miss, and the app
///   asks rather than failing
/// - none → `unsupported`, with `reason`
enum NameMatch {
    static func words(_ name: String) -> [String] { SpokenForm.words(of: name) }

    static func resolve(_ asked: String, among names: [String], none reason: String) -> Resolution<String> {
        let wanted = words(asked)
        guard !wanted.isEmpty else { return .needsValue }
        // Spaces are where a recognizer and a typist disagree most ("iphone",
        // "i phone"), so names compare as their letters run together.
        func letters(_ words: [String]) -> String { words.joined() }
        if let exact = names.first(where: { letters(words($0)) == letters(wanted) }) { return .success(with: exact) }
        var candidates = names.filter { name in
            let have = words(name)
            return Set(wanted).isSubset(of: Set(have)) || have.starts(with: wanted)
        }
        if candidates.isEmpty {
            let sound = soundKey(letters(wanted))
            candidates = names.filter { soundKey(letters(words($0))) == sound }
        }
        if candidates.isEmpty {
            let distinctive = wanted.filter(isDistinctive)
            candidates = names.filter { name in distinctive.contains { letters(words(name)).contains($0) } }
        }
        switch candidates.count {
        case 0: return .unsupported(reason: reason)
        case 1: return .confirmationRequired(with: candidates[0])
        case 2...10: return .disambiguation(with: candidates)
        default: return .needsMoreDetails
        }
    }

    /// American Soundex, not cut to four characters ("buyiphone" and
    /// "byiphone" are both B15).
    static func soundKey(_ word: String) -> String {
        let letters = Array(word.lowercased().filter { $0.isASCII && $0.isLetter })
        guard let first = letters.first else { return word }
        func digit(_ c: Character) -> Character? {
            switch c {
            case "b", "f", "p", "v": return "1"
            case "c", "g", "j", "k", "q", "s", "x", "z": return "2"
            case "d", "t": return "3"
            case "l": return "4"
            case "m", "n": return "5"
            case "r": return "6"
            default: return nil
            }
        }
        var key = String(first).uppercased()
        var last = digit(first)
        for c in letters.dropFirst() {
            let d = digit(c)
            if let d, d != last { key.append(d) }
            if c != "h" && c != "w" { last = d }
        }
        return key
    }

    /// Words that say which item is meant: not "the", "my", "list", ...
    static func isDistinctive(_ word: String) -> Bool {
        word.count >= 4 && !["list", "lists", "note", "notes", "task", "tasks", "that", "this", "with", "from", "your"].contains(word)
    }

    /// "apples bananas and pears" → ["apples", "bananas", "pears"]; "buy
    /// milk, walk the dog" → ["buy milk", "walk the dog"]. Commas are lost
    /// in speech, so a first part of several words before the last "and",
    /// with single-word parts after it, is read as a list of single words.
    static func splitTasks(_ text: String) -> [String] {
        let parts = text.replacingOccurrences(of: ",", with: " and ")
            .components(separatedBy: " and ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard parts.count >= 2, !text.contains(",") else { return parts }
        let tail = parts.dropFirst()
        if tail.allSatisfy({ !$0.contains(" ") }) {
            return parts[0].split(separator: " ").map(String.init) + tail
        }
        return parts
    }
}

extension Resolution where Value == String {
    /// The same resolution with each name made into another value.
    func map<T: ParameterConvertible>(_ transform: (String) -> T) -> Resolution<T> {
        switch self {
        case .success(let v): return .success(with: transform(v))
        case .confirmationRequired(let v): return .confirmationRequired(with: transform(v))
        case .disambiguation(let vs): return .disambiguation(with: vs.map(transform))
        case .needsValue: return .needsValue
        case .needsMoreDetails: return .needsMoreDetails
        case .notRequired: return .notRequired
        case .unsupported(let reason): return .unsupported(reason: reason)
        }
    }
}
