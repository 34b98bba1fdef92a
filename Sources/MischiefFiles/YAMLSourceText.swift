/// A YAML file's text as Unicode scalars with the start of each line, shared by the ``YAMLScalarSource``s of one
/// file so that locating a place inside a scalar does not re-read the file from its start.
final class YAMLSourceText: Sendable {
    /// The file's scalars.
    let scalars: [Unicode.Scalar]
    /// The index in `scalars` where each line starts (lines as ``YAMLLines`` counts them).
    let lineStarts: [Int]

    /// Reads `text` once.
    init(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var starts = [0]
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\r", index < scalars.count, scalars[index] == "\n" { index += 1 }
            if YAMLLines.isBreak(scalar) { starts.append(index) }
        }
        self.scalars = scalars
        self.lineStarts = starts
    }

    /// The index of the scalar at a 1-based line and column, or nil when the text has no such place.
    func index(line: Int, column: Int) -> Int? {
        guard line >= 1, line <= lineStarts.count, column >= 1 else { return nil }
        let end = line < lineStarts.count ? lineStarts[line] : scalars.count
        let index = lineStarts[line - 1] + column - 1
        return index <= end ? index : nil
    }
}
