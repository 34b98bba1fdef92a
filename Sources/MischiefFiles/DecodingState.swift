import Mischief
import Yams

/// What one decoding run shares between its decoders: the file, and which mapping keys were asked for.
final class DecodingState {
    /// The file name used in locations.
    let file: String
    /// The file's text, to follow a scalar's source (see ``YAMLScalarSource``).
    let text: String
    /// The text as scalars and lines, read once, for ``YAMLScalarSource``.
    private(set) lazy var source = YAMLSourceText(text)
    /// The length of each line, to keep locations inside the text.
    private lazy var lineLengths = YAMLLines.lengths(of: text)
    /// Keys asked for, per mapping (identified by its position), in the order mappings were opened.
    private var usage: [Position: Usage] = [:]
    private var order: [Position] = []

    /// A node's position in the file, identifying it.
    private struct Position: Hashable {
        var line: Int
        var column: Int
    }

    /// Which keys of one mapping the decoded types asked for.
    private struct Usage {
        var mapping: Node.Mapping
        var asked: [String] = []
        var askedSet: Set<String> = []
        var all = false
    }

    init(file: String, text: String) {
        self.file = file
        self.text = text
    }

    /// The location of a node (the whole file when the node has no mark).
    func location(of node: Node) -> FileLocation {
        location(of: node.mark)
    }

    /// The location of a mark (the whole file when there is none).
    func location(of mark: Mark?) -> FileLocation {
        guard let mark else { return .wholeFile(file) }
        let (line, column) = YAMLLines.clamp(line: mark.line, column: mark.column, lengths: lineLengths)
        return FileLocation(file: file, line: line, column: column)
    }

    /// Starts tracking a mapping opened as a keyed container.
    func opened(_ mapping: Node.Mapping) {
        guard let position = position(of: mapping), usage[position] == nil else { return }
        usage[position] = Usage(mapping: mapping)
        order.append(position)
    }

    /// Records that a type asked for `key` in `mapping` (whether or not it is there).
    func asked(_ key: String, in mapping: Node.Mapping) {
        guard let position = position(of: mapping), usage[position] != nil else { return }
        if usage[position]!.askedSet.insert(key).inserted {
            usage[position]!.asked.append(key)
        }
    }

    /// Records that a type read all keys of `mapping` (as a dictionary does).
    func askedAll(in mapping: Node.Mapping) {
        guard let position = position(of: mapping) else { return }
        usage[position]?.all = true
    }

    /// Warnings for keys no type asked for, with a suggestion when a wanted key is spelled alike.
    func unknownKeyWarnings() -> [FileDiagnostic] {
        var warnings: [FileDiagnostic] = []
        for position in order {
            guard let entry = usage[position], !entry.all else { continue }
            for key in entry.mapping.keys {
                guard let name = key.scalar?.string, !entry.askedSet.contains(name) else { continue }
                var message = "unknown key '\(name)'"
                if let suggestion = suggestion(for: name, among: Array(entry.asked)) {
                    message += "; did you mean '\(suggestion)'?"
                } else if !entry.asked.isEmpty {
                    message += "; expected one of: " + entry.asked.map { "'\($0)'" }.joined(separator: ", ")
                }
                warnings.append(.warning(at: location(of: key), message))
            }
        }
        return warnings.sorted { $0.location < $1.location }
    }

    private func position(of mapping: Node.Mapping) -> Position? {
        mapping.mark.map { Position(line: $0.line, column: $0.column) }
    }
}
