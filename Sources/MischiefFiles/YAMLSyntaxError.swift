import Yams

/// Turns Yams' parse errors into located diagnostics.
///
/// Yams reports marks with 1-based lines and columns (columns in Unicode scalars), the same as node marks.
enum YAMLSyntaxError {
    /// The diagnostic for an error thrown by `Yams.compose`.
    static func diagnostic(for error: any Error, file: String, text: String) -> FileDiagnostic {
        guard let error = error as? YamlError else {
            return .error(at: FileLocation(file: file, line: 1, column: 1), "cannot parse the YAML: \(error)")
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
            let .composer(context, problem, mark, _):
            var message = "syntax error: \(problem)"
            if let context, !context.text.isEmpty, context.mark.line >= 1,
                context.mark.line != mark.line || context.mark.column != mark.column
            {
                message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
            }
            if problem.contains("tab") || isTabIndented(line: mark.line, in: text) {
                message += "; indent with spaces, not tabs"
            }
            let (line, column) = YAMLLines.clamp(
                line: mark.line, column: mark.column,
                lengths: YAMLLines.lengths(of: text))
            return .error(at: FileLocation(file: file, line: line, column: column), message)
        case let .reader(problem, offset, value, _):
            let (line, column) = YAMLLines.position(ofCharacter: offset ?? 0, in: text)
            var message = "cannot read the text: \(problem)"
            if value >= 0 { message += " (character U+\(String(value, radix: 16, uppercase: true)))" }
            return .error(at: FileLocation(file: file, line: line, column: column), message)
        case let .duplicatedKeysInMapping(duplicates, context):
            return duplicateKey(duplicates.first ?? "", first: context.mark, file: file, text: text)
        case .dataCouldNotBeDecoded:
            return .error(at: .wholeFile(file), "the file is not valid UTF-8 text")
        default:
            return .error(at: FileLocation(file: file, line: 1, column: 1), "cannot parse the YAML: \(error)")
        }
    }

    /// "duplicate key 'name' (first at line 2)", located at the second occurrence when it can be found.
    static func duplicateKey(_ key: String, first: Mark, file: String, text: String) -> FileDiagnostic {
        let lines = YAMLLines.lines(of: text)
        let clamped = YAMLLines.clamp(line: first.line, column: first.column, lengths: lines.map(\.count))
        let firstLocation = FileLocation(file: file, line: clamped.line, column: clamped.column)
        guard first.line >= 1, first.line <= lines.count else {
            return .error(at: firstLocation, "duplicate key '\(key)'; each key may appear only once in a mapping")
        }
        let spellings = [key, "'\(key)'", "\"\(key)\""].map { Array($0.unicodeScalars) }
        let indent = first.column - 1
        /// Whether `scalars` has the key at `start`, followed by spaces and a colon.
        func hasKey(_ scalars: [Unicode.Scalar], at start: Int) -> Bool {
            for spelling in spellings where start + spelling.count <= scalars.count {
                guard Array(scalars[start..<start + spelling.count]) == spelling else { continue }
                var index = start + spelling.count
                while index < scalars.count, scalars[index] == " " { index += 1 }
                if index < scalars.count, scalars[index] == ":",
                    index + 1 == scalars.count || [" ", "\t"].contains(scalars[index + 1])
                {
                    return true
                }
            }
            return false
        }
        var second: (line: Int, column: Int)?
        // A flow mapping: look further along the same line, after a comma or brace.
        let firstLine = lines[first.line - 1]
        var index = first.column
        while second == nil, index < firstLine.count {
            let previous = firstLine[index - 1]
            if [",", "{", " "].contains(previous), hasKey(firstLine, at: index) { second = (first.line, index + 1) }
            index += 1
        }
        // A block mapping: later lines with the same indentation, until the mapping ends.
        var lineNumber = first.line
        while second == nil, lineNumber < lines.count {
            let scalars = lines[lineNumber]
            lineNumber += 1
            let leading = scalars.prefix { $0 == " " }.count
            if leading == scalars.count || scalars[leading] == "#" { continue }
            if leading < indent { break }
            if leading == indent, hasKey(scalars, at: indent) { second = (lineNumber, indent + 1) }
        }
        guard let second else {
            return .error(at: firstLocation, "duplicate key '\(key)'; each key may appear only once in a mapping")
        }
        let message = "duplicate key '\(key)' (first at line \(first.line)); each key may appear only once in a mapping"
        return .error(at: FileLocation(file: file, line: second.line, column: second.column), message)
    }

    /// Whether line `line` (1-based) starts with a tab in its indentation.
    private static func isTabIndented(line: Int, in text: String) -> Bool {
        let lines = YAMLLines.lines(of: text)
        guard line >= 1, line <= lines.count else { return false }
        return lines[line - 1].prefix { $0 == " " || $0 == "\t" }.contains("\t")
    }
}
