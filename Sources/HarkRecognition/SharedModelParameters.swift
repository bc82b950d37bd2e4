import CPocketSphinx
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One decoder's Gaussian mixture model read from another's, so that the
/// acoustic model's parameters are in memory once however many decoders a
/// ``PocketSphinxDecoder`` runs (the grammar pass, the n-gram pass of free
/// text, the phone pass of the confidence).
///
/// pocketsphinx has no way to share them: every decoder reads the means and
/// variances (0.8 MB each for en-us) into its own memory and maps the mixture
/// weights (`sendump`, 1.9 MB, read through every few frames) on its own,
/// and a page mapped three times is resident three times. Lending points the
/// borrower's tables at the owner's data — the same numbers, the same
/// readings — and gives the borrower's own copies back to the system.
///
/// The structures reached are private to pocketsphinx 0.8+5prealpha (the
/// `hark_*` mirrors in the `CPocketSphinx` shim). Each is checked against
/// the public API, the model's files and the owner's before anything is
/// changed: any mismatch, and the borrower keeps its own copy.
///
/// The owner must outlive the borrower, and ``giveBack()`` must be called
/// before the borrower is freed (pocketsphinx frees the buffers its tables
/// point at).
struct BorrowedModelParameters: @unchecked Sendable {
    /// The decoder that reads the owner's parameters.
    let borrower: OpaquePointer
    private let gaussians: UnsafeMutablePointer<hark_gauden_t>
    private let ownMeans: UnsafeMutablePointer<Float>
    private let ownVariances: UnsafeMutablePointer<Float>

    /// Lends `owner`'s parameters to `borrower`; nil, with nothing changed,
    /// unless both are pocketsphinx 5prealpha decoders of the same
    /// phonetically-tied model (`ptm`, Debian's en-us) laid out as expected.
    static func lend(from owner: OpaquePointer, to borrower: OpaquePointer) -> BorrowedModelParameters? {
        guard owner != borrower, let a = mixtureModel(of: owner), let b = mixtureModel(of: borrower),
              let ga = a.pointee.g, let gb = b.pointee.g,
              let means = a.sameShape(as: b), means > 0,
              let mixwA = a.pointee.mixw, let mixwB = b.pointee.mixw,
              let ownMeans = gb.pointee.mean?[0]?[0]?[0], let ownVariances = gb.pointee.var?[0]?[0]?[0],
              let sharedMeans = ga.pointee.mean?[0]?[0]?[0], let sharedVariances = ga.pointee.var?[0]?[0]?[0],
              memcmp(ownMeans, sharedMeans, means * MemoryLayout<Float>.size) == 0,
              memcmp(ownVariances, sharedVariances, means * MemoryLayout<Float>.size) == 0
        else { return nil }
        let (codebooks, streams, densities) = (Int(ga.pointee.n_mgau), Int(ga.pointee.n_feat), Int(ga.pointee.n_density))
        for i in 0..<codebooks {
            for j in 0..<streams {
                for k in 0..<densities {
                    gb.pointee.mean[i]![j]![k] = ga.pointee.mean[i]![j]![k]
                    gb.pointee.var[i]![j]![k] = ga.pointee.var[i]![j]![k]
                }
            }
        }
        for f in 0..<streams {
            for k in 0..<densities { mixwB[f]![k] = mixwA[f]![k] }
        }
        if a.pointee.mixw_cb != nil { b.pointee.mixw_cb = a.pointee.mixw_cb }
        // The borrower's own copies are never read again: their pages go
        // back to the system (the buffers stay allocated, for pocketsphinx
        // to free).
        MemoryPages.release(inside: UnsafeMutableRawPointer(ownMeans), bytes: means * MemoryLayout<Float>.size)
        MemoryPages.release(inside: UnsafeMutableRawPointer(ownVariances), bytes: means * MemoryLayout<Float>.size)
        if let map = b.pointee.sendump_mmap?.pointee { madvise(map.ptr, map.mapsize, MADV_DONTNEED) }
        return BorrowedModelParameters(borrower: borrower, gaussians: gb, ownMeans: ownMeans, ownVariances: ownVariances)
    }

    /// Points the borrower's tables back at its own buffers where
    /// pocketsphinx frees them from (`gauden_param_free` frees the first
    /// vector's); the mixture weights' table holds no buffer of its own.
    func giveBack() {
        gaussians.pointee.mean[0]![0]![0] = ownMeans
        gaussians.pointee.var[0]![0]![0] = ownVariances
    }

