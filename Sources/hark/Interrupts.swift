import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM, caught while a long command runs: `handler` runs once
/// (on its own queue, so it works while the command's threads are busy),
/// then the process exits 128 + the signal's number (130, 143) as a shell
/// expects of an interrupted command.
final class Interrupts: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "hark.interrupts")

    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                handler(signalNumber)
                fflush(nil) // every open stream, standard output included
                _exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Restores the default dispositions.
    func cancel() {
        for source in sources { source.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
