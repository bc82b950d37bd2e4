import Synchronization

/// A door that tests open: a handler that waits at it is slower than any
/// time budget for as long as the test wants, whatever the scheduler does,
/// so a test of "slower than the budget" cannot be decided by a busy machine.
public final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    /// Returns once the gate is open (at once if it already is).
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openAlready = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if openAlready { continuation.resume() }
        }
    }

    /// Opens the gate, letting every waiter through.
    public func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
