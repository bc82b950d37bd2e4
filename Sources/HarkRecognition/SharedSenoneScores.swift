import CPocketSphinx
import CPocketSphinxShims

/// The confidence's phone pass reading the grammar pass's scores of the
/// context-independent senones instead of evaluating its own Gaussians.
///
/// Both passes hear the same audio, frame by frame, and the phone pass's
/// states are all context-independent senones, which the grammar pass's
/// model has too. pocketsphinx evaluated every frame's Gaussians in each:
/// in the phone pass all 42 codebooks every frame, the largest part of one
/// core's time on barista-dev. Sharing, the grammar pass evaluates the
/// context-independent senones beside its own (most of their codebooks it
/// evaluated already) and hands their scores over; its own search gets the
/// scores it had (normalised against the best of its own senones), and the
/// phone pass the scores it would have computed (against the best of its
/// own), from the same Gaussians of the same features.
///
/// The phone pass takes a frame only when the grammar pass heard the same
/// features in it (a hash of them is kept with the scores): any other
/// frame — the grammar pass not running, ahead by more than it keeps, or
/// hearing different features — it evaluates itself, as before. It waits
/// for the grammar pass's frame only between ``begin()`` and ``end()``.
///
/// The structures reached are private to pocketsphinx 0.8+5prealpha (the
/// `hark_*` mirrors in the `CPocketSphinx` shim): both models must pass
/// ``BorrowedModelParameters/mixtureModel(of:)``'s checks and have the
/// same model definition, or nothing is shared.
final class SharedSenoneScores: @unchecked Sendable {
    private let share: OpaquePointer

    private init(share: OpaquePointer) { self.share = share }

    /// Has `reader` (the phone pass) read `owner`'s (the grammar pass's)
    /// scores; nil, with nothing changed, unless both are phonetically-tied
    /// models of one definition laid out as expected.
    static func install(owner: OpaquePointer, reader: OpaquePointer) -> SharedSenoneScores? {
        guard let a = BorrowedModelParameters.mixtureModel(of: owner),
              let b = BorrowedModelParameters.mixtureModel(of: reader),
              let definition = modelDefinition(of: owner), let other = modelDefinition(of: reader),
              definition.n_sen == other.n_sen, definition.n_ci_sen == other.n_ci_sen,
              definition.n_sen == a.pointee.n_sen, a.pointee.n_sen == b.pointee.n_sen,
              let g = a.pointee.g?.pointee, let h = b.pointee.g?.pointee,
              g.n_feat == h.n_feat, (0..<Int(g.n_feat)).allSatisfy({ g.featlen[$0] == h.featlen[$0] })
        else { return nil }
        let lengths = (0..<Int(g.n_feat)).map { g.featlen[$0] }
        guard let share = hark_senone_share_install(UnsafeMutableRawPointer(a), UnsafeMutableRawPointer(b),
                                                    definition.n_sen, definition.n_ci_sen, g.n_feat, lengths)
        else { return nil }
        return SharedSenoneScores(share: share)
    }

    /// The decoder's model definition, if its counts hold together: the
    /// context-independent senones (the first `n_ci_sen`) are its base
    /// phones' emitting states, and fewer than all senones.
    static func modelDefinition(of decoder: OpaquePointer) -> hark_bin_mdef_t? {
        let d = UnsafeMutableRawPointer(decoder).assumingMemoryBound(to: hark_ps_decoder_t.self)
        guard let mdef = d.pointee.acmod?.pointee.mdef?.pointee,
              mdef.n_ciphone > 0, mdef.n_emit_state > 0, mdef.n_ci_sen == mdef.n_ciphone * mdef.n_emit_state,
              mdef.n_ci_sen < mdef.n_sen, mdef.n_phone >= mdef.n_ciphone
        else { return nil }
        return mdef
    }

    /// The grammar pass publishes its frames: an utterance the phone pass hears too starts.
    func begin() { hark_senone_share_begin(share) }

    /// The grammar pass stops publishing (its utterance ended or failed).
    func end() { hark_senone_share_end(share) }

    /// Frames the phone pass took from the grammar pass, and frames it evaluated itself.
    var counts: (shared: Int, evaluated: Int) {
        var shared: UInt64 = 0, evaluated: UInt64 = 0
        hark_senone_share_counts(share, &shared, &evaluated)
        return (Int(shared), Int(evaluated))
    }

    /// Puts both decoders' own evaluation back; call before freeing either.
    func uninstall() { hark_senone_share_uninstall(share) }
}
