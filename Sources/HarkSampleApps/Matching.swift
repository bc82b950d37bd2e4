import Foundation
import HarkGrammar
import HarkIntents

/// How the sample apps find what the person named among their own names
/// (contacts, lists, tasks, workouts): the List-o-Mat rules.
///
/// - an exact match (same words) → `success`
/// - one partial match (the spoken words are part of one name) → `confirmationRequired`
/// - several partial matches → `disambiguation` (at most 10, in the app's order)
/// - none → `unsupported`, with `reason`
enum NameMatch {
    static func words(_ name: String) -> [String] { SpokenForm.words(of: name) }

    static func resolve(_ asked: String, among names: [String], none reason: String) -> Resolution<String> {
        let wanted = words(asked)
        guard !wanted.isEmpty else { return .needsValue }
        if let exact = names.first(where: { words($0) == wanted }) { return .success(with: exact) }
        let candidates = names.filter { name in
            let have = words(name)
            return Set(wanted).isSubset(of: Set(have)) || have.starts(with: wanted)
        }
        switch candidates.count {
        case 0: return .unsupported(reason: reason)
        case 1: return .confirmationRequired(with: candidates[0])
        default: return .disambiguation(with: Array(candidates.prefix(10)))
        }
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
