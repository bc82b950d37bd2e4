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

/// A call into the app, running in a task of its own. Its outcome is kept
/// the moment the app returns, in the app's own task, so a scheduler that
/// is late to run the engine cannot make a fast answer look slow.
final class AppCall<T: Sendable>: Sendable {
    private struct State {
        var outcome: StageOutcome<T>?
        var waiting: [Int: CheckedContinuation<StageOutcome<T>, Never>] = [:]
        var nextWaiter = 0
    }
    private let state = Mutex(State())
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ operation: @escaping @Sendable () async throws -> T) {
        let started = Task { [self] in
            do { finish(.value(try await operation())) } catch { finish(.failed(error)) }
        }
        task.withLock { $0 = started }
    }

    /// Cancels the app's task (a hung handler may ignore it; the engine has moved on).
    func cancel() { task.withLock { $0?.cancel() } }

    private func finish(_ outcome: StageOutcome<T>) {
        let waiting = state.withLock { state -> [CheckedContinuation<StageOutcome<T>, Never>] in
            state.outcome = outcome
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: outcome) }
    }

    /// The app's outcome, or ``StageOutcome/timedOut`` when it has not
    /// returned within `limit` (the call keeps running; wait again or cancel it).
    func outcome(within limit: Duration) async -> StageOutcome<T> {
        let sleeper = Mutex<Task<Void, Never>?>(nil)
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<StageOutcome<T>, Never>) in
            let id = state.withLock { state -> Int? in
                if state.outcome != nil { return nil }
                state.nextWaiter += 1
                state.waiting[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let id else {
                continuation.resume(returning: state.withLock { $0.outcome! })
                return
            }
            sleeper.withLock {
                $0 = Task { [self] in
                    do { try await Task.sleep(for: limit) } catch { return }
                    let expired = state.withLock { $0.waiting.removeValue(forKey: id) }
                    expired?.resume(returning: .timedOut)
                }
            }
        }
        sleeper.withLock { $0?.cancel() }
        return outcome
    }
}
