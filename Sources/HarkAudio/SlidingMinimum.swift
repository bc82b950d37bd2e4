/// The minimum of the values pushed in the last `window` steps, in
/// amortised constant time (a monotonic queue: a value is dropped as soon as
/// a smaller, newer one makes it irrelevant).
struct SlidingMinimum {
    /// Steps a value stays in the window.
    let window: Int
    /// Candidates for the minimum, increasing in both step and value, from `head` on.
    private var candidates: [(step: Int, value: Double)] = []
    private var head = 0

    init(window: Int) {
        self.window = max(1, window)
    }

    /// Adds the value for `step` (steps must increase) and returns the minimum over the window.
    mutating func push(_ value: Double, at step: Int) -> Double {
        while candidates.count > head, let last = candidates.last, last.value >= value {
            candidates.removeLast()
        }
        candidates.append((step, value))
        while candidates[head].step <= step - window { head += 1 }
        // Reclaim the consumed prefix now and then, not on every step.
        if head > 256 && head * 2 > candidates.count {
            candidates.removeFirst(head)
            head = 0
        }
        return candidates[head].value
    }
}
