import Foundation
import Synchronization

/// Lines read from a file descriptor on a thread of their own, handed to
/// async waiters one at a time. A line longer than ``maximumLineLength``
/// is cut off and reported as such (an extension printing megabytes
/// without a newline must not exhaust memory).
final class LineChannel: Sendable {
    enum Event: Sendable, Equatable {
        case line(String)
        /// The line was longer than the limit; what came before the cut.
        case overlong(prefix: String)
        /// The other end closed (the process exited or closed its output).
        case end
        case timedOut
        case cancelled
    }

    static let maximumLineLength = 1 << 20
    static let maximumBufferedLines = 256

    private struct State {
        var lines: [Event] = []
        var ended = false
        var waiter: (id: Int, continuation: CheckedContinuation<Event, Never>)?
        var nextWaiter = 0
    }
    private let state = Mutex(State())

    /// Called on the reading thread for each line and at the end, instead
    /// of keeping lines for ``next(within:)`` (standard error, which is only logged).
    private let handler: (@Sendable (Event) -> Void)?

    /// Starts reading `fd` (which the channel closes at its end) on a new
    /// thread; with `handler`, every line (and the end) goes to it there.
    init(reading fd: Int32, name: String, handler: (@Sendable (Event) -> Void)? = nil) {
        self.handler = handler
        let thread = Thread { [self] in
            self.readLoop(fd)
        }
        thread.name = name
        thread.start()
    }

    private func readLoop(_ fd: Int32) {
        var pending: [UInt8] = []
        var discarding = false
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            for byte in buffer[0..<count] {
                if byte == UInt8(ascii: "\n") {
                    if !discarding { deliver(.line(Self.text(pending))) }
                    pending.removeAll(keepingCapacity: true)
                    discarding = false
                } else if !discarding {
                    pending.append(byte)
                    if pending.count > Self.maximumLineLength {
                        deliver(.overlong(prefix: Self.text(pending.prefix(200))))
                        pending.removeAll()
                        discarding = true
                    }
                }
            }
        }
        if !pending.isEmpty, !discarding { deliver(.line(Self.text(pending))) }
        close(fd)
        if let handler {
            handler(.end)
            return
        }
        let waiter = state.withLock { state -> CheckedContinuation<Event, Never>? in
            state.ended = true
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        waiter?.resume(returning: .end)
    }

    private static func text(_ bytes: some Collection<UInt8>) -> String {
        var line = String(decoding: bytes, as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }

    private func deliver(_ event: Event) {
        if let handler {
            handler(event)
            return
        }
        let waiter = state.withLock { state -> CheckedContinuation<Event, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            // An extension printing lines nobody asked for is not held in
            // memory without bound: past the limit, the rest is one fault.
            if state.lines.count < Self.maximumBufferedLines {
                state.lines.append(event)
            } else if state.lines.count == Self.maximumBufferedLines {
                state.lines.append(.overlong(prefix: "(more than \(Self.maximumBufferedLines) lines printed without a request)"))
            }
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// The next line, ``Event/end`` once the other end is closed and every
    /// line was taken, ``Event/timedOut`` after `limit`, or
    /// ``Event/cancelled`` when the task is cancelled (no limit when
    /// `limit` is nil). One waiter at a time.
    func next(within limit: Duration?) async -> Event {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let event = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
                let ready = state.withLock { state -> Event? in
                    if !state.lines.isEmpty { return state.lines.removeFirst() }
                    if state.ended { return .end }
                    if Task.isCancelled { return .cancelled }
                    state.waiter = (id, continuation)
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                    return
                }
                // A Dispatch timer, not a task: it fires on time even when
                // every thread of Swift's cooperative pool is busy, so a line
                // arriving later can never win over the time limit.
                guard let limit else { return }
                let (seconds, attoseconds) = limit.components
                let nanoseconds = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, Int64(Int.max))))) { [self] in
                    self.expire(id, with: .timedOut)
                }
            }
        } onCancel: {
            self.expire(id, with: .cancelled)
        }
        return event
    }

    private func expire(_ id: Int, with event: Event) {
        let waiter = state.withLock { state -> CheckedContinuation<Event, Never>? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: event)
    }
}