    /// `decoder`'s mixture model, if the private layout holds: each field
    /// reached agrees with what the public API says of the decoder, the
    /// model is the phonetically-tied kind, its mixture weights are a
    /// mapping of a file, each codeword's row at one stride inside it, and
    /// its Gaussians one contiguous buffer each.
    static func mixtureModel(of decoder: OpaquePointer) -> UnsafeMutablePointer<hark_ptm_mgau_t>? {
        let d = UnsafeMutableRawPointer(decoder).assumingMemoryBound(to: hark_ps_decoder_t.self)
        guard let config = ps_get_config(decoder), d.pointee.config == config,
              let acmod = d.pointee.acmod, acmod.pointee.config == config,
              acmod.pointee.lmath == ps_get_logmath(decoder),
              let fe = acmod.pointee.fe, fe == ps_get_fe(decoder),
              let fcb = acmod.pointee.fcb, fcb == ps_get_feat(decoder),
              let mgau = acmod.pointee.mgau, let name = mgau.pointee.vt?.pointee.name, String(cString: name) == "ptm",
              mgau.pointee.config == config,
              let g = mgau.pointee.g, g.pointee.n_feat > 0, g.pointee.n_mgau > 0, g.pointee.n_density > 0, g.pointee.n_mgau <= 256,
              let featlen = g.pointee.featlen, streamLengths(fcb) == (0..<Int(g.pointee.n_feat)).map({ Int(featlen[$0]) }),
              contiguous(g.pointee.mean, g), contiguous(g.pointee.var, g),
              let map = mgau.pointee.sendump_mmap?.pointee, let base = map.ptr, map.mapsize > 0,
              let mixw = mgau.pointee.mixw
        else { return nil }
        // Each codeword's weights: one row of n_sen entries (4 or 8 bits),
        // the rows one after another in the mapping.
        let start = UInt(bitPattern: base), end = start + UInt(map.mapsize)
        let senones = Int(mgau.pointee.n_sen)
        let densities = Int(g.pointee.n_density)
        guard senones > 0 else { return nil }
        for f in 0..<Int(g.pointee.n_feat) {
            guard let rows = mixw[f] else { return nil }
            let first = UInt(bitPattern: rows[0])
            let step = densities > 1 ? Int(bitPattern: UInt(bitPattern: rows[1]) &- first) : senones
            guard step == senones || step == (senones + 1) / 2 else { return nil }
            for k in 0..<densities {
                let row = UInt(bitPattern: rows[k])
                guard row == first + UInt(k * step), row >= start, row + UInt(step) <= end else { return nil }
            }
        }
        return mgau
    }

    /// The length of each stream the model's Gaussians are over, as
    /// pocketsphinx checked them against the features when it loaded the
    /// model (`feat_dimension1`, `feat_dimension2`: Debian's en-us splits
    /// its 39 coefficients into three subvectors).
    private static func streamLengths(_ fcb: UnsafeMutablePointer<feat_t>) -> [Int] {
        let f = fcb.pointee
        let streams = f.n_sv > 0 ? Int(f.n_sv) : Int(f.n_stream)
        return (0..<streams).map { i in
            if f.lda != nil { return Int(f.out_dim) }
            if let sv = f.sv_len { return Int(sv[i]) }
            return Int(f.stream_len[i])
        }
    }

    /// Whether `table[i][j][k]` is one buffer's vectors in order.
    private static func contiguous(_ table: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?>?>?,
                                   _ g: UnsafeMutablePointer<hark_gauden_t>) -> Bool {
        guard let table, let base = table[0]?[0]?[0] else { return false }
        var offset = 0
        for i in 0..<Int(g.pointee.n_mgau) {
            for j in 0..<Int(g.pointee.n_feat) {
                for k in 0..<Int(g.pointee.n_density) {
                    guard table[i]?[j]?[k] == base + offset else { return false }
                    offset += Int(g.pointee.featlen[j])
                }
            }
        }
        return true
    }
}

private extension UnsafeMutablePointer where Pointee == hark_ptm_mgau_t {
    /// The number of floats in each of the Gaussians' buffers, if `other`'s have the same shape.
    func sameShape(as other: UnsafeMutablePointer<hark_ptm_mgau_t>) -> Int? {
        guard let a = pointee.g?.pointee, let b = other.pointee.g?.pointee,
              a.n_mgau == b.n_mgau, a.n_feat == b.n_feat, a.n_density == b.n_density,
              pointee.n_sen == other.pointee.n_sen,
              let sa = pointee.sendump_mmap?.pointee, let sb = other.pointee.sendump_mmap?.pointee, sa.mapsize == sb.mapsize,
              memcmp(sa.ptr, sb.ptr, sa.mapsize) == 0
        else { return nil }
        let vectorLength = (0..<Int(a.n_feat)).reduce(0) { $0 + Int(a.featlen[$1]) }
        guard (0..<Int(a.n_feat)).allSatisfy({ a.featlen[$0] == b.featlen[$0] }) else { return nil }
        return Int(a.n_mgau) * Int(a.n_density) * vectorLength
    }
}
