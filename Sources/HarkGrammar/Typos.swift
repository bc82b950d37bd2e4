/// Typos as people make them on a keyboard: a letter missed, doubled or
/// added, two neighbours swapped, or a key hit beside the one meant — never
/// in the first letter, which people rarely mistype ("DonkeyChat" is some
/// other app, not MonkeyChat; "MonkeyFix" too: x is nowhere near t).
public enum Typos {
    /// Whether `typed` is one typo away from `word` (not when equal).
    public static func isOneTypoAway(_ typed: [Character], from word: [Character]) -> Bool {
        guard typed != word, abs(typed.count - word.count) <= 1, let first = typed.first, first == word.first else { return false }
        let same = zip(typed, word).prefix { $0 == $1 }.count
        let (rest, meant) = (typed[same...], word[same...])
        if typed.count == word.count {
            // A key beside the one meant.
            if rest.dropFirst().elementsEqual(meant.dropFirst()), let hit = rest.first, let key = meant.first {
                return neighbours[key]?.contains(hit) == true
            }
            // Two neighbours swapped.
            return rest.count >= 2 && rest.first == meant.dropFirst().first && meant.first == rest.dropFirst().first
                && rest.dropFirst(2).elementsEqual(meant.dropFirst(2))
        }
        // A letter missed, or one added (doubled, or a key beside it).
        return typed.count < word.count ? rest.elementsEqual(meant.dropFirst()) : rest.dropFirst().elementsEqual(meant)
    }

    /// Words by first letter and length, for finding the word a typo was
    /// meant as among many without comparing it with every one of them.
    public struct Index: Sendable {
        private let words: [Character: [Int: [[Character]]]]

        /// Indexes `words` of at least `shortest` letters.
        public init<S: Sequence>(_ words: S, shortest: Int) where S.Element == String {
            var index: [Character: [Int: [[Character]]]] = [:]
            for word in words where word.count >= shortest {
                let letters = Array(word)
                index[letters[0], default: [:]][letters.count, default: []].append(letters)
            }
            self.words = index
        }

        /// The one indexed word `typed` is one typo away from; nil when none
        /// is, or several are.
        public func meant(by typed: String) -> String? {
            let letters = Array(typed)
            guard let first = letters.first, let byLength = words[first] else { return nil }
            var found: [Character]?
            for length in (letters.count - 1)...(letters.count + 1) {
                for word in byLength[length] ?? [] where Typos.isOneTypoAway(letters, from: word) {
                    guard found == nil else { return nil }
                    found = word
                }
            }
            return found.map { String($0) }
        }
    }

    /// The keys around each letter on a QWERTY keyboard.
    static let neighbours: [Character: Set<Character>] = {
        let rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"].map(Array.init)
        var around: [Character: Set<Character>] = [:]
        for (r, row) in rows.enumerated() {
            for (c, key) in row.enumerated() {
                var near: Set<Character> = []
                for (dr, dcs) in [(-1, [0, 1]), (0, [-1, 1]), (1, [-1, 0])] {
                    let nr = r + dr
                    guard rows.indices.contains(nr) else { continue }
                    for dc in dcs where rows[nr].indices.contains(c + dc) { near.insert(rows[nr][c + dc]) }
                }
                around[key] = near
            }
        }
        return around
    }()
}
