extension Array where Element: Equatable {
    /// Whether `run` stands in this array as consecutive elements
    /// (["tell", "monkey", "chat"] contains ["monkey", "chat"]); an empty
    /// run is never contained.
    package func containsRun(_ run: [Element]) -> Bool {
        guard !run.isEmpty, count >= run.count else { return false }
        return (0...(count - run.count)).contains { self[$0..<($0 + run.count)].elementsEqual(run) }
    }

    /// Where the last run of `run` in this array begins (never an empty run's).
    package func lastIndex(ofRun run: [Element]) -> Int? {
        guard !run.isEmpty, count >= run.count else { return nil }
        return (0...(count - run.count)).reversed().first { self[$0..<($0 + run.count)].elementsEqual(run) }
    }

    /// Whether this array ends with `run` (never with an empty run).
    package func endsWithRun(_ run: [Element]) -> Bool {
        !run.isEmpty && count >= run.count && suffix(run.count).elementsEqual(run)
    }

    /// This array without any of `runs` where they stand (the longest
    /// first): ["can", "tasks", "notes", "pull", "it", "up"] without
    /// [["tasks", "notes"]] is ["can", "pull", "it", "up"].
    package func removingRuns(of runs: [[Element]]) -> [Element] {
        let runs = runs.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        var kept: [Element] = [], index = 0
        while index < count {
            if let run = runs.first(where: { index + $0.count <= count && self[index..<(index + $0.count)].elementsEqual($0) }) {
                index += run.count
            } else {
                kept.append(self[index])
                index += 1
            }
        }
        return kept
    }
}
