import CPocketSphinx
import CPocketSphinxShims

/// A decoder's Gaussians evaluated eight codewords at a time, with the
/// same arithmetic and the same results as pocketsphinx's own evaluation
/// (`hark_fast_gaussians_install` in the `CPocketSphinxShims` C target says
/// how). pocketsphinx scores each frame's codewords one at a time with a
/// test after every few dimensions, and that was about half of a decode's
/// time on one core.
///
/// Installed on every decoder ``PocketSphinxDecoder`` makes, right after
/// pocketsphinx made it: the means and variances are rewritten for the
/// vectors, so nothing else may read them, and decoders that share them
/// (``BorrowedModelParameters``) are all installed before they share.
enum FastGaussians {
    /// Installs the evaluation on `decoder`'s model; false, with nothing
    /// changed, unless it is a phonetically-tied model (Debian's en-us)
    /// laid out as expected, with pocketsphinx's own functions.
    @discardableResult
    static func install(on decoder: OpaquePointer) -> Bool {
        guard let mgau = BorrowedModelParameters.mixtureModel(of: decoder) else { return false }
        return hark_fast_gaussians_install(UnsafeMutableRawPointer(mgau)) == 1
    }

    /// Whether `decoder`'s model evaluates with it.
    static func isInstalled(on decoder: OpaquePointer) -> Bool {
        guard let mgau = BorrowedModelParameters.mixtureModel(of: decoder) else { return false }
        return hark_fast_gaussians_installed(UnsafeMutableRawPointer(mgau)) == 1
    }
}
