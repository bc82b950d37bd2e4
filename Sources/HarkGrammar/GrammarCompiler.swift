import HarkIntents

/// One grammar as it applies to one app: the grammar file, the app's names
/// for `<app>`, and the lists its vocabulary supplies.
public struct GrammarInstance: Sendable {
    /// The app the intents are routed to.
    public var app: String
    public var grammar: GrammarFile
    /// Only these intents of the grammar (all when nil).
    public var intents: Set<String>?
    /// Rules supplied from outside the file, such as `app` (the app's names).
    public var externalRules: [String: GrammarExpression]
    /// Lists supplied from outside the file: app and user vocabulary by type.
    public var externalLists: [String: GrammarExpression]
    /// Slots whose value ends the sentence wherever it is used: after it,
    /// in typed text, any words (free text in the slot `<name>.rest`) or
    /// none; heard, nothing. For readings that are no request of the grammar's
    /// (an app that is not installed: "… on Venmo, saying hi"): what follows
    /// does not matter, so each intent compiles the slot once and every use
    /// reaches that one copy, and the recognizer's search holds one copy
    /// of its words (see `FSGBuilder`'s shared blocks).
    public var terminalSlots: Set<String>

    public init(app: String, grammar: GrammarFile, intents: Set<String>? = nil,
                externalRules: [String: GrammarExpression] = [:], externalLists: [String: GrammarExpression] = [:],
                terminalSlots: Set<String> = []) {
        self.app = app
        self.grammar = grammar
        self.intents = intents
        self.externalRules = externalRules
        self.externalLists = externalLists
        self.terminalSlots = terminalSlots
    }
}

extension GrammarInstance {
    /// The rule a `<name>` refers to: the grammar's own, then the ones
    /// supplied from outside, then Hark's built-in ones (`hark.…`).
    func rule(named name: String) -> GrammarExpression? {
        grammar.rules[name] ?? externalRules[name] ?? SpokenValueType.rules[name]
    }

    /// The values of a list slot: the grammar's list, else the list supplied
    /// from vocabulary; nil for a built-in type such as `number`.
    ///
    /// - Throws: ``GrammarError`` when the type is none of these: at the
    ///   slot's declaration when it has one, else where it is used.
    func slotValues(slot: String, type: String, usedAt location: SourceLocation) throws(GrammarError) -> GrammarExpression? {
        if let values = grammar.lists[type] ?? externalLists[type] { return values }
        if SpokenValueType(rawValue: type) != nil { return nil }
        if grammar.slots[slot] != nil {
            throw GrammarError(.unknownSlotType(slot: slot, type: type),
                               at: grammar.slotTypeLocations[slot] ?? grammar.locations[slot] ?? location)
        }
        throw GrammarError(.undefinedSlot(slot), at: location)
    }
}

/// Compiles grammar instances into one ``IntentGraph``.
public enum GrammarCompiler {
    /// The vocabulary types of people's names, whose slots also take a
    /// typed name the list does not have (``ArcLabel/typedName``): SiriKit
    /// hands the app any person named, and the app says whom it knows.
    public static let typedNameTypes: Set<String> = ["contactName"]
    /// The most words such a name has ("Mary Ann Smith").
    static let typedNameWords = 3

    /// Compiles the instances into one graph.
    ///
    /// - Throws: ``GrammarError`` for undefined or recursive rules, undefined
    ///   slots and empty lists, naming where they are used, and for a graph
    ///   that would grow past `limits`, naming the rule being expanded.
    public static func compile(_ instances: [GrammarInstance], limits: GrammarLimits = .standard) throws(GrammarError) -> IntentGraph {
        var graph = IntentGraph()
        graph.start = graph.addState()
        for instance in instances {
            var builder = Builder(instance: instance, limits: limits)
            for intent in instance.grammar.intents where instance.intents?.contains(intent.name) ?? true {
                let entry = graph.addState()
                graph.addArc(from: graph.start, to: entry,
                             .beginIntent(app: instance.app, intent: intent.name))
                let final = graph.addState()
                graph.finals[final] = IntentKey(app: instance.app, intent: intent.name)
                builder.sentenceLocation = intent.location
                builder.intentFinal = final
                builder.terminalEntries = [:]
                for sentence in intent.sentences {
                    try builder.emit(sentence, from: entry, to: final, into: &graph)
                }
            }
        }
        graph.seal()
        return graph
    }

    struct Builder {
        let instance: GrammarInstance
        let limits: GrammarLimits
        var ruleStack: [String] = []
        /// Where each rule on ``ruleStack`` was used.
        var ruleUses: [SourceLocation] = []
        /// Where the sentence being expanded starts, for size errors outside any rule.
        var sentenceLocation: SourceLocation?
        var slotStack: [String] = []
        /// Free-text loops by (slot, state after the slot): sentences that end
        /// in the same free-text slot share one dictation loop (a `{slot or
        /// text}` its list with it), which keeps the recognizer's search small.
        var freeTextLoops: [FreeTextKey: Int] = [:]
        /// Inside a `(typed: ...)`: words become typed-only arcs.
        var typedOnly = false
        /// Inside a `(heard: ...)`: words become heard-only arcs.
        var heardOnly = false
        /// The final state of the intent being compiled.
        var intentFinal = 0
        /// Where each of ``GrammarInstance/terminalSlots`` starts in the
        /// intent being compiled, once compiled there.
        var terminalEntries: [String: Int] = [:]

