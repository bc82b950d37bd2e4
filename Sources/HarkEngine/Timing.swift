import Synchronization

/// How long the engine waits for an app.
public struct EngineConfiguration: Sendable {
    /// A handle slower than this gets the person told it is in progress; the
    /// result is reported when it arrives (default 2.5 s).
    public var progressBudget: Duration
    /// Any stage slower than this fails (default 15 s).
    public var timeout: Duration

    public init(progressBudget: Duration = .milliseconds(2500), timeout: Duration = .seconds(15)) {
        self.progressBudget = progressBudget
        self.timeout = max(timeout, progressBudget)
    }
}

/// How a call into the app ended within a time limit.
enum StageOutcome<T: Sendable>: Sendable {
    case value(T)
    case failed(any Error)
    case timedOut
}

/// Resumes a continuation once, from whichever side finishes first.
final class Once<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<StageOutcome<T>, Never>?>(nil)
    private let sleeper = Mutex<Task<Void, Never>?>(nil)

    func arm(_ continuation: CheckedContinuation<StageOutcome<T>, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func setSleeper(_ task: Task<Void, Never>) { sleeper.withLock { $0 = task } }

    func finish(_ outcome: StageOutcome<T>) {
        continuation.withLock { pending in
            pending?.resume(returning: outcome)
            pending = nil
        }
    }

    func cancelSleeper() { sleeper.withLock { $0?.cancel() } }
}

/// Waits for `task` up to `limit` without blocking on it past the limit (a
/// hung handler keeps running, or is cancelled by the caller, but the
/// conversation goes on).
func wait<T: Sendable>(for task: Task<T, any Error>, upTo limit: Duration) async -> StageOutcome<T> {
    let once = Once<T>()
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<StageOutcome<T>, Never>) in
        once.arm(continuation)
        Task {
            switch await task.result {
            case .success(let value): once.finish(.value(value))
            case .failure(let error): once.finish(.failed(error))
            }
        }
        once.setSleeper(Task {
            do { try await Task.sleep(for: limit) } catch { return }
            once.finish(.timedOut)
        })
    }
    once.cancelSleeper()
    return outcome
}
