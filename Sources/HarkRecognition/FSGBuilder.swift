import CPocketSphinx
import HarkGrammar

/// Turns a ``WordAutomaton`` into a pocketsphinx finite-state grammar.
///
/// Word transitions stay word transitions; a dictation transition becomes
/// one transition per phone of the free-text ``PhoneLoop``, each paying the
/// free-text penalty; epsilon moves and acceptance become null transitions
/// (the FSG has a single final state). Each state's outgoing transitions
/// share its probability mass equally, as pocketsphinx's own JSGF compiler
/// does for unweighted alternatives.
///
/// Leading phrases get a start state of their own: half its mass goes
/// straight to the grammar, half to the phrases, each a chain of words
/// ending where the grammar starts.
///
/// With a rejection penalty, a garbage branch runs beside the grammar from
/// the start state: a loop of garbage phones to the final state, each phone
/// paying the penalty.
enum FSGBuilder {
    struct Settings {
        /// Probability factor per phone of free text.
        var freeTextPhonePenalty: Double
        /// Probability factor per phone of the garbage branch; no branch when nil.
        var rejectionPhonePenalty: Double?
        /// The phones the model can pronounce as pseudo-words.
        var phones: [String]
        /// Phrases that may precede any sentence ("hey siri").
        var leadingPhrases: [[String]] = []
    }

    static func build(_ automaton: WordAutomaton, settings: Settings, name: String, decoder: OpaquePointer) throws -> UnsafeMutablePointer<fsg_model_t> {
        let lmath = ps_get_logmath(decoder)
        let config = ps_get_config(decoder)
        let lw = Float(cmd_ln_float_r(config, "-lw"))
        // One extra state: the single final state pocketsphinx wants; one
        // more for the garbage loop.
        let finalState = automaton.stateCount
        let garbageState = automaton.stateCount + 1
        let grammarStates = automaton.stateCount + (settings.rejectionPhonePenalty == nil ? 1 : 2)
        // The leading phrases' start, then one state after each of their words but the last.
        let leadStart = grammarStates
        let leadWords = settings.leadingPhrases.reduce(0) { $0 + $1.count - 1 }
        let stateCount = grammarStates + (settings.leadingPhrases.isEmpty ? 0 : 1 + leadWords)
        guard let fsg = fsg_model_init(name, lmath, lw, Int32(stateCount)) else {
            throw RecognitionError("pocketsphinx could not allocate a grammar of \(stateCount) states")
        }
        fsg.pointee.start_state = Int32(settings.leadingPhrases.isEmpty ? automaton.start : leadStart)
        fsg.pointee.final_state = Int32(finalState)

        var wordIDs: [String: Int32] = [:]
        func wordID(_ w: String) -> Int32 {
            if let id = wordIDs[w] { return id }
            let id = fsg_model_word_add(fsg, w)
            wordIDs[w] = id
            return id
        }
        let phoneShare = 1.0 / Double(settings.phones.count)
        var hasEpsilons = false
        if !settings.leadingPhrases.isEmpty {
            fsg_model_null_trans_add(fsg, Int32(leadStart), Int32(automaton.start), logmath_log(lmath, 0.5))
            hasEpsilons = true
            let phraseLogp = logmath_log(lmath, 0.5 / Double(settings.leadingPhrases.count))
            var next = leadStart + 1
            for phrase in settings.leadingPhrases {
                var from = leadStart
                for (i, word) in phrase.enumerated() {
                    let last = i == phrase.count - 1
                    let to = last ? automaton.start : next
                    fsg_model_trans_add(fsg, Int32(from), Int32(to), i == 0 ? phraseLogp : 0, wordID(word))
                    if !last { next += 1 }
                    from = to
                }
            }
        }
        for from in 0..<automaton.stateCount {
            let transitions = automaton.transitions[from]
            let epsilons = automaton.epsilons[from]
            let isFinal = automaton.finals.contains(from)
            let garbage = from == automaton.start && settings.rejectionPhonePenalty != nil
            let fanOut = transitions.count + epsilons.count + (isFinal ? 1 : 0) + (garbage ? 1 : 0)
            guard fanOut > 0 else { continue }
            let share = 1.0 / Double(fanOut)
            let logp = logmath_log(lmath, share)
            if isFinal { fsg_model_null_trans_add(fsg, Int32(from), Int32(finalState), logp) }
            if garbage { fsg_model_null_trans_add(fsg, Int32(from), Int32(garbageState), logp) }
            for to in epsilons {
                fsg_model_null_trans_add(fsg, Int32(from), Int32(to), logp)
                hasEpsilons = true
            }
            for transition in transitions {
                switch transition.symbol {
                case .word(let w):
                    fsg_model_trans_add(fsg, Int32(from), Int32(transition.to), logp, wordID(w))
                case .dictation:
                    let logp = logmath_log(lmath, share * phoneShare * settings.freeTextPhonePenalty)
                    for phone in settings.phones {
                        fsg_model_trans_add(fsg, Int32(from), Int32(transition.to), logp, wordID(PhoneLoop.word(phone, .dictation)))
                    }
                }
            }
        }
        if let penalty = settings.rejectionPhonePenalty {
            // Loop or leave, evenly; every phone pays the penalty.
            let logp = logmath_log(lmath, 0.5 * phoneShare * penalty)
            for phone in settings.phones {
                fsg_model_trans_add(fsg, Int32(garbageState), Int32(garbageState), logp, wordID(PhoneLoop.word(phone, .garbage)))
            }
            fsg_model_null_trans_add(fsg, Int32(garbageState), Int32(finalState), logmath_log(lmath, 0.5))
            hasEpsilons = true
        }
        if hasEpsilons { _ = fsg_model_null_trans_closure(fsg, nil) }
        return fsg
    }
}
