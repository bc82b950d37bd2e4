import HarkIntents

/// What an arc of the intent graph does.
public enum ArcLabel: Hashable, Sendable {
    /// Consumes nothing.
    case epsilon
    /// Consumes one spoken word.
    case word(String)
    /// Consumes any one word: a free-text (dictation) slot.
    case anyWord
    /// Consumes one typed word of a name the slot's list does not have
    /// ("Zuzu", typed with a capital), for a slot of people's names: what
    /// a typed request says, as SiriKit hands an app any name said. Typed
    /// text only: a recognizer hears no name it has no words for, and
    /// leaves these arcs out.
    case typedName
    /// Consumes any one typed word: free text a `{slot or typed text}`
    /// takes in typed requests only; a recognizer leaves these arcs out.
    case typedWord
    /// Consumes this word in typed text only (`(typed: ...)`); a
    /// recognizer leaves these arcs out.
    case typedOnlyWord(String)
    /// Marks the start of an app's intent.
    case beginIntent(app: String, intent: String)
    /// Marks the start of a slot's words.
    case beginSlot(String)
    /// Marks the end of a slot's words.
    case endSlot(String)
    /// The canonical value of the words that follow in the current slot.
    case value(String)

    /// Whether following the arc consumes a word.
    public var consumesWord: Bool {
        switch self {
        case .word, .anyWord, .typedName, .typedWord, .typedOnlyWord: return true
        default: return false
        }
    }

    /// Whether the arc reads typed text only: no recognizer hears it.
    public var isTypedOnly: Bool {
        switch self {
        case .typedName, .typedWord, .typedOnlyWord: return true
        default: return false
        }
    }
}

/// One arc of the intent graph.
public struct Arc: Hashable, Sendable {
    public var to: Int
    public var label: ArcLabel
}

/// The compiled grammar of every installed app: one word graph that both the
/// recognizer (as a finite-state grammar) and the text parser walk, so the
/// recognizer can only hear sentences the parser understands.
///
/// States are numbered from 0; ``start`` is the entry, and each
/// (app, intent) has its own final state so that parses of different intents
/// never merge.
public struct IntentGraph: Sendable {
    /// Outgoing arcs per state.
    public internal(set) var arcs: [[Arc]]
    public internal(set) var start: Int
    /// Final states, each belonging to one app and intent.
    public internal(set) var finals: [Int: IntentKey]
    /// Every word a `.word` arc consumes.
    public internal(set) var vocabulary: Set<String>
    /// How many arcs the graph has, all states together.
    public internal(set) var arcCount: Int

    /// Whether some slot takes free text.
    public var hasFreeText: Bool { arcs.contains { $0.contains { $0.label == .anyWord } } }

    public var stateCount: Int { arcs.count }

    init() {
        arcs = []
        start = 0
        finals = [:]
        vocabulary = []
        arcCount = 0
    }

    mutating func addState() -> Int {
        arcs.append([])
        return arcs.count - 1
    }

    mutating func addArc(from: Int, to: Int, _ label: ArcLabel) {
        arcs[from].append(Arc(to: to, label: label))
        arcCount += 1
        if case .word(let w) = label { vocabulary.insert(w) }
    }
}

