/// The key help, full screen: sections of keys, in two columns when the screen is wide enough.
enum HelpView {
    /// Width of the keys column.
    static let keysWidth = 22
    /// Columns from which sections are laid out in two columns.
    static let twoColumnWidth = 110

    static func draw(
        _ scroll: Int, _ state: ConsoleState, theme: ThemeInfo, size: ScreenSize,
        on canvas: inout Canvas
    ) {
        let rect = Rect(x: 0, y: 0, width: size.columns, height: size.rows - 1)
        canvas.pane(rect, title: "Keys · theme \(theme.name)", focused: true)
        let inner = rect.inner
        let columns = layout(columns: size.columns)
        let rows = max(0, inner.height)
        let scroll = max(0, min(scroll, lineCount(columns: size.columns) - rows))
        if lineCount(columns: size.columns) > rows {
            let more = (scroll > 0 ? "↑" : " ") + (scroll + rows < lineCount(columns: size.columns) ? "↓" : " ")
            canvas.text(more, x: rect.maxX - 4, y: rect.maxY - 1, .accent)
        }
        let columnWidth = (inner.width - 2) / columns.count
        for (index, lines) in columns.enumerated() {
            let x = inner.x + 1 + index * columnWidth
            for (row, spans) in lines.dropFirst(scroll).prefix(rows).enumerated() {
                canvas.spans(spans, x: x, y: inner.y + row, maxWidth: columnWidth - 1)
            }
        }
    }

    /// How many rows the help takes at this width.
    static func lineCount(columns: Int) -> Int {
        layout(columns: columns).map(\.count).max() ?? 0
    }

    /// The help's lines, in one or two columns.
    static func layout(columns: Int) -> [[[Canvas.Span]]] {
        let sections = KeyHelp.sections.map(lines)
        guard columns >= twoColumnWidth else {
            return [sections.flatMap { $0 }]
        }
        // Split where the two halves are closest in height.
        let total = sections.map(\.count).reduce(0, +)
        var left: [[Canvas.Span]] = []
        var index = 0
        while index < sections.count, left.count + sections[index].count <= (total + 1) / 2 + 2 {
            left += sections[index]
            index += 1
        }
        return [left, sections[index...].flatMap { $0 }]
    }

    /// A section's title, its keys and a blank line.
    static func lines(of section: KeyHelp.Section) -> [[Canvas.Span]] {
        var lines: [[Canvas.Span]] = [[.init(section.title, .title, bold: true)]]
        for (keys, action) in section.keys {
            let padding = String(repeating: " ", count: max(1, keysWidth - DisplayWidth.of(keys)))
            lines.append([.init("  " + keys + padding, .accent, bold: true), .init(action)])
        }
        return lines + [[]]
    }
}
