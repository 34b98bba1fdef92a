import MischiefConsole

/// Any text written into a grid row: every cell holds one printable grapheme cluster, a wide one is followed by its
/// right half, and the row takes exactly the grid's width in columns. The first byte picks the row's width and where
/// the text starts (left of the grid too).
let cellsHarness = FuzzHarness(name: "cells", summary: "grid cells from any text: one grapheme each, rows whole") {
    bytes in
    guard let first = bytes.first else { return }
    let width = 1 + Int(first % 64)
    let x = Int(first / 64) - 2
    var grid = CellGrid(width: width, height: 1, fill: .background)
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let used = grid.put(text, x: x, y: 0, style: .text, maxWidth: width)
    fuzzCheck(used >= 0 && used <= width, "put used \(used) columns of \(width)")
    var columns = 0
    var rightHalf = false
    for cell in grid.row(0) {
        if rightHalf {
            fuzzCheck(cell.isContinuation, "a wide cell without its right half")
            rightHalf = false
            continue
        }
        let cellWidth = DisplayWidth.of(cell.text)
        fuzzCheck(cell.text.count == 1 && (1...2).contains(cellWidth), "cell \(cell.text.unicodeScalars.map(\.value))")
        fuzzCheck(
            !cell.text.unicodeScalars.contains { CellText.isLineControl($0) || CellText.isRemoved($0) },
            "a control or removed character in cell \(cell.text.unicodeScalars.map(\.value))")
        columns += cellWidth
        rightHalf = cellWidth == 2
    }
    fuzzCheck(columns == width, "\(columns) columns in a row \(width) wide")
}
