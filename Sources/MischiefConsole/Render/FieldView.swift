/// A text field on one row, scrolled so the cursor shows; the cursor cell is in the selection role.
enum FieldView {
    static func draw(_ field: TextField, x: Int, y: Int, width: Int, on canvas: inout Canvas) {
        guard width > 1 else { return }
        let characters = Array(field.text)
        // Start far enough right that the text up to the cursor, plus the cursor cell, fits.
        var start = field.cursor
        var used = 1
        while start > 0, used + DisplayWidth.of(characters[start - 1]) <= width {
            start -= 1
            used += DisplayWidth.of(characters[start])
        }
        let before = String(characters[start..<field.cursor])
        let column = x + canvas.text(before, x: x, y: y, .text, maxWidth: width)
        let atCursor = field.cursor < characters.count ? String(characters[field.cursor]) : " "
        let cursorWidth = canvas.text(atCursor, x: column, y: y, .selection, maxWidth: x + width - column)
        if field.cursor + 1 < characters.count {
            let after = String(characters[(field.cursor + 1)...])
            let left = x + width - column - cursorWidth
            canvas.text(after, x: column + cursorWidth, y: y, .text, maxWidth: left)
        }
    }
}
