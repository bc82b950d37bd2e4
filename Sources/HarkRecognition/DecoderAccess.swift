import Foundation
import Synchronization

/// Who may use a decoder: one utterance at a time, where an utterance is
/// one call (``PocketSphinxDecoder/recognize(_:grammar:)``) or a whole
/// stream, from ``PocketSphinxDecoder/startStream(grammar:)`` to its end.
///
/// Async callers wait without blocking a thread; synchronous ones block
/// theirs. A stream's own calls run on the decoder's thread while the
/// stream holds the access, so nothing waiting for it ever sits on that
/// thread.
final class DecoderAccess: Sendable {
    private struct State {
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())
    /// Wakes synchronous waiters when the access is given up with no async one waiting.
    private let released = NSCondition()

    /// Takes the access, waiting (without blocking a thread) while another holds it.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if !state.held {
                    state.held = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Takes the access if nobody holds it; false, at once, if somebody does.
    func tryAcquire() -> Bool {
        state.withLock { state in
            guard !state.held else { return false }
            state.held = true
            return true
        }
    }

    /// Takes the access, blocking this thread while another holds it.
    /// Not for Swift's cooperative threads while a stream may hold the
    /// access: the task that ends the stream may need the thread blocked here.
    func acquireBlocking() {
        released.lock()
        defer { released.unlock() }
        while !state.withLock({ state -> Bool in
            guard !state.held else { return false }
            state.held = true
            return true
        }) {
            released.wait()
        }
    }

    /// Gives the access up: to the first async waiter, else to whoever takes it next.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.held = false
                return nil
            }
            return state.waiting.removeFirst()  // held passes straight to it
        }
        if let next {
            next.resume()
        } else {
            released.lock()
            released.broadcast()
            released.unlock()
        }
    }

    /// Runs `work` holding the access (blocking while another holds it).
    func holding<T>(_ work: () throws -> T) rethrows -> T {
        acquireBlocking()
        defer { release() }
        return try work()
    }
}
