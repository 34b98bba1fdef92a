import Foundation

/// Decodes file bytes as UTF-8, locating the first invalid byte.
enum UTF8Text {
    /// The text of `data`, or an error at the line and column of the first byte that is not UTF-8.
    static func decode(_ data: Data, file: String) throws(FileErrors) -> String {
        if let text = String(data: data, encoding: .utf8) { return text }
        var line = 1, column = 1
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8()
        loop: while true {
            switch parser.decode(&iterator) {
            case let .scalarValue(scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                break loop
            case .error:
                break loop
            }
        }
        var message = "the file is not UTF-8 text"
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            message += " (it looks like UTF-16); save it as UTF-8"
        } else {
            message += "; save it as UTF-8"
        }
        throw FileErrors(.error(at: FileLocation(file: file, line: line, column: column), message))
    }
}
