import CPocketSphinxShims

/// The grammar search's lexicon-tree nodes, which the tool packs in slabs
/// of their own instead of one heap block each (`LexTreeNodes.c` in
/// CPocketSphinxShims: jemalloc would give each 144-byte node 160 bytes).
public enum LexiconTreeNodes {
    /// Nodes alive in the slabs, and the 64 KiB slabs holding them; both 0
    /// when the process's pocketsphinx does not call the tool's allocation
    /// functions (its nodes are then ordinary heap blocks).
    public static var counts: (nodes: Int, slabs: Int) {
        var nodes: UInt64 = 0, slabs: UInt64 = 0
        hark_lextree_nodes_counts(&nodes, &slabs)
        return (Int(nodes), Int(slabs))
    }
}
