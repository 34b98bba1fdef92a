import Foundation
import Mischief
import Yams

/// Reads YAML files into `Decodable` types with located diagnostics, and writes `Encodable` values as YAML.
///
/// Decoding uses its own `Decoder` over Yams' composed nodes, so every error names `file:line:column`.
/// Keys no type asked for come back as warnings; keys a type reads with `decodeIfPresent` may be left out.
public enum YAMLFile: Sendable {
    /// Decodes `type` from YAML text; `file` is the name used in locations.
    public static func decode<T: Decodable>(
        _ type: T.Type, from text: String, file: String
    ) throws(FileErrors) -> Decoded<T> {
        try decode(type, from: text, file: file, emptyMessage: "the file is empty; expected YAML content")
    }

    /// Reads and decodes a file; an unreadable or non-UTF-8 file is an error naming the path.
    public static func decode<T: Decodable>(_ type: T.Type, contentsOf url: URL) throws(FileErrors) -> Decoded<T> {
        let text = try readText(contentsOf: url)
        return try decode(type, from: text, file: url.path)
    }

    /// Encodes a value as YAML text with Yams' encoder.
    public static func encode<T: Encodable>(_ value: T) throws -> String {
        try YAMLEncoder().encode(value)
    }

    /// The location of the YAML node a decoder reads, for types that want to remember where they came from.
    ///
    /// Returns nil for decoders other than this module's.
    public static func location(of decoder: any Decoder) -> FileLocation? {
        guard let decoder = decoder as? YAMLNodeDecoder, decoder.node.mark != nil else { return nil }
        return decoder.state.location(of: decoder.node)
    }

    // MARK: Internals

    /// Decodes `type` from YAML text, reporting an empty document with `emptyMessage`.
    static func decode<T: Decodable>(
        _ type: T.Type, from text: String, file: String, emptyMessage: String
    ) throws(FileErrors) -> Decoded<T> {
        let root = try compose(text, file: file, emptyMessage: emptyMessage)
        let state = DecodingState(file: file, text: text)
        try YAMLExpansion.check(root, state: state)
        let decoder = YAMLNodeDecoder(node: root, codingPath: [], state: state)
        do {
            let value = try decoder.decode(type, from: root, at: [])
            return Decoded(value: value, warnings: state.unknownKeyWarnings())
        } catch {
            throw FileErrors(diagnostic(for: error, root: root, state: state))
        }
    }

    /// Parses YAML text into a single document's root node.
    static func compose(_ text: String, file: String, emptyMessage: String) throws(FileErrors) -> Node {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw FileErrors(YAMLSyntaxError.diagnostic(for: error, file: file, text: text))
        }
        guard let root else {
            throw FileErrors(.error(at: FileLocation(file: file, line: 1, column: 1), emptyMessage))
        }
        return root
    }

    /// The largest YAML file read (a profile file, `MISCHIEF_PROFILE`, a theme): 1 MiB, as for a profile sent to the
    /// control API.
    public static let maximumFileSize = 1 << 20

    /// Reads a file as UTF-8 text, reporting unreadable files and invalid bytes with their location.
    ///
    /// Only regular files are read, and at most ``maximumFileSize`` bytes of them: a FIFO, a device such as
    /// `/dev/zero` or a larger file is refused without waiting on it or reading it whole.
    static func readText(contentsOf url: URL) throws(FileErrors) -> String {
        let path = url.path
        let bytes: [UInt8]
        do throws(FileReadFailure) {
            bytes = try FileReader.read(path, limit: maximumFileSize)
        } catch {
            throw FileErrors(.error(at: .wholeFile(path), "cannot read the file: \(reason(for: error))"))
        }
        return try UTF8Text.decode(Data(bytes), file: path)
    }

    /// What is wrong with a file that could not be read, as short as the old messages were.
    static func reason(for failure: FileReadFailure) -> String {
        switch failure {
        case .system(ENOENT): "no such file"
        case .notRegular("a directory"): "it is a directory"
        case .tooLarge(let limit): "it is larger than \(FileReader.describe(bytes: limit)), the limit for a YAML file"
        default: failure.detail(workingDirectory: false)
        }
    }

    /// A short reason for a file-system error (the POSIX message when there is one).
    static func reason(for error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if error.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(error.code)))
        }
        return error.localizedDescription
    }

    /// The diagnostic for an error thrown while decoding.
    private static func diagnostic(for error: any Error, root: Node, state: DecodingState) -> FileDiagnostic {
        guard let error = error as? DecodingError else {
            return .error(at: state.location(of: root), "\(error)")
        }
        let context: DecodingError.Context
        switch error {
        case let .typeMismatch(_, found), let .valueNotFound(_, found), let .dataCorrupted(found):
            context = found
        case let .keyNotFound(key, found):
            if let located = found.underlyingError as? LocatedProblem { return located.diagnostic }
            let node = node(at: found.codingPath, from: root)
            return .error(at: state.location(of: node), "missing key '\(key.stringValue)'")
        @unknown default:
            return .error(at: state.location(of: root), "\(error)")
        }
        if let located = context.underlyingError as? LocatedProblem { return located.diagnostic }
        let node = node(at: context.codingPath, from: root)
        return .error(at: state.location(of: node), context.debugDescription)
    }

    /// The node a coding path leads to from `root` (the deepest one found, should the path go astray).
    static func node(at path: [any CodingKey], from root: Node) -> Node {
        var current = root
        for key in path {
            switch current {
            case let .mapping(mapping):
                guard let value = mapping.first(where: { $0.key.scalar?.string == key.stringValue })?.value else {
                    return current
                }
                current = value
            case let .sequence(sequence):
                guard let index = key.intValue, sequence.indices.contains(index) else { return current }
                current = sequence[index]
            default:
                return current
            }
        }
        return current
    }
}
