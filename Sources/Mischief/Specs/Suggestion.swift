/// The candidate closest to a mistyped word, or nil when none is close.
///
/// A candidate is close when it is within two edits (insertions, deletions, substitutions or swaps of adjacent
/// letters; one edit for words of up to three letters), or when one starts with the other and the shorter has at
/// least two letters. Case is ignored. Ties go to the earlier candidate.
public func suggestion(for word: String, among candidates: [String]) -> String? {
    let typed = Array(word.lowercased())
    let limit = typed.count <= 4 ? 1 : 2
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let letters = Array(candidate.lowercased())
        // The distance is at least the difference in length: skip the table (a 64 KiB word against each name).
        guard abs(typed.count - letters.count) <= limit else { continue }
        let distance = editDistance(typed, letters)
        if distance <= limit, distance < (best?.distance ?? .max) {
            best = (candidate, distance)
        }
    }
    if let best {
        return best.candidate
    }
    let lowered = word.lowercased()
    guard lowered.count >= 2 else {
        return nil
    }
    return candidates.first { candidate in
        let other = candidate.lowercased()
        return other.hasPrefix(lowered) || (other.count >= 2 && lowered.hasPrefix(other))
    }
}

/// "no seam 'ID' is registered", followed by "; did you mean 'CLOSE'?" when one of `known` is close to `id`: the one
/// message the registry, profile files and the control server give for a seam id that names nothing.
package func unknownSeamMessage(_ id: SeamID, among known: [SeamID]) -> String {
    unknownMessage("no seam '\(id)' is registered", for: id.rawValue, among: known.map(\.rawValue))
}

/// `message`, followed by "; did you mean 'CLOSE'?" when one of `candidates` is close to `word`.
package func unknownMessage(_ message: String, for word: String, among candidates: [String]) -> String {
    guard let close = suggestion(for: word, among: candidates) else { return message }
    return message + "; did you mean '\(close)'?"
}

/// The optimal-string-alignment distance between two words.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty || b.isEmpty {
        return max(a.count, b.count)
    }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count {
        table[i][0] = i
    }
    for j in 0...b.count {
        table[0][j] = j
    }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = min(value, table[i - 2][j - 2] + 1)
            }
            table[i][j] = value
        }
    }
    return table[a.count][b.count]
}
