import Foundation
import Mischief
import Yams

/// A `Decoder` over a composed `Yams.Node` whose errors carry the file location of the offending node.
final class YAMLNodeDecoder: Decoder {
    /// The node this decoder reads.
    let node: Node
    /// The keys leading from the document's root to `node`.
    let codingPath: [any CodingKey]
    /// State shared by every decoder of the run.
    let state: DecodingState

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: Node, codingPath: [any CodingKey], state: DecodingState) {
        self.node = node
        self.codingPath = codingPath
        self.state = state
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case let .mapping(mapping) = node else {
            throw mismatch(Any.self, expected: "a mapping", node: node, path: codingPath)
        }
        state.opened(mapping)
        return KeyedDecodingContainer(YAMLKeyedContainer<Key>(decoder: self, mapping: mapping))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case let .sequence(sequence) = node else {
            throw mismatch([Any].self, expected: "a list", node: node, path: codingPath)
        }
        return YAMLUnkeyedContainer(decoder: self, sequence: sequence)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        YAMLSingleValueContainer(decoder: self)
    }

    // MARK: Reading values

    /// Decodes `type` from `node`, which sits at `path`; primitives are read here, other types by their
    /// own `init(from:)` on a child decoder.
    func decode<T: Decodable>(_ type: T.Type, from node: Node, at path: [any CodingKey]) throws -> T {
        if T.self == String.self { return try text(from: node, at: path) as! T }
        if T.self == Bool.self { return try bool(from: node, at: path) as! T }
        if T.self == Double.self { return try double(from: node, at: path) as! T }
        if T.self == Float.self { return Float(try double(from: node, at: path)) as! T }
        if let integerType = T.self as? any FixedWidthInteger.Type {
            return try integer(integerType, from: node, at: path) as! T
        }
        if T.self == URL.self { return try url(from: node, at: path) as! T }
        let child = YAMLNodeDecoder(node: node, codingPath: path, state: state)
        do {
            return try T(from: child)
        } catch let error as DecodingError {
            throw improved(error, decoding: type, from: node, at: path)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: path, debugDescription: String(describing: error),
                    underlyingError: LocatedProblem(diagnostic: .error(at: state.location(of: node), "\(error)"))))
        }
    }

    /// Reads text: any scalar that is not null (an unquoted `123` gives `"123"`).
    func text(from node: Node, at path: [any CodingKey]) throws -> String {
        guard case let .scalar(scalar) = node, !YAMLScalar(scalar: scalar).isNull else {
            throw mismatch(String.self, expected: "text", node: node, path: path)
        }
        return scalar.string
    }

    /// Reads `true` or `false`.
    func bool(from node: Node, at path: [any CodingKey]) throws -> Bool {
        guard case let .scalar(scalar) = node, let value = YAMLScalar(scalar: scalar).bool else {
            throw mismatch(Bool.self, expected: "true or false", node: node, path: path)
        }
        return value
    }

    /// Reads a number.
    func double(from node: Node, at path: [any CodingKey]) throws -> Double {
        guard case let .scalar(scalar) = node, let value = YAMLScalar(scalar: scalar).double else {
            throw mismatch(Double.self, expected: "a number", node: node, path: path)
        }
        return value
    }

    /// Reads an integer that must fit in `I`.
    func integer<I: FixedWidthInteger>(_ type: I.Type, from node: Node, at path: [any CodingKey]) throws -> I {
        guard case let .scalar(scalar) = node else {
            throw mismatch(I.self, expected: "a number", node: node, path: path)
        }
        let reading = YAMLScalar(scalar: scalar)
        switch reading.integer {
        case let .value(negative, magnitude):
            if !negative, let value = I(exactly: magnitude) { return value }
            if negative, magnitude == 0 { return 0 }
            if negative, I.isSigned, magnitude <= UInt64(Int64.max) + 1 {
                let signed = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
                if let value = I(exactly: signed) { return value }
            }
            throw outOfRange(I.self, node: node, path: path)
        case .tooLarge:
            throw outOfRange(I.self, node: node, path: path)
        case .notInteger:
            if let double = reading.double, double.isFinite {
                if double.rounded() == double {
                    if let value = I(exactly: double) { return value }
                    throw outOfRange(I.self, node: node, path: path)
                }
                throw mismatch(I.self, expected: "a whole number", node: node, path: path)
            }
            throw mismatch(I.self, expected: "a number", node: node, path: path)
        }
    }

    /// Reads a URL from its text.
    func url(from node: Node, at path: [any CodingKey]) throws -> URL {
        let string = try text(from: node, at: path)
        guard let url = URL(string: string) else {
            throw mismatch(URL.self, expected: "a URL", node: node, path: path)
        }
        return url
    }

    /// Whether the node means "no value".
    func isNull(_ node: Node) -> Bool {
        guard case let .scalar(scalar) = node else { return false }
        return YAMLScalar(scalar: scalar).isNull
    }

    // MARK: Errors

    /// A located error at `location`.
    func located(_ location: FileLocation, _ message: String) -> LocatedProblem {
        LocatedProblem(diagnostic: .error(at: location, message))
    }

    /// "expected a number for 'seed', found "abc"", located at the node.
    func mismatch(_ type: Any.Type, expected: String, node: Node, path: [any CodingKey]) -> DecodingError {
        var message = "expected \(expected) \(YAMLCodingKey.phrase(for: path)), found \(Self.summary(of: node))"
        if case let .scalar(scalar) = node, YAMLScalar(scalar: scalar).isQuoted, expected != "text" {
            let unquoted = YAMLScalar(scalar: Node.Scalar(scalar.string, .implicit, .plain))
            if unquoted.double != nil || unquoted.bool != nil {
                message += " (quoted, so it is text; remove the quotes)"
            }
        }
        let problem = located(state.location(of: node), message)
        let context = DecodingError.Context(codingPath: path, debugDescription: message, underlyingError: problem)
        if isNull(node) { return .valueNotFound(type, context) }
        return .typeMismatch(type, context)
    }

    /// "value 300 is out of range for 'key' (expected 0 to 255)".
    func outOfRange<I: FixedWidthInteger>(_ type: I.Type, node: Node, path: [any CodingKey]) -> DecodingError {
        let text = node.scalar?.string ?? ""
        let message =
            "value \(text) is out of range \(YAMLCodingKey.phrase(for: path))"
            + " (expected \(I.min) to \(I.max))"
        return .dataCorrupted(
            .init(
                codingPath: path, debugDescription: message,
                underlyingError: located(state.location(of: node), message)))
    }

    /// Turns the standard library's complaint about an invalid enum value into one naming the valid values.
    private func improved<T>(
        _ error: DecodingError, decoding type: T.Type, from node: Node,
        at path: [any CodingKey]
    ) -> DecodingError {
        guard case let .dataCorrupted(context) = error, context.underlyingError == nil,
            context.codingPath.count == path.count,
            let cases = T.self as? any CaseIterable.Type, case let .scalar(scalar) = node
        else {
            return error
        }
        let names = Self.caseNames(cases)
        var message =
            "invalid value \(YAMLScalar(scalar: scalar).summary) \(YAMLCodingKey.phrase(for: path))"
            + "; expected one of: " + names.joined(separator: ", ")
        if let suggestion = suggestion(for: scalar.string, among: Array(names)) {
            message += " (did you mean '\(suggestion)'?)"
        }
        return .dataCorrupted(
            .init(
                codingPath: path, debugDescription: message,
                underlyingError: located(state.location(of: node), message)))
    }

    /// The raw values (or names) of a case-iterable type's cases.
    private static func caseNames<C: CaseIterable>(_ type: C.Type) -> [String] {
        C.allCases.map { value in
            if let raw = value as? any RawRepresentable { return "\(raw.rawValue)" }
            return "\(value)"
        }
    }

    /// How a node is shown in a message.
    static func summary(of node: Node) -> String {
        switch node {
        case let .scalar(scalar): YAMLScalar(scalar: scalar).summary
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}
