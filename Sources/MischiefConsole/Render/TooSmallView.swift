/// What a screen too small for the console shows: the size it needs, and that `q` quits.
enum TooSmallView {
    static func draw(size: ScreenSize, on canvas: inout Canvas) {
        let lines: [(String, StyleRole)] = [
            ("Mischief needs at least \(ScreenSize.minimum)", .warning),
            ("this terminal is \(size)", .text),
            ("q quits", .muted),
        ]
        let top = max(0, (size.rows - lines.count) / 2)
        for (row, (text, role)) in lines.enumerated() {
            let shown = DisplayWidth.truncate(text, to: size.columns, ellipsis: true)
            let x = max(0, (size.columns - DisplayWidth.of(shown)) / 2)
            canvas.text(shown, x: x, y: top + row, role, bold: row == 0)
        }
    }
}
