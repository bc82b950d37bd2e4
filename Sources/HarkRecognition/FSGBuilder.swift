import CPocketSphinx
import HarkGrammar

/// Turns a ``WordAutomaton`` into a pocketsphinx finite-state grammar.
///
/// Word transitions stay word transitions; a dictation transition becomes
/// one transition per dictation word, weighted by the word's unigram
/// probability; epsilon moves and acceptance become null transitions (the
/// FSG has a single final state). Each state's outgoing transitions share
/// its probability mass equally, as pocketsphinx's own JSGF compiler does
/// for unweighted alternatives.
enum FSGBuilder {
    static func build(_ automaton: WordAutomaton, dictation: [(word: String, probability: Double)], name: String, decoder: OpaquePointer) throws -> UnsafeMutablePointer<fsg_model_t> {
        let lmath = ps_get_logmath(decoder)
        let config = ps_get_config(decoder)
        let lw = Float(cmd_ln_float_r(config, "-lw"))
        // One extra state: the single final state pocketsphinx wants.
        let finalState = automaton.stateCount
        guard let fsg = fsg_model_init(name, lmath, lw, Int32(automaton.stateCount + 1)) else {
            throw RecognitionError("pocketsphinx could not allocate a grammar of \(automaton.stateCount + 1) states")
        }
        fsg.pointee.start_state = Int32(automaton.start)
        fsg.pointee.final_state = Int32(finalState)

        var wordIDs: [String: Int32] = [:]
        func wordID(_ w: String) -> Int32 {
            if let id = wordIDs[w] { return id }
            let id = fsg_model_word_add(fsg, w)
            wordIDs[w] = id
            return id
        }
        var hasEpsilons = false
        for from in 0..<automaton.stateCount {
            let transitions = automaton.transitions[from]
            let epsilons = automaton.epsilons[from]
            let isFinal = automaton.finals.contains(from)
            let fanOut = transitions.count + epsilons.count + (isFinal ? 1 : 0)
            guard fanOut > 0 else { continue }
            let share = 1.0 / Double(fanOut)
            let logp = logmath_log(lmath, share)
            if isFinal { fsg_model_null_trans_add(fsg, Int32(from), Int32(finalState), logp) }
            for to in epsilons {
                fsg_model_null_trans_add(fsg, Int32(from), Int32(to), logp)
                hasEpsilons = true
            }
            for transition in transitions {
                switch transition.symbol {
                case .word(let w):
                    fsg_model_trans_add(fsg, Int32(from), Int32(transition.to), logp, wordID(w))
                case .dictation:
                    for (w, p) in dictation {
                        fsg_model_trans_add(fsg, Int32(from), Int32(transition.to), logmath_log(lmath, share * p), wordID(w))
                    }
                }
            }
        }
        if hasEpsilons { _ = fsg_model_null_trans_closure(fsg, nil) }
        return fsg
    }
}