        struct FreeTextKey: Hashable {
            var slot: String
            var exit: Int
            /// A `{slot or text}` or `{slot or typed text}` use: its list and free text together.
            var orText: SlotFreeText
        }

        mutating func emit(_ expression: GrammarExpression, from: Int, to: Int, into graph: inout IntentGraph) throws(GrammarError) {
            // Every expansion adds at least one arc, so checking here bounds
            // both the graph and the work: 2^n paths stop at the limit.
            if graph.stateCount > limits.maxStates || graph.arcCount > limits.maxArcs {
                throw GrammarError(.tooLarge(rules: ruleStack, states: graph.stateCount, arcs: graph.arcCount, limits: limits),
                                   at: ruleUses.first ?? sentenceLocation ?? SourceLocation(file: instance.grammar.path, line: 1, column: 1))
            }
            switch expression {
            case .word(let w):
                if heardOnly, !typedOnly {
                    graph.addHeardOnlyArc(from: from, to: to, word: w)
                } else {
                    graph.addArc(from: from, to: to, typedOnly ? .typedOnlyWord(w) : .word(w))
                }
            case .heardOnly(let inner, _):
                let outer = heardOnly
                heardOnly = true
                defer { heardOnly = outer }
                try emit(inner, from: from, to: to, into: &graph)
            case .typedOnly(let inner, _):
                let outer = typedOnly
                typedOnly = true
                defer { typedOnly = outer }
                try emit(inner, from: from, to: to, into: &graph)
            case .sequence(let items):
                guard !items.isEmpty else {
                    graph.addArc(from: from, to: to, .epsilon)
                    return
                }
                var current = from
                for (i, item) in items.enumerated() {
                    let next = i == items.count - 1 ? to : graph.addState()
                    try emit(item, from: current, to: next, into: &graph)
                    current = next
                }
            case .alternatives(let items):
                for item in items {
                    // Each alternative gets its own entry so arcs never share
                    // a state across alternatives (keeps the graph a clean NFA).
                    let entry = graph.addState()
                    graph.addArc(from: from, to: entry, .epsilon)
                    try emit(item, from: entry, to: to, into: &graph)
                }
            case .optional(let inner):
                graph.addArc(from: from, to: to, .epsilon)
                try emit(inner, from: from, to: to, into: &graph)
            case .value(let spoken, let canonical):
                let mid = graph.addState()
                graph.addArc(from: from, to: mid, .value(canonical))
                try emit(spoken, from: mid, to: to, into: &graph)
            case .anyOrder(let parts, _):
                // One state per set of parts already said: from each, any part
                // not yet said leads on; once every required part is said the
                // group may end. 2^n states for n ≤ 6 parts, no permutation
                // written out.
                let required = parts.indices.reduce(0) { mask, i in
                    if case .optional = parts[i] { return mask }
                    return mask | (1 << i)
                }
                let full = (1 << parts.count) - 1
                var states: [Int: Int] = [:]
                func state(_ mask: Int) -> Int {
                    if let s = states[mask] { return s }
                    let s = graph.addState()
                    states[mask] = s
                    return s
                }
                graph.addArc(from: from, to: state(0), .epsilon)
                for mask in 0...full {
                    // Masks only grow, so visiting them in numeric order
                    // reaches every predecessor first.
                    guard let here = states[mask] else { continue }
                    if mask & required == required { graph.addArc(from: here, to: to, .epsilon) }
                    for i in parts.indices where mask & (1 << i) == 0 {
                        var part = parts[i]
                        if case .optional(let inner) = part { part = inner }
                        try emit(part, from: here, to: state(mask | (1 << i)), into: &graph)
                    }
                }
            case .rule(let name, let location):
                if let cycleStart = ruleStack.firstIndex(of: name) {
                    throw GrammarError(.recursiveRule(Array(ruleStack[cycleStart...]) + [name]), at: location)
                }
                guard let body = instance.rule(named: name) else {
                    throw GrammarError(.undefinedRule(name), at: location)
                }
                guard ruleStack.count < limits.maxRuleDepth else {
                    throw GrammarError(.rulesTooDeep(ruleStack + [name], limits: limits), at: location)
                }
                ruleStack.append(name)
                ruleUses.append(location)
                try emit(body, from: from, to: to, into: &graph)
                ruleStack.removeLast()
                ruleUses.removeLast()
            case .slot(let name, let location, let orText):
                guard !slotStack.contains(name) else {
                    throw GrammarError(.syntax("slot {\(name)} inside itself"), at: location)
                }
                if instance.terminalSlots.contains(name), !typedOnly {
                    try emitTerminal(name, at: location, from: from, into: &graph)
                    return
                }
                let source = instance.grammar.slots[name] ?? .list(name)
                let takesText = source == .text || orText != .listOnly
                // A slot's free text is shared with its other uses: inside
                // (typed: ...) the recognizer would hear it. A list's or a
                // built-in type's words are its own, typed only here:
                // "(typed: {amount})" reads "$12.50" and costs the search nothing.
                guard !typedOnly || !takesText else {
                    throw GrammarError(.syntax("free-text slot {\(name)} inside (typed: ...); only a slot of a list or a built-in type may be typed only"), at: location)
                }
                if takesText, let shared = freeTextLoops[FreeTextKey(slot: name, exit: to, orText: orText)] {
                    graph.addArc(from: from, to: shared, .epsilon)
                    return
                }
                let entry = graph.addState()
                graph.addArc(from: from, to: entry, .epsilon)
                let inner = graph.addState()
                let exit = graph.addState()
                graph.addArc(from: entry, to: inner, .beginSlot(name))
                graph.addArc(from: exit, to: to, .endSlot(name))
                if takesText {
                    freeTextLoops[FreeTextKey(slot: name, exit: to, orText: orText)] = entry
                    // One or more words of dictation. Beside a list (`or
                    // text`) the words loop on a state of their own: looping
                    // back to the list's start let free words run into a
                    // list value ("to purple the station" read as "the station").
                    let loop = source == .text ? inner : graph.addState()
                    if loop != inner { graph.addArc(from: inner, to: loop, .epsilon) }
                    let afterWord = graph.addState()
                    graph.addArc(from: loop, to: afterWord, orText == .typedText && source != .text ? .typedWord : .anyWord)
                    graph.addArc(from: afterWord, to: loop, .epsilon)
                    graph.addArc(from: afterWord, to: exit, .epsilon)
                }
                switch source {
                case .text:
                    break
                case .list(let listName):
                    guard let values = try instance.slotValues(slot: name, type: listName, usedAt: location) else {
                        // A built-in type: its words, tagged so the parser
                        // knows which converter reads them.
                        let type = SpokenValueType(rawValue: listName)!
                        let tagged = graph.addState()
                        graph.addArc(from: inner, to: tagged, .value(type.tag))
                        try emit(type.expression, from: tagged, to: exit, into: &graph)
                        break
                    }
                    // An empty list from vocabulary (no contacts yet) just
                    // leaves this path unreachable; the grammar's own lists
                    // are checked when the file is parsed.
                    slotStack.append(name)
                    try emit(values, from: inner, to: exit, into: &graph)
                    slotStack.removeLast()
                    if GrammarCompiler.typedNameTypes.contains(listName) {
                        // A name of up to three typed words the list does not
                        // have: "MonkeyChat Zuzu I'm late" reaches the app,
                        // which says whether it knows Zuzu.
                        var current = inner
                        for _ in 0..<GrammarCompiler.typedNameWords {
                            let next = graph.addState()
                            graph.addArc(from: current, to: next, .typedName)
                            graph.addArc(from: next, to: exit, .epsilon)
                            current = next
                        }
                    }
                }
            }
        }

