import Mischief

/// The detail pane's lines for a seam whose pause holds calls: a breakpoint's view, each held call's input whole
/// (JSON one member a line, wrapped between words, never cut; the pane scrolls), oldest first, and the keys that end
/// it.
enum HeldCallLines {
    /// How many held calls are shown whole; the rest are counted.
    static let shown = 3

    /// The lines for `seam` at `width` columns; none when no call is held.
    static func lines(of seam: SeamSnapshot, width: Int) -> [[Canvas.Span]] {
        guard !seam.heldCalls.isEmpty else { return [] }
        let count = seam.heldCalls.count
        var lines: [[Canvas.Span]] = []
        // The input first, on the line that says it is held, so even a short pane shows where it starts.
        for call in seam.heldCalls.prefix(shown) {
            let pieces = layout(call.input, width: max(10, width - 5))
            lines.append([.init("held ", .reverting, bold: true), .init(pieces[0], .accent)])
            for piece in pieces.dropFirst() { lines.append([.init("     " + piece, .accent)]) }
        }
        lines.append([.init("     u release · o return… · x fail · c continue", .muted)])
        if count > shown { lines.append([.init(" and \(count - shown) more held", .muted)]) }
        return lines
    }

    /// `input` at `width` columns: JSON one member a line (``JSONLayout``), each line wrapped between words with
    /// its continuation under its start, never wider than `width`.
    static func layout(_ input: String, width: Int) -> [String] {
        var result: [String] = []
        for line in JSONLayout.pretty(input).split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = min(line.prefix { $0 == " " }.count, width / 2)
            let pad = String(repeating: " ", count: indent)
            result += TextWrap.lines(String(line.dropFirst(indent)), width: max(1, width - indent)).map { pad + $0 }
        }
        return result.isEmpty ? [""] : result
    }
}
