import Foundation
import HarkFuzzTargets

// The libFuzzer driver for Hark's fuzz targets. SwiftPM links an
// executable's entry point as `hark_fuzz_main`; it chooses the target from
// HARK_FUZZ_TARGET (wav, plist, grammar, rhino, text) and hands control to
// libFuzzer's own driver.

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The target this run fuzzes.
nonisolated(unsafe) var target: FuzzTarget = .wav

@_cdecl("hark_fuzz_main")
func harkFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let name = ProcessInfo.processInfo.environment["HARK_FUZZ_TARGET"] ?? ""
    guard let chosen = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("hark-fuzz: set HARK_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        return 2
    }
    target = chosen
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        target.run(size == 0 || data == nil ? Data() : Data(bytes: data!, count: size))
        return 0
    }
}
