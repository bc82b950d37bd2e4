import Foundation
import Synchronization

/// `hark bench`'s progress on standard error: on a terminal one line
/// rewritten in place (`\r`) with the count, elapsed time and an estimate of
/// the time left; elsewhere (a log file, CI) a plain line every `interval`
/// and at the end, so no log fills with carriage returns.
public final class BenchProgress: Sendable {
    private struct State {
        var started = ContinuousClock.now
        var lastLine = ContinuousClock.now
        var wroteInPlace = false
    }

    private let label: String
    private let total: Int
    private let terminal: Bool
    private let interval: Duration
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// - Parameters:
    ///   - label: what is being decoded ("clean", "12 dB").
    ///   - terminal: whether standard error is a terminal (`isatty(2)`).
    ///   - write: where lines go (standard error).
    public init(label: String, total: Int, terminal: Bool, interval: Duration = .seconds(10),
                write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.total = total
        self.terminal = terminal
        self.interval = interval
        self.write = write
    }

    /// Reports that `done` of the utterances are decoded.
    public func update(done: Int) {
        let now = ContinuousClock.now
        let text: String? = state.withLock { s in
            let elapsed = (now - s.started) / .seconds(1)
            let line = Self.line(label: label, done: done, total: total, elapsed: elapsed)
            if terminal {
                s.wroteInPlace = true
                return "\r\u{1B}[K" + line + (done == total ? "\n" : "")
            }
            guard done == 1 || done == total || now - s.lastLine >= interval else { return nil }
            s.lastLine = now
            return line + "\n"
        }
        if let text { write(text) }
    }

    /// Ends an in-place line (before other output, e.g. on an interrupt).
    public func finishLine() {
        if terminal, state.withLock({ $0.wroteInPlace }) { write("\n") }
    }

    /// "clean: 37/133 (28%), 0:12 elapsed, about 0:31 left".
    public static func line(label: String, done: Int, total: Int, elapsed: Double) -> String {
        let percent = total > 0 ? 100 * done / total : 100
        var text = "\(label): \(done)/\(total) (\(percent)%), \(clock(elapsed)) elapsed"
        if done > 0, done < total {
            text += ", about \(clock(elapsed / Double(done) * Double(total - done))) left"
        }
        return text
    }

    /// "1:05", "1:02:03".
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

/// What a benchmark has decoded so far, condition by condition, so that an
/// interrupted run can still report it.
public final class BenchRecorder: Sendable {
    private struct State {
        var finished: [BenchReport.Condition] = []
        var clean: BenchReport?
        var current: (snr: Double?, results: [UtteranceResult])?
    }

    private let state = Mutex(State())

    public init() {}

    /// A condition starts (nil: the clean audio).
    public func begin(snr: Double?) {
        state.withLock { $0.current = (snr, []) }
    }

    /// One utterance of the current condition is scored.
    public func record(_ result: UtteranceResult) {
        state.withLock { $0.current?.results.append(result) }
    }

    /// The current condition is done.
    public func finish(_ report: BenchReport, snr: Double?) {
        state.withLock { s in
            if s.clean == nil { s.clean = report }
            s.finished.append(report.condition(snr: snr))
            s.current = nil
        }
    }

    /// The report of what was decoded so far, marked partial: the first
    /// condition's figures (over the utterances it got through), and one
    /// entry per condition begun. nil when nothing was decoded.
    public func partialReport(settings: BenchSettings?) -> BenchReport? {
        state.withLock { s in
            var conditions = s.finished
            var first = s.clean
            if let current = s.current, !current.results.isEmpty {
                let report = Bench.report(current.results)
                if first == nil { first = report }
                conditions.append(report.condition(snr: current.snr))
            }
            guard var report = first else { return nil }
            report.partial = true
            report.settings = settings
            if conditions.count > 1 || conditions.first?.snrDb != nil { report.bySnr = conditions }
            return report
        }
    }
}
