import CPocketSphinx
@testable import HarkRecognition
import Testing

/// The grammar's transitions kept in one-bucket tables instead of
/// sphinxbase's 101-bucket ones (``FSGBuilder/compactTransitionTables(_:)``).
@Suite("The grammar's transition tables are compacted without changing a single arc")
struct FSGTransitionTableTests {
    /// Every arc out of every state, in the order sphinxbase's iterator gives them.
    static func arcs(_ fsg: UnsafeMutablePointer<fsg_model_t>) -> [[String]] {
        (0..<Int(fsg.pointee.n_state)).map { state in
            var arcs: [String] = []
            var itor = fsg_model_arcs(fsg, Int32(state))
            while let current = itor {
                let link = fsg_arciter_get(current)!.pointee
                let word = link.wid < 0 ? "-" : String(cString: fsg.pointee.vocab[Int(link.wid)]!)
                arcs.append("\(link.from_state)>\(link.to_state) \(word) \(link.logs2prob)")
                itor = fsg_arciter_next(current)
            }
            return arcs
        }
    }

    /// A grammar of `states` states, each with words to several others and some null transitions.
    static func grammar(states: Int, lmath: OpaquePointer) -> UnsafeMutablePointer<fsg_model_t> {
        let fsg = fsg_model_init("compact", lmath, 1, Int32(states))!
        fsg.pointee.start_state = 0
        fsg.pointee.final_state = Int32(states - 1)
        let words = (0..<12).map { fsg_model_word_add(fsg, "w\($0)") }
        for from in 0..<(states - 1) {
            for k in 0..<(from % 9 + 1) {
                let to = (from + 1 + k * 7) % states
                fsg_model_trans_add(fsg, Int32(from), Int32(to), Int32(-k), words[(from + k) % words.count])
                fsg_model_trans_add(fsg, Int32(from), Int32(to), Int32(-k - 1), words[(from + k + 5) % words.count])
            }
            if from % 4 == 0 { fsg_model_null_trans_add(fsg, Int32(from), Int32((from + 3) % states), -2) }
        }
        _ = fsg_model_null_trans_closure(fsg, nil)
        return fsg
    }

    @Test("the same arcs in the same order, one bucket per table, and sphinxbase still adds and finds arcs")
    func sameArcs() throws {
        let lmath = try #require(logmath_init(1.0001, 0, 0))
        defer { logmath_free(lmath) }
        let fsg = Self.grammar(states: 300, lmath: lmath)
        defer { fsg_model_free(fsg) }
        let before = Self.arcs(fsg)
        #expect(before.joined().count > 1000)

        FSGBuilder.compactTransitionTables(fsg)

        #expect(Self.arcs(fsg) == before)
        let tables = UnsafeMutableRawPointer(fsg.pointee.trans!).assumingMemoryBound(to: UnsafeMutablePointer<hash_table_t>?.self)
        let sizes = (0..<(2 * 300)).compactMap { tables[$0]?.pointee.size }
        #expect(!sizes.isEmpty && sizes.allSatisfy { $0 == 1 }, "bucket counts \(Set(sizes))")
        // Lookups by key walk the chain: a known arc is found, a missing one is not.
        #expect(fsg_model_trans(fsg, 10, 11) != nil)
        #expect(fsg_model_trans(fsg, 10, 250) == nil)
        // What the FSG search does to a built grammar: a silence self-loop on every state.
        #expect(fsg_model_add_silence(fsg, "<sil>", -1, 0.005) == 300)
        let after = Self.arcs(fsg)
        for state in 0..<300 {
            #expect(after[state].count == before[state].count + 1)
            #expect(after[state].contains { $0.hasPrefix("\(state)>\(state) <sil>") })
        }
    }
}
