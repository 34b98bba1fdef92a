/// A rectangle of styled cells: the pure output of rendering, blitted to a terminal by a ``Terminal``.
///
/// Invariant: a wide (two-column) grapheme occupies its cell and the next one, whose text is `""`. Writes that
/// overwrite half of a wide grapheme blank the other half, so the invariant always holds.
public struct CellGrid: Hashable, Sendable {
    /// Number of columns.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// Cells in row-major order.
    private var cells: [Cell]

    /// Creates a grid of blank cells in `fill` style; negative sizes are treated as 0.
    public init(width: Int, height: Int, fill: Style) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank(fill), count: self.width * self.height)
    }

    /// The cell at column `x`, row `y`; both must be inside the grid.
    public subscript(x: Int, y: Int) -> Cell {
        precondition(contains(x: x, y: y), "cell (\(x), \(y)) outside \(width)×\(height) grid")
        return cells[y * width + x]
    }

    /// Whether (x, y) lies inside the grid.
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// The cells of row `y`.
    public func row(_ y: Int) -> ArraySlice<Cell> {
        precondition(y >= 0 && y < height, "row \(y) outside grid of height \(height)")
        return cells[(y * width)..<(y * width + width)]
    }

    /// Writes text from (x, y), clipped to `maxWidth` columns and to the grid; returns the columns used.
    ///
    /// Every grapheme cluster goes through ``CellText/classify(_:)`` first, so whatever `text` holds, each cell gets
    /// one printable grapheme cluster: controls are shown as U+FFFD, bidirectional controls, zero-width spaces and
    /// the other characters ``InvisibleMarks`` names are drawn as dim marks (`⟨RLO⟩`, one column a character, in the
    /// `muted` role) or, while marks are hidden, dropped, other format controls are dropped, and lone combining marks join the previously written cell when they still form one grapheme of the
    /// same width there (else they are dropped). Wide graphemes take two cells; a wide grapheme that would be cut in
    /// half at the clip edge is replaced by a space. Columns left of the grid (negative `x`) count as used but are
    /// not drawn. The result is the number of columns advanced from `x`, at most the clip width.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height else { return 0 }
        let limit = min(maxWidth.map { x + max(0, $0) } ?? Int.max, width)  // exclusive right edge
        var column = x
        var lastWritten: Int?
        for grapheme in text {
            guard column < limit else { break }
            guard let split = InvisibleMarks.split(grapheme) else {
                place(
                    CellText.classify(grapheme), y: y, style: style, limit: limit, column: &column, last: &lastWritten)
                continue
            }
            // Invisible characters: what is left of the cluster, then their marks, dim (or nothing when hidden).
            for rest in split.rest {
                place(CellText.classify(rest), y: y, style: style, limit: limit, column: &column, last: &lastWritten)
            }
            guard InvisibleMarks.areShown else { continue }
            let markStyle = Style(style.role == .selection ? .selection : .muted, reverse: style.reverse)
            for character in split.marks.joined() {
                guard column < limit else { break }
                if column >= 0 { setCell(x: column, y: y, Cell(String(character), style: markStyle)) }
                column += 1
            }
            lastWritten = nil  // nothing joins a mark
        }
        return max(0, column - x)
    }

    /// Writes one classified grapheme at `column` (see ``put(_:x:y:style:maxWidth:)``) and moves past it.
    private mutating func place(
        _ kind: CellText.Kind, y: Int, style: Style, limit: Int, column: inout Int, last lastWritten: inout Int?
    ) {
        guard column < limit else { return }
        let shown: String
        let columns: Int
        switch kind {
        case .invisible:
            return
        case .marks(let marks):
            if let lastWritten, let joined = CellText.joining(marks, to: cells[y * width + lastWritten].text) {
                cells[y * width + lastWritten].text = joined
            }
            return
        case .cell(let cellText, let cellWidth):
            (shown, columns) = (cellText, cellWidth)
        }
        if columns == 2 && column + 1 >= limit {
            // Cut in half by the clip edge.
            if column >= 0 {
                setCell(x: column, y: y, Cell(" ", style: style))
            }
            column += 1
            return
        }
        if column >= 0 {
            setCell(x: column, y: y, Cell(shown, style: style))
            if columns == 2 {
                setCell(x: column + 1, y: y, Cell("", style: style))
            }
            lastWritten = column
        } else if columns == 2 && column == -1 {
            // Left half clipped off the grid: show a space in the visible right half.
            setCell(x: 0, y: y, Cell(" ", style: style))
            lastWritten = nil
        }
        column += columns
    }

    /// Fills a rectangle (clipped to the grid) with blanks in `style`.
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, style: Style) {
        let left = max(0, x)
        let right = min(self.width, x + width)
        let top = max(0, y)
        let bottom = min(self.height, y + height)
        guard left < right, top < bottom else { return }
        for row in top..<bottom {
            for column in left..<right {
                setCell(x: column, y: row, .blank(style))
            }
        }
    }

    /// Draws a light box (─│┌┐└┘) around a rectangle, clipped to the grid, with an optional title in the top edge.
    ///
    /// The title is written as `┌─ Title ──┐` (from the third column, with a space either side), truncated with
    /// "…" to fit; it is left out of boxes narrower than 7. The interior is left untouched. Boxes narrower or
    /// shorter than 2 cells are not drawn.
    public mutating func box(x: Int, y: Int, width: Int, height: Int, style: Style, title: String?) {
        guard width >= 2, height >= 2 else { return }
        let right = x + width - 1
        let bottom = y + height - 1
        for column in (x + 1)..<right {
            putCell("─", x: column, y: y, style: style)
            putCell("─", x: column, y: bottom, style: style)
        }
        for row in (y + 1)..<bottom {
            putCell("│", x: x, y: row, style: style)
            putCell("│", x: right, y: row, style: style)
        }
        putCell("┌", x: x, y: y, style: style)
        putCell("┐", x: right, y: y, style: style)
        putCell("└", x: x, y: bottom, style: style)
        putCell("┘", x: right, y: bottom, style: style)
        if let title, !title.isEmpty, width >= 7 {
            let shown = DisplayWidth.truncate(title, to: width - 6, ellipsis: true)
            put(" " + shown + " ", x: x + 2, y: y, style: style, maxWidth: width - 4)
        }
    }

    /// The grid as text: rows joined by "\n", trailing spaces trimmed per row; for text snapshots.
    public var text: String {
        var lines: [String] = []
        lines.reserveCapacity(height)
        for y in 0..<height {
            var line = row(y).reduce(into: "") { $0 += $1.text }
            while line.last == " " {
                line.removeLast()
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The grid's roles: one ``StyleRole/snapshotCharacter`` per cell (both halves of a wide grapheme), rows joined
    /// by "\n"; for role snapshots.
    public var roles: String {
        var lines: [String] = []
        lines.reserveCapacity(height)
        for y in 0..<height {
            lines.append(String(row(y).map(\.style.role.snapshotCharacter)))
        }
        return lines.joined(separator: "\n")
    }

    /// Writes a single-column cell if it is inside the grid.
    private mutating func putCell(_ text: String, x: Int, y: Int, style: Style) {
        guard contains(x: x, y: y) else { return }
        setCell(x: x, y: y, Cell(text, style: style))
    }

    /// Stores a cell, blanking the other half of any wide grapheme it overwrites half of.
    private mutating func setCell(x: Int, y: Int, _ cell: Cell) {
        let index = y * width + x
        let old = cells[index]
        if old.text.isEmpty, !cell.text.isEmpty, x > 0 {
            // Overwriting the right half: the left half is orphaned.
            cells[index - 1] = .blank(cells[index - 1].style)
        }
        if !old.text.isEmpty, x + 1 < width, cells[index + 1].text.isEmpty {
            // Overwriting the left half of a wide grapheme: its right half is orphaned (a wide write re-sets it).
            cells[index + 1] = .blank(cells[index + 1].style)
        }
        cells[index] = cell
    }
}
