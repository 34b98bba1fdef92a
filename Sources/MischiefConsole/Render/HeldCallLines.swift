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
        return callLines(seam.heldCalls, width: width, keys: keys)
    }

    /// The keys that end a held call.
    static let keys = "u release · o return… · x fail · c continue"

    /// The lines for the calls the pauses of running tests hold on `seam` (a breakpoint on a test in a live test
    /// session): each test named, with its number, then its held calls' inputs as ``lines(of:width:)`` shows a
    /// seam's; the keys under those of the tests the console's changes go to (`chosen`), else how to choose it.
    static func lines(inTests scopes: [ScopeSnapshot], of seam: SeamID, chosen: Set<Int>, width: Int)
        -> [[Canvas.Span]]
    {
        var lines: [[Canvas.Span]] = []
        for scope in scopes where scope.status == .running {
            guard let calls = scope.seams.first(where: { $0.seam == seam })?.heldCalls, !calls.isEmpty else {
                continue
            }
            lines.append([
                .init("held in test ", .reverting, bold: true), .init("#\(scope.id) ", .accent),
                .init(scope.name, .text, bold: true),
            ])
            let hint = chosen.contains(scope.id) ? keys : "n or :test #\(scope.id) to answer it"
            lines += callLines(calls, width: width, keys: hint)
        }
        return lines
    }

    /// `calls` whole (the first ``shown``), the keys (`keys`) under them, and how many more are held.
    private static func callLines(_ calls: [HeldCall], width: Int, keys: String) -> [[Canvas.Span]] {
        var lines: [[Canvas.Span]] = []
        // The input first, on the line that says it is held, so even a short pane shows where it starts.
        for call in calls.prefix(shown) {
            let pieces = layout(call.input, width: max(10, width - 5))
            lines.append([.init("held ", .reverting, bold: true), .init(pieces[0], .accent)])
            for piece in pieces.dropFirst() { lines.append([.init("     " + piece, .accent)]) }
        }
        lines.append([.init("     " + keys, .muted)])
        if calls.count > shown { lines.append([.init(" and \(calls.count - shown) more held", .muted)]) }
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