        /// A use of a terminal slot: an arc to the intent's one copy of it
        /// (its values, then typed words or none, then the intent's end).
        mutating func emitTerminal(_ name: String, at location: SourceLocation, from: Int, into graph: inout IntentGraph) throws(GrammarError) {
            if let entry = terminalEntries[name] {
                graph.addArc(from: from, to: entry, .epsilon)
                return
            }
            guard let values = try instance.slotValues(slot: name, type: name, usedAt: location) else {
                throw GrammarError(.syntax("slot {\(name)} ends the sentence and needs a list of values"), at: location)
            }
            let entry = graph.addState()
            terminalEntries[name] = entry
            graph.addArc(from: from, to: entry, .epsilon)
            let inner = graph.addState(), exit = graph.addState(), after = graph.addState()
            graph.addArc(from: entry, to: inner, .beginSlot(name))
            slotStack.append(name)
            try emit(values, from: inner, to: exit, into: &graph)
            slotStack.removeLast()
            graph.addArc(from: exit, to: after, .endSlot(name))
            graph.addArc(from: after, to: intentFinal, .epsilon)
            // Then, typed, any words: "… on WhatsApp saying I'm home".
            // Heard, the sentence ends with the name: any words after it
            // would let the search leave every sentence there, free text
            // taking the rest ("… tell Bobo I'm stuck in traffic" heard as
            // "… tell bobo via instagram traffic"; 66 requests of 1,517
            // spoken lost their intent so).
            let rest = name + ".rest"
            let restInner = graph.addState(), loop = graph.addState(), restExit = graph.addState()
            graph.addArc(from: after, to: restInner, .beginSlot(rest))
            graph.addArc(from: restInner, to: loop, .typedWord)
            graph.addArc(from: loop, to: restInner, .epsilon)
            graph.addArc(from: loop, to: restExit, .endSlot(rest))
            graph.addArc(from: restExit, to: intentFinal, .epsilon)
        }
    }
}
