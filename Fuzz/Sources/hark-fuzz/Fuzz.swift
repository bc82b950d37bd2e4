import Foundation
import HarkFuzzTargets

/// The target this run fuzzes: `HARK_FUZZ_TARGET` (wav, plist, grammar, rhino, text).
nonisolated(unsafe) var target: FuzzTarget = .wav

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    let name = ProcessInfo.processInfo.environment["HARK_FUZZ_TARGET"] ?? ""
    guard let chosen = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("hark-fuzz: set HARK_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    target = chosen
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    target.run(Data(bytes: data, count: size))
    return 0
}
