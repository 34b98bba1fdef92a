import Mischief

/// The command palette, over the top of the main screen: the line being typed, what Enter will do (or why it
/// cannot), then the matches, each with its kind and key.
enum PaletteView {
    /// Where the palette sits on a screen of `size`, and how many matches it shows.
    static func frame(_ size: ScreenSize, matches: Int) -> (rect: Rect, rows: Int) {
        let width = min(size.columns - 4, 100)
        let rows = max(1, min(matches, size.rows - 9))
        return (Rect(x: (size.columns - width) / 2, y: 2, width: width, height: rows + 4), rows)
    }

    /// The first match shown, so that the selected one is in view.
    static func top(selected: Int, rows: Int) -> Int { max(0, selected - rows + 1) }

    static func draw(_ palette: CommandPalette, _ state: ConsoleState, size: ScreenSize, on canvas: inout Canvas) {
        let matches = Console.paletteMatches(palette.field.text, in: state)
        let (rect, rows) = frame(size, matches: matches.count)
        canvas.pane(rect, title: "Commands · \(matches.count) found", focused: true, clear: true)
        let inner = rect.inner
        let x = inner.x + 1
        let textWidth = inner.width - 2
        canvas.text(": ", x: x, y: inner.y, .accent, bold: true)
        FieldView.draw(palette.field, x: x + 2, y: inner.y, width: textWidth - 2, on: &canvas)
        let (hint, role) = hintLine(palette, matches: matches)
        canvas.text(hint, x: x, y: inner.y + 1, role, maxWidth: textWidth)
        let selected = min(palette.selected, max(0, matches.count - 1))
        let top = top(selected: selected, rows: rows)
        for row in 0..<min(rows, matches.count - top) {
            let index = top + row
            let item = matches[index]
            let y = inner.y + 2 + row
            let isSelected = index == selected
            if isSelected {
                canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), .selection)
                if canvas.theme.isMonochrome { canvas.text(">", x: inner.x, y: y, .selection, bold: true) }
            }
            let right = item.key.isEmpty ? item.kind.rawValue : "\(item.kind.rawValue)  \(item.key)"
            let rightWidth = DisplayWidth.of(right)
            canvas.text(
                item.title, x: x, y: y, isSelected ? .selection : .text, maxWidth: max(1, textWidth - rightWidth - 2))
            canvas.text(
                right, x: x + textWidth - rightWidth, y: y, isSelected ? .selection : .muted, maxWidth: rightWidth)
        }
    }

    /// Under the line: why the last Enter did nothing, or what Enter does now.
    static func hintLine(_ palette: CommandPalette, matches: [PaletteItem]) -> (String, StyleRole) {
        if let error = palette.error { return (error, .error) }
        let text = palette.field.text.trimmingSpaces()
        if ConsoleLine.startsWithVerb(text) {
            do throws(ConsoleLine.ParseError) {
                _ = try ConsoleLine(parsing: text)
                return ("⏎ runs: \(text)", .accent)
            } catch {
                return (error.message + " · Tab completes", .muted)
            }
        }
        if text.isEmpty {
            return ("type to find, or a command: apply SEAM SPEC [ttl D], revert SEAM … · Tab completes", .muted)
        }
        return matches.isEmpty
            ? ("nothing matches", .error) : ("⏎ runs the chosen one · ↑↓ choose · Tab completes", .muted)
    }

    /// The match (an index into the matches) on screen row `y`, if any.
    static func match(atRow y: Int, _ palette: CommandPalette, _ state: ConsoleState) -> Int? {
        let count = Console.paletteMatches(palette.field.text, in: state).count
        let (rect, rows) = frame(state.size, matches: count)
        let top = top(selected: min(palette.selected, max(0, count - 1)), rows: rows)
        let row = y - rect.inner.y - 2
        guard row >= 0, row < rows, top + row < count else { return nil }
        return top + row
    }
}
