import CPocketSphinx
import HarkGrammar

/// Turns an ``IntentGraph`` into a pocketsphinx finite-state grammar.
///
/// Word arcs become word transitions; tags and epsilons become null
/// transitions; a free-text arc becomes one transition per dictation word,
/// weighted by the word's unigram probability. Each state's outgoing arcs
/// share its probability mass equally, as pocketsphinx's own JSGF compiler
/// does for unweighted alternatives.
enum FSGBuilder {
    static func build(_ graph: IntentGraph, dictation: [(word: String, probability: Double)], name: String, decoder: OpaquePointer) throws -> UnsafeMutablePointer<fsg_model_t> {
        let lmath = ps_get_logmath(decoder)
        let config = ps_get_config(decoder)
        let lw = Float(cmd_ln_float_r(config, "-lw"))
        // One extra state: the single final state pocketsphinx wants.
        let finalState = graph.stateCount
        guard let fsg = fsg_model_init(name, lmath, lw, Int32(graph.stateCount + 1)) else {
            throw RecognitionError("pocketsphinx could not allocate a grammar of \(graph.stateCount + 1) states")
        }
        fsg.pointee.start_state = Int32(graph.start)
        fsg.pointee.final_state = Int32(finalState)

        var wordIDs: [String: Int32] = [:]
        func wordID(_ w: String) -> Int32 {
            if let id = wordIDs[w] { return id }
            let id = fsg_model_word_add(fsg, w)
            wordIDs[w] = id
            return id
        }
        for (from, arcs) in graph.arcs.enumerated() {
            let isFinal = graph.finals[from] != nil
            let fanOut = arcs.count + (isFinal ? 1 : 0)
            guard fanOut > 0 else { continue }
            let share = 1.0 / Double(fanOut)
            let logp = logmath_log(lmath, share)
            if isFinal { fsg_model_null_trans_add(fsg, Int32(from), Int32(finalState), logp) }
            for arc in arcs {
                switch arc.label {
                case .word(let w):
                    fsg_model_trans_add(fsg, Int32(from), Int32(arc.to), logp, wordID(w))
                case .anyWord:
                    for (w, p) in dictation {
                        fsg_model_trans_add(fsg, Int32(from), Int32(arc.to), logmath_log(lmath, share * p), wordID(w))
                    }
                default:
                    fsg_model_null_trans_add(fsg, Int32(from), Int32(arc.to), logp)
                }
            }
        }
        _ = fsg_model_null_trans_closure(fsg, nil)
        return fsg
    }
}
