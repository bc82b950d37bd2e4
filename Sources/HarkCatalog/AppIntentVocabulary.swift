import Foundation
import HarkText
import HarkIntents

/// An app's `<lang>.lproj/AppIntentVocabulary.plist`: the terms specific to
/// the app that every user may say (workout names, ride types, ...), and
/// example requests.
///
/// Each vocabulary item is heard as any of its synonyms' phrases (or their
/// pronunciation hints) and reaches the handler as the item's identifier.
public struct AppIntentVocabulary: Sendable, Equatable {
    /// One way of saying an item.
    public struct Synonym: Sendable, Equatable, Decodable {
        /// `VocabularyItemPhrase`: what the person says.
        public var phrase: String
        /// `VocabularyItemPronunciation`: a phonetic spelling ("ba nana ri fic").
        public var pronunciation: String?
        /// `VocabularyItemExamples`: requests that use the phrase.
        public var examples: [String]

        public init(phrase: String, pronunciation: String? = nil, examples: [String] = []) {
            self.phrase = phrase
            self.pronunciation = pronunciation
            self.examples = examples
        }

        enum CodingKeys: String, CodingKey {
            case phrase = "VocabularyItemPhrase"
            case pronunciation = "VocabularyItemPronunciation"
            case examples = "VocabularyItemExamples"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            phrase = try c.decode(String.self, forKey: .phrase)
            pronunciation = try c.decodeIfPresent(String.self, forKey: .pronunciation)
            examples = try c.decodeIfPresent([String].self, forKey: .examples) ?? []
        }
    }

    /// One term: its identifier and the ways of saying it.
    public struct Item: Sendable, Equatable, Decodable {
        /// `VocabularyItemIdentifier`: the value the handler receives.
        public var identifier: String
        /// `VocabularyItemSynonyms`.
        public var synonyms: [Synonym]

        public init(identifier: String, synonyms: [Synonym]) {
            self.identifier = identifier
            self.synonyms = synonyms
        }

        enum CodingKeys: String, CodingKey {
            case identifier = "VocabularyItemIdentifier"
            case synonyms = "VocabularyItemSynonyms"
        }
    }

    /// The parameter an entry of `ParameterNames` names: `INStartWorkoutIntent.workoutName`.
    public struct Parameter: Sendable, Hashable, CustomStringConvertible {
        public var intent: String
        public var name: String

        public init(intent: String, name: String) {
            self.intent = intent
            self.name = name
        }

        public var description: String { "\(intent).\(name)" }
    }

    /// One entry of `ParameterVocabularies`.
    public struct ParameterVocabulary: Sendable, Equatable {
        /// `ParameterNames`.
        public var parameters: [Parameter]
        /// `ParameterVocabulary`.
        public var items: [Item]

        public init(parameters: [Parameter], items: [Item]) {
            self.parameters = parameters
            self.items = items
        }
    }

    /// One entry of `IntentPhrases`.
    public struct IntentPhrase: Sendable, Equatable, Decodable {
        /// `IntentName`.
        public var intentName: String
        /// `IntentExamples`.
        public var examples: [String]

        public init(intentName: String, examples: [String]) {
            self.intentName = intentName
            self.examples = examples
        }

        enum CodingKeys: String, CodingKey {
            case intentName = "IntentName"
            case examples = "IntentExamples"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            intentName = try c.decode(String.self, forKey: .intentName)
            examples = try c.decodeIfPresent([String].self, forKey: .examples) ?? []
        }
    }

    public var parameterVocabularies: [ParameterVocabulary]
    public var intentPhrases: [IntentPhrase]

    public init(parameterVocabularies: [ParameterVocabulary] = [], intentPhrases: [IntentPhrase] = []) {
        self.parameterVocabularies = parameterVocabularies
        self.intentPhrases = intentPhrases
    }

    /// Reads an `AppIntentVocabulary.plist` (XML or binary).
    ///
    /// - Throws: ``CatalogError`` naming the file and key path at fault, e.g.
    ///   `ParameterVocabularies[0].ParameterNames[1]: 'workoutName' is not
    ///   IntentName.parameterName`.
    public init(contentsOf path: String) throws {
        let plist = try PropertyListFile.decode(Plist.self, at: path)
        var vocabularies: [ParameterVocabulary] = []
        for (i, entry) in (plist.parameterVocabularies ?? []).enumerated() {
            let at = "ParameterVocabularies[\(i)]"
            var parameters: [Parameter] = []
            for (j, name) in entry.parameterNames.enumerated() {
                let parts = name.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw CatalogError("\(path): \(at).ParameterNames[\(j)]: '\(name)' is not IntentName.parameterName (e.g. INStartWorkoutIntent.workoutName)")
                }
                let parameter = Parameter(intent: String(parts[0]), name: String(parts[1]))
                // A SiriKit intent's parameters are known; an app's custom intent's are its grammar's.
                if let description = Domains.all[parameter.intent], !description.parameters.contains(where: { $0.name == parameter.name }) {
                    throw CatalogError("\(path): \(at).ParameterNames[\(j)]: '\(name)' is not a parameter of \(parameter.intent) (its parameters: \(description.parameters.map(\.name).joined(separator: ", ")))")
                }
                parameters.append(parameter)
            }
            for (j, item) in entry.items.enumerated() {
                guard !item.synonyms.isEmpty else {
                    throw CatalogError("\(path): \(at).ParameterVocabulary[\(j)].VocabularyItemSynonyms: needs at least one synonym")
                }
                for (k, synonym) in item.synonyms.enumerated()
                where synonym.phrase.trimmingCharacters(in: .whitespaces).isEmpty {
                    throw CatalogError("\(path): \(at).ParameterVocabulary[\(j)].VocabularyItemSynonyms[\(k)].VocabularyItemPhrase: must not be empty")
                }
                for (k, synonym) in item.synonyms.enumerated() {
                    if let bad = firstDisallowedNameCharacter(in: synonym.phrase) {
                        throw CatalogError("\(path): \(at).ParameterVocabulary[\(j)].VocabularyItemSynonyms[\(k)].VocabularyItemPhrase: '\(escapingDisallowedNameCharacters(synonym.phrase))' contains \(scalarName(bad)); a vocabulary value may not hold control, bidirectional-override or zero-width characters")
                    }
                }
            }
            vocabularies.append(ParameterVocabulary(parameters: parameters, items: entry.items))
        }
        parameterVocabularies = vocabularies
        intentPhrases = plist.intentPhrases ?? []
    }

    /// The items for `parameter` of `intent`, in the file's order.
    public func items(intent: String, parameter: String) -> [Item] {
        let wanted = Parameter(intent: intent, name: parameter)
        return parameterVocabularies.filter { $0.parameters.contains(wanted) }.flatMap(\.items)
    }

    /// Every example request in the file: the intent phrases' and the synonyms'.
    public var examples: [String] {
        intentPhrases.flatMap(\.examples)
            + parameterVocabularies.flatMap { $0.items.flatMap { $0.synonyms.flatMap(\.examples) } }
    }

    private struct Plist: Decodable {
        var parameterVocabularies: [Entry]?
        var intentPhrases: [IntentPhrase]?

        enum CodingKeys: String, CodingKey {
            case parameterVocabularies = "ParameterVocabularies"
            case intentPhrases = "IntentPhrases"
        }
    }

    private struct Entry: Decodable {
        var parameterNames: [String]
        var items: [Item]

        enum CodingKeys: String, CodingKey {
            case parameterNames = "ParameterNames"
            case items = "ParameterVocabulary"
        }
    }
}
