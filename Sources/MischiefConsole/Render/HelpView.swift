/// The key help, full screen: every mode's keys as declared (``KeyBindings/helpSections``: the main screen and
/// typing first, then each other mode), in the fewest columns that fit the screen's height (as many as its width
/// holds, one per 52 columns and at most three, when none does), each description wrapped rather than cut.
enum HelpView {
    /// Width of the keys column.
    static let keysWidth = 22
    /// The narrowest a column of sections may be.
    static let minimumColumnWidth = 52

    static func draw(
        _ scroll: Int, _ state: ConsoleState, theme: ThemeInfo, size: ScreenSize,
        on canvas: inout Canvas
    ) {
        let rect = Rect(x: 0, y: 0, width: size.columns, height: size.rows - 1)
        canvas.pane(rect, title: "Keys · theme \(theme.name)", focused: true)
        let inner = rect.inner
        let columns = layout(size)
        let total = columns.map(\.count).max() ?? 0
        let rows = max(0, inner.height)
        let scroll = max(0, min(scroll, total - rows))
        if total > rows {
            let more = (scroll > 0 ? "↑" : " ") + (scroll + rows < total ? "↓" : " ")
            canvas.text(more, x: rect.maxX - 4, y: rect.maxY - 1, .accent)
        }
        let columnWidth = self.columnWidth(screenColumns: size.columns, count: columns.count)
        for (index, lines) in columns.enumerated() {
            let x = inner.x + 1 + index * columnWidth
            for (row, spans) in lines.dropFirst(scroll).prefix(rows).enumerated() {
                canvas.spans(spans, x: x, y: inner.y + row, maxWidth: columnWidth - 1)
            }
        }
    }

    /// How many rows the help takes on a screen of `size`.
    static func lineCount(_ size: ScreenSize) -> Int {
        layout(size).map(\.count).max() ?? 0
    }

    /// The most columns of sections a screen this wide holds.
    static func maxColumnCount(screenColumns: Int) -> Int {
        max(1, min(3, (screenColumns - 4) / minimumColumnWidth))
    }

    /// The width of each of `count` columns of sections, including one column of space after it.
    static func columnWidth(screenColumns: Int, count: Int) -> Int {
        max(1, (screenColumns - 4) / max(1, count))
    }

    /// The help's lines on a screen of `size`: the fewest columns whose lines fit its height, else the most.
    static func layout(_ size: ScreenSize) -> [[[Canvas.Span]]] {
        let most = maxColumnCount(screenColumns: size.columns)
        var columns = layout(columns: size.columns, count: most)
        for count in (1..<most).reversed() {
            let fewer = layout(columns: size.columns, count: count)
            if (fewer.map(\.count).max() ?? 0) <= size.rows - 3 { columns = fewer }
        }
        return columns
    }

    /// The help's lines in `count` columns, whose heights are as even as the sections allow.
    static func layout(columns: Int, count: Int) -> [[[Canvas.Span]]] {
        let textWidth = max(8, columnWidth(screenColumns: columns, count: count) - 1 - 2 - keysWidth)
        let sections = KeyBindings.helpSections.map { lines(of: $0, textWidth: textWidth) }
        var result: [[[Canvas.Span]]] = []
        var index = 0
        for column in 0..<count {
            let remaining = count - column
            let left = sections[index...].map(\.count).reduce(0, +)
            let target = (left + remaining - 1) / remaining
            var lines: [[Canvas.Span]] = []
            // Each column takes sections until it reaches its share; the last takes the rest.
            while index < sections.count,
                remaining == 1 || lines.isEmpty || lines.count + sections[index].count / 2 < target
            {
                lines += sections[index]
                index += 1
            }
            result.append(lines)
        }
        return result.filter { !$0.isEmpty }
    }

    /// A section's title, its keys with each description wrapped to `textWidth`, and a blank line.
    static func lines(of section: KeyBindings.Section, textWidth: Int) -> [[Canvas.Span]] {
        var lines: [[Canvas.Span]] = [[.init(section.title, .title, bold: true)]]
        let indent = String(repeating: " ", count: 2 + keysWidth)
        for row in section.rows {
            let padding = String(repeating: " ", count: max(1, keysWidth - DisplayWidth.of(row.label)))
            let wrapped = TextWrap.lines(row.help, width: textWidth)
            lines.append([.init("  " + row.label + padding, .accent, bold: true), .init(wrapped[0])])
            for more in wrapped.dropFirst() { lines.append([.init(indent + more)]) }
        }
        return lines + [[]]
    }
}
