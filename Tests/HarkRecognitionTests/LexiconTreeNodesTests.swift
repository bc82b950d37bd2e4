import CPocketSphinx
import CPocketSphinxShims
@testable import HarkRecognition
import Testing

/// The grammar search's lexicon-tree nodes come from Hark's slabs
/// (LexTreeNodes.c), through sphinxbase's own allocation functions, which
/// the process defines for libpocketsphinx. Other suites make decoders at
/// the same time, so the process-wide counts are only bounded below here.
@Suite struct LexiconTreeNodesTests {
    /// What `fsg_pnode_t` is in pocketsphinx 5prealpha on 64 bits.
    static let nodeBytes = 144

    @Test("a decoder's grammar search builds its lexicon tree in the slabs, and reads as before")
    func decoderUsesSlabs() async throws {
        let decoder = try PocketSphinxDecoder(model: AcousticModel())
        let recognition = try await decoder.recognize(try MessagingFixture.speech(), grammar: try MessagingFixture.grammar())
        #expect(recognition.text.hasPrefix("send a text to little bobo on monkey chat saying "), "\(recognition.text)")
        // The decoder is alive, so its tree's nodes are: pocketsphinx
        // calls the tool's definitions, not sphinxbase's.
        let counts = LexiconTreeNodes.counts
        #expect(counts.nodes > 1_000, "the messaging grammar's tree is thousands of nodes; \(counts.nodes) in slabs")
        #expect(counts.slabs >= counts.nodes / 455)
        withExtendedLifetime(decoder) {}
    }

    @Test("only fsg_lextree.c's single nodes are taken; each comes zeroed, distinct, and goes back through ckd_free")
    func takesOnlyNodes() throws {
        let size = Self.nodeBytes
        let node = try #require(__ckd_calloc__(1, size, "../../src/libpocketsphinx/fsg_lextree.c", 428))
        #expect(hark_lextree_nodes_holds(node) == 1)
        ckd_free(node)
        for (count, elementSize, file) in [(1, size, "fsg_search.c"), (2, size, "fsg_lextree.c"), (1, 128, "fsg_lextree.c"),
                                           (1, size, "not_fsg_lextree.c")] {
            let block = try #require(__ckd_calloc__(count, elementSize, file, 1))
            #expect(hark_lextree_nodes_holds(block) == 0, "\(count) × \(elementSize) from \(file) is an ordinary heap block")
            ckd_free(block)
        }
        ckd_free(nil)

        // Many nodes, written all over and freed; new ones read as zeros
        // (a slab's pages are given back whole, never a node at a time).
        var nodes: [UnsafeMutableRawPointer] = []
        for _ in 0..<2_000 { nodes.append(try #require(__ckd_calloc__(1, size, "fsg_lextree.c", 457))) }
        #expect(Set(nodes).count == nodes.count)
        for node in nodes {
            #expect(hark_lextree_nodes_holds(node) == 1)
            #expect(UnsafeRawBufferPointer(start: node, count: size).allSatisfy { $0 == 0 })
            node.initializeMemory(as: UInt8.self, repeating: 0xAB, count: size)
        }
        // No two overlap: every node still holds its own pattern.
        #expect(nodes.allSatisfy { UnsafeRawBufferPointer(start: $0, count: size).allSatisfy { $0 == 0xAB } })
        nodes.forEach { ckd_free($0) }
        var again: [UnsafeMutableRawPointer] = []
        for _ in 0..<2_000 { again.append(try #require(__ckd_calloc__(1, size, "fsg_lextree.c", 457))) }
        #expect(again.allSatisfy { UnsafeRawBufferPointer(start: $0, count: size).allSatisfy { $0 == 0 } })
        again.forEach { ckd_free($0) }
    }
}
