/// The bottom line: what is being typed or the last message, and the keys that matter now.
enum StatusLineView {
    static func draw(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas) {
        let used = drawLeft(state, in: rect, on: &canvas)
        let hints = hintSpans(for: state, width: rect.width - used - 1)
        let hintsWidth = hints.reduce(0) { $0 + DisplayWidth.of($1.text) }
        canvas.spans(hints, x: rect.maxX - hintsWidth, y: rect.y, maxWidth: hintsWidth)
    }

    /// The hint drawn at column `x` of the status line on a screen of `size` (a click on `: commands` does what `:`
    /// does), or nil.
    static func hint(atColumn x: Int, _ state: ConsoleState, size: ScreenSize) -> KeyHint? {
        var scratch = Canvas(size, theme: .standard)
        let rect = Rect(x: 0, y: size.rows - 1, width: size.columns, height: 1)
        let used = drawLeft(state, in: rect, on: &scratch)
        let hints = hintSpans(for: state, width: rect.width - used - 1)
        var column = rect.maxX - hints.reduce(0) { $0 + DisplayWidth.of($1.text) }
        // Spans come in pairs: the key, then what it does.
        for pair in stride(from: 0, to: hints.count - 1, by: 2) {
            let width = DisplayWidth.of(hints[pair].text) + DisplayWidth.of(hints[pair + 1].text)
            if x >= column, x < column + width {
                let label = hints[pair].text.trimmingSpaces()
                return KeyHelp.hints(for: state).first { $0.label == label }
            }
            column += width
        }
        return nil
    }

    /// The left of the line: what is typed, a question or the message; returns the columns used.
    private static func drawLeft(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas) -> Int {
        var used = 0
        switch state.mode {
        case .filter:
            used = canvas.text(" / ", x: rect.x, y: rect.y, .accent, bold: true)
            used += field(state.filter, at: rect.x + used, rect: rect, on: &canvas)
            if let summary = state.searchSummary, rect.width - used > 24 {
                used += canvas.text(
                    " " + summary, x: rect.x + used, y: rect.y, .muted, maxWidth: rect.width - used - 20)
            }
        case .eventLog(let log) where log.isFiltering:
            used = canvas.text(" / ", x: rect.x, y: rect.y, .accent, bold: true)
            used += field(log.filter, at: rect.x + used, rect: rect, on: &canvas)
        case .saveName(let name):
            used = canvas.text(" Save as profile: ", x: rect.x, y: rect.y, .accent, bold: true)
            used += field(name, at: rect.x + used, rect: rect, on: &canvas)
        case .timeToLive(let seam, let ttl):
            used = canvas.text(" Revert \(seam) after: ", x: rect.x, y: rect.y, .accent, bold: true)
            used += field(ttl, at: rect.x + used, rect: rect, on: &canvas)
        case .answer(let seam, let answer):
            used = canvas.text(" \(seam) returns: ", x: rect.x, y: rect.y, .accent, bold: true)
            used += field(answer, at: rect.x + used, rect: rect, on: &canvas)
        case .confirmOverwrite(_, let question):
            used = canvas.spans(
                [.init(" \(question); overwrite? y/N", .warning, bold: true)], x: rect.x, y: rect.y,
                maxWidth: rect.width)
        case .browse, .help, .eventLog, .picker, .profileList, .palette:
            if let message = state.message {
                // A long message leaves room for the mode's three most important hints, and says it is cut.
                let essential = hintSpans(for: state, width: rect.width, keeping: 3)
                let room = rect.width - essential.reduce(0) { $0 + DisplayWidth.of($1.text) } - 1
                let line = " " + (message.text.split(separator: "\n").first.map(String.init) ?? "")
                let text = DisplayWidth.truncate(line, to: max(0, room), ellipsis: true)
                used = canvas.spans(
                    [.init(text, message.isError ? .error : .text, bold: message.isError)],
                    x: rect.x, y: rect.y, maxWidth: rect.width)
            }
        }
        return used
    }

    /// The mode's key hints that fit in `width` columns (at most `keeping` of them), leaving out the least important
    /// first.
    static func hintSpans(for state: ConsoleState, width: Int, keeping: Int = .max) -> [Canvas.Span] {
        var hints = KeyHelp.hints(for: state)
        func spans() -> [Canvas.Span] {
            hints.flatMap {
                [Canvas.Span(" " + $0.label, .accent, bold: true), Canvas.Span(" " + $0.words + " ", .muted)]
            }
        }
        while !hints.isEmpty, hints.count > keeping || spans().reduce(0, { $0 + DisplayWidth.of($1.text) }) > width {
            let ranks = hints.map { hint in KeyHelp.importance.firstIndex(of: hint.label) ?? Int.max }
            hints.remove(at: ranks.indices.max { ranks[$0] < ranks[$1] }!)
        }
        return spans()
    }

    /// Draws a field, leaving room for a few hints when there is plenty; returns the columns used.
    private static func field(_ field: TextField, at x: Int, rect: Rect, on canvas: inout Canvas) -> Int {
        let room = rect.maxX - x
        let width = room >= 60 ? room - 30 : room
        FieldView.draw(field, x: x, y: rect.y, width: width, on: &canvas)
        return min(width, DisplayWidth.of(field.text) + 1)
    }
}
