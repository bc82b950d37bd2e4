import HarkGrammar
import HarkIntents

/// An app's own intent as its `Info.plist` declares it under `HarkIntents`
/// (SiriKit's custom intents): the parameters Hark resolves, what it asks
/// when one is missing, an optional confirmation, and the response
/// sentences. The sentences people say come from the app's `*.hark`
/// grammar; the declaration says how the conversation goes.
///
/// ```xml
/// <key>HarkIntents</key>
/// <dict>
///     <key>orderDrink</key>
///     <dict>
///         <key>Summary</key>      <string>Orders a drink.</string>
///         <key>Parameters</key>
///         <array>
///             <dict>
///                 <key>Name</key>     <string>size</string>
///                 <key>Required</key> <true/>
///                 <key>Prompt</key>   <string>What size would you like?</string>
///             </dict>
///         </array>
///         <key>Confirmation</key> <string>A {size} {coffeeDrink}. Shall I order it?</string>
///         <key>Responses</key>
///         <dict>
///             <key>Success</key> <string>Your {size} {coffeeDrink} is on its way.</string>
///             <key>Failure</key> <string>Sorry, I couldn't order that.</string>
///         </dict>
///     </dict>
/// </dict>
/// ```
public struct CustomIntentDeclaration: Sendable, Equatable {
    public struct Parameter: Sendable, Equatable {
        /// The grammar slot it is filled from (`{size}`).
        public var name: String
        /// Whether a missing value is asked for (by default resolution).
        public var required: Bool
        /// What Hark asks when the value is missing ("What size would you like?").
        public var prompt: String?

        public init(name: String, required: Bool = false, prompt: String? = nil) {
            self.name = name
            self.required = required
            self.prompt = prompt
        }
    }

    public var name: String
    public var summary: String?
    /// In the order they are resolved; slots not declared follow, optional.
    public var parameters: [Parameter]
    /// A yes/no question asked before handling, after the app's confirm answers `ready`.
    public var confirmation: String?
    /// Spoken on success when the app's response has no words of its own.
    public var success: String?
    /// Spoken on failure when the app's response has no words of its own.
    public var failure: String?

    public init(name: String, summary: String? = nil, parameters: [Parameter] = [], confirmation: String? = nil,
                success: String? = nil, failure: String? = nil) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.confirmation = confirmation
        self.success = success
        self.failure = failure
    }
}

/// How an app's intents are handled outside Hark's process: its
/// `Info.plist` key `HarkExtension` (see docs/apps.md).
public struct ExtensionDeclaration: Sendable, Equatable {
    /// The program and its arguments (`["python3", "extension.py"]`), run in
    /// the app's folder, never through a shell.
    public var command: [String]

    public init(command: [String]) {
        self.command = command
    }
}

extension InstalledApp {
    /// The app's own intents (those its grammars define), as the engine
    /// drives them: the declaration's parameters, prompts and sentences,
    /// and every other slot of the intent as an optional parameter.
    ///
    /// - Throws: ``CatalogError`` naming the `Info.plist` key path when a
    ///   declaration names an intent the app's grammars do not define, or a
    ///   parameter the intent's sentences have no slot for.
    public func describeCustomIntents() throws -> [String: IntentDescription] {
        let plist = "\(folder)/Info.plist"
        var definitions: [String: (GrammarFile, IntentDefinition)] = [:]
        for grammar in grammars {
            for intent in grammar.intents where definitions[intent.name] == nil {
                definitions[intent.name] = (grammar, intent)
            }
        }
        for name in info.customIntents.keys.sorted() where definitions[name] == nil {
            let known = definitions.keys.sorted()
            throw CatalogError("\(plist): HarkIntents.\(name): the app's grammars (*.hark in \(folder)) define no intent '\(name)'"
                + (known.isEmpty ? "; add one with 'intent \(name):'" : " (they define: \(known.joined(separator: ", ")))"))
        }
        var descriptions: [String: IntentDescription] = [:]
        for (name, (grammar, definition)) in definitions {
            let declaration = info.customIntents[name] ?? CustomIntentDeclaration(name: name)
            let slots = grammar.slotNames(of: definition).filter { $0 != Catalog.appSlot }
            var parameters: [ParameterDescription] = []
            for (i, parameter) in declaration.parameters.enumerated() {
                guard slots.contains(parameter.name) else {
                    throw CatalogError("\(plist): HarkIntents.\(name).Parameters[\(i)].Name: '\(parameter.name)' is not a slot of intent \(name) in \(grammar.path)"
                        + (slots.isEmpty ? " (it has no slots)" : " (its slots: \(slots.joined(separator: ", ")))"))
                }
                parameters.append(Self.parameter(parameter.name, in: grammar, required: parameter.required, prompt: parameter.prompt))
            }
            for slot in slots where !declaration.parameters.contains(where: { $0.name == slot }) {
                parameters.append(Self.parameter(slot, in: grammar, required: false, prompt: nil))
            }
            var examples = vocabulary?.intentPhrases.first { $0.intentName == name }?.examples ?? []
            if examples.isEmpty, let sample = grammar.sampleSentence(of: definition) { examples = [sample] }
            descriptions[name] = IntentDescription(
                name: name, domain: IntentDescription.customDomain, parameters: parameters,
                confirmation: declaration.confirmation,
                successSpeech: declaration.success ?? "Done.",
                failureSpeech: declaration.failure ?? "Sorry, {app} couldn't do that.",
                examples: examples, summary: declaration.summary ?? Self.phrase(name), isCustom: true)
        }
        return descriptions
    }

    static func parameter(_ name: String, in grammar: GrammarFile, required: Bool, prompt: String?) -> ParameterDescription {
        let kind: ParameterKind
        switch grammar.source(ofSlot: name) {
        case .text: kind = .text
        case .list(let list):
            if grammar.lists[list] == nil, let builtIn = SpokenValueType(rawValue: list) {
                kind = builtIn == .number ? .number : .builtIn(builtIn.rawValue)
            } else {
                kind = .vocabulary(list)
            }
        }
        return ParameterDescription(name: name, kind: kind, prompt: prompt ?? "What \(phrase(name)) would you like?",
                                    required: required, type: "String", documentation: "")
    }

    /// "orderDrink" → "order drink"; "numberOfShots" → "number of shots".
    public static func phrase(_ identifier: String) -> String {
        var words: [String] = []
        var current = ""
        for character in identifier {
            if character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            if character == "_" || character == "-" {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }.joined(separator: " ")
    }
}
