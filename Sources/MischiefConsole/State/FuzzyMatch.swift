/// Fuzzy matching for the command palette: the query's characters in order, anywhere in the candidate (a
/// subsequence), scored so that runs of consecutive characters and characters at the start of a word rank first.
///
/// Characters are compared as grapheme clusters, lower-cased, so a flag, a family emoji or a letter with stacked
/// marks is one character of the query and of the candidate, and never half of one.
///
/// ```swift
/// FuzzyMatch.score("rvt", in: "revert the seam")      // a score: r…v…t, r at a word start
/// FuzzyMatch.score("xyz", in: "revert the seam")      // nil
/// FuzzyMatch.ranked("ap", ["quit", "apply", "a profile"]) { $0 }  // ["apply", "a profile"]
/// ```
enum FuzzyMatch {
    /// The score of `query` in `candidate` (higher is better), or nil when its characters are not all there in
    /// order. An empty query matches everything with 0.
    ///
    /// Each matched character scores 1, 10 more when it follows the previous match directly, 6 more at the start
    /// of a word (after a space, `.`, `-`, `_`, `/`, `(` or at the start), and 2 more when it is the candidate's
    /// first; every character skipped before the first match costs 1 (at most 5). The match is greedy from the
    /// left, then each character is moved to a later word start when one follows before the next match.
    static func score(_ query: String, in candidate: String) -> Int? {
        let needle = Array(query.lowercased())
        guard !needle.isEmpty else { return 0 }
        let hay = Array(candidate.lowercased())
        guard needle.count <= hay.count else { return nil }
        var positions: [Int] = []
        positions.reserveCapacity(needle.count)
        var next = 0
        for character in needle {
            guard let found = hay[next...].firstIndex(of: character) else { return nil }
            positions.append(found)
            next = found + 1
        }
        // Prefer a word start for a character that is not part of a run, when one is there before the next match.
        for index in positions.indices.reversed() {
            let position = positions[index]
            let limit = index + 1 < positions.count ? positions[index + 1] : hay.count
            let joinsRun = index > 0 && positions[index - 1] == position - 1
            guard !joinsRun, !isWordStart(hay, position) else { continue }
            if let start = (position + 1..<limit).first(where: { hay[$0] == needle[index] && isWordStart(hay, $0) }) {
                positions[index] = start
            }
        }
        var score = -min(5, positions[0])
        for (index, position) in positions.enumerated() {
            score += 1
            if index > 0, positions[index - 1] == position - 1 { score += 10 }
            if isWordStart(hay, position) { score += 6 }
            if position == 0 { score += 2 }
        }
        return score
    }

    /// The items whose text matches `query`, best first; items that score the same keep their order.
    static func ranked<Item>(_ query: String, _ items: [Item], text: (Item) -> String) -> [Item] {
        let scored = items.enumerated().compactMap { offset, item in
            score(query, in: text(item)).map { (offset: offset, score: $0, item: item) }
        }
        return scored.sorted { ($0.score, -$0.offset) > ($1.score, -$1.offset) }.map(\.item)
    }

    /// Whether the character at `index` starts a word.
    private static func isWordStart(_ characters: [Character], _ index: Int) -> Bool {
        guard index > 0 else { return true }
        return [" ", ".", "-", "_", "/", "(", ":", "·"].contains(characters[index - 1])
    }
}
