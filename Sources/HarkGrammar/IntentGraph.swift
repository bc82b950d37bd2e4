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
///
/// The sample apps' graph has about 53,000 states and 72,000 arcs, held for
/// as long as the assistant runs (the text parser walks it). Held as an
/// array of arrays of ``Arc`` it took about 6 MB: a heap object per state and
/// 48 bytes per arc. It is kept as one table of 8-byte arcs (target state and
/// the index of their label among the graph's distinct labels), each state's
/// arcs in a row, in the order they were added; ``arcs`` reads it as before.
public struct IntentGraph: Sendable {
    /// An arc as stored: its target and the index of its label in ``labels``.
    struct PackedArc: Sendable {
        var to: Int32
        var label: Int32
    }

    /// Every state's arcs, one state after another (once ``seal()``ed).
    private var table: [PackedArc] = []
    /// Where each state's arcs start in ``table``; one more entry than states.
    private var firstArc: [Int32] = [0]
    /// The graph's distinct arc labels.
    private var labels: [ArcLabel] = []

    // While the graph is built: arcs in the order added, and each label's index.
    private var pendingFrom: [Int32] = []
    private var pending: [PackedArc] = []
    private var labelIndex: [ArcLabel: Int32] = [:]
    private var states = 0
    /// While the graph is built: which of ``pending`` are heard only.
    private var pendingHeardOnly: [Int] = []
    /// Where in ``table`` the heard-only word arcs (`(heard: ...)`) lie:
    /// `.word` arcs a recognizer hears and typed text does not read.
    private var heardOnlyArcs: Set<Int32> = []

    public internal(set) var start: Int
    /// Final states, each belonging to one app and intent.
    public internal(set) var finals: [Int: IntentKey]
    /// Every word a `.word` arc consumes.
    public internal(set) var vocabulary: Set<String>

    /// Outgoing arcs per state: `arcs[state]` is that state's arcs, in the
    /// order they were added.
    public var arcs: StateArcs {
        precondition(firstArc.count == states + 1, "an intent graph is read once sealed")
        return StateArcs(table: table, firstArc: firstArc, labels: labels)
    }

    /// How many arcs the graph has, all states together.
    public var arcCount: Int { table.count + pending.count }

    /// Whether some slot takes free text.
    public var hasFreeText: Bool { labels.contains(.anyWord) }

    public var stateCount: Int { states }

    init() {
        start = 0
        finals = [:]
        vocabulary = []
    }

    mutating func addState() -> Int {
        states += 1
        return states - 1
    }

    mutating func addArc(from: Int, to: Int, _ label: ArcLabel) {
        let index: Int32
        if let known = labelIndex[label] {
            index = known
        } else {
            index = Int32(labels.count)
            labels.append(label)
            labelIndex[label] = index
        }
        pendingFrom.append(Int32(from))
        pending.append(PackedArc(to: Int32(to), label: index))
        if case .word(let w) = label { vocabulary.insert(w) }
    }

    /// Adds a `.word` arc that typed text does not read (`(heard: ...)`).
    mutating func addHeardOnlyArc(from: Int, to: Int, word: String) {
        pendingHeardOnly.append(pending.count)
        addArc(from: from, to: to, .word(word))
    }

    /// Whether arc `index` of `state` is a word heard only: the text
    /// parser reads it in heard text, not in typed text.
    public func isHeardOnly(state: Int, arc index: Int) -> Bool {
        !heardOnlyArcs.isEmpty && heardOnlyArcs.contains(firstArc[state] + Int32(index))
    }

    /// Lays the arcs added so far out state by state (each state's in the
    /// order added) and drops what only building needed.
    mutating func seal() {
        precondition(table.isEmpty, "an intent graph is sealed once")
        var first = [Int32](repeating: 0, count: states + 1)
        for from in pendingFrom { first[Int(from) + 1] += 1 }
        for state in 0..<states { first[state + 1] += first[state] }
        var next = first
        var laid = [PackedArc](repeating: PackedArc(to: 0, label: 0), count: pending.count)
        var position = [Int32](repeating: 0, count: pendingHeardOnly.isEmpty ? 0 : pending.count)
        for (i, (from, arc)) in zip(pendingFrom, pending).enumerated() {
            laid[Int(next[Int(from)])] = arc
            if !position.isEmpty { position[i] = next[Int(from)] }
            next[Int(from)] += 1
        }
        heardOnlyArcs = Set(pendingHeardOnly.map { position[$0] })
        pendingHeardOnly = []
        table = laid
        firstArc = first
        pendingFrom = []
        pending = []
        labelIndex = [:]
    }

    /// The arcs of every state, by state.
    public struct StateArcs: RandomAccessCollection, Sendable {
        let table: [PackedArc]
        let firstArc: [Int32]
        let labels: [ArcLabel]

        public var startIndex: Int { 0 }
        public var endIndex: Int { firstArc.count - 1 }

        public subscript(state: Int) -> Arcs {
            Arcs(table: table, base: Int(firstArc[state]), count: Int(firstArc[state + 1] - firstArc[state]), labels: labels)
        }
    }

    /// One state's arcs, indexed from 0.
    public struct Arcs: RandomAccessCollection, Sendable {
        let table: [PackedArc]
        let base: Int
        public let count: Int
        let labels: [ArcLabel]

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }

        public subscript(index: Int) -> Arc {
            let packed = table[base + index]
            return Arc(to: Int(packed.to), label: labels[Int(packed.label)])
        }
    }
}
