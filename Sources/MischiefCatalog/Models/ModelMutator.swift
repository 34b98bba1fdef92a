import Foundation
import Mischief

/// Mutates fields of any `Codable` model in a type-aware, seeded way, for the `model.*` seams.
///
/// The value is encoded with the mutator's `JSONEncoder`, its JSON tree is changed using the learned ``ModelShape``,
/// and the result is decoded back with the model's own `JSONDecoder`. Every single change is checked by decoding: a
/// change the model rejects (an unknown enum raw value, an empty URL, an out-of-range number) is dropped, so the field
/// keeps its value, and reported in ``MutationReport/rejected`` — that is useful information too.
///
/// Numbers never become NaN or ±infinity, because JSON cannot carry them; `Double.greatestFiniteMagnitude` is the
/// extreme instead. Dates, UUIDs and data are written through the encoder, so its strategies are honoured; pass the
/// encoder/decoder pair the app uses.
///
/// ```swift
/// let mutator = ModelMutator(.randomize(fields: 0.3))
/// let (user, report) = mutator.mutate(User.fixture, seed: 42, callIndex: 7)
/// print(report) // name: "Ann" → ""   age: 34 → -1   ...
/// ```
public struct ModelMutator: Sendable {
    /// How fields are chosen and changed.
    public enum Strategy: Hashable, Sendable {
        /// Mutate a `fields` fraction (0...1) of the present fields, type-aware, chosen by seed. The strategy's own
        /// `seed` is mixed with the seed and call index given to `mutate`.
        case randomize(fields: Double, seed: UInt64 = 0)
        /// Every present optional field becomes `null`.
        case nulls
        /// Numbers become their maximum, strings very long, arrays many copies, dates `distantFuture`.
        case extremes
        /// One field (or every element for `[]`) is set to a JSON value,
        /// e.g. `set(path: "address.city", json: "\"\"")`.
        case set(path: String, json: String)
    }

    /// Problems found before mutating (see ``validate(for:)``) or in bytes given to
    /// ``mutate(data:as:seed:callIndex:)``.
    public enum MutationError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The path is not well formed.
        case invalidPath(String)
        /// The model has no field at this path.
        case unknownPath(String, typeName: String, known: [String])
        /// The JSON text for ``Strategy/set(path:json:)`` does not parse.
        case invalidJSON(String, reason: String)
        /// The randomize fraction is outside 0...1 or not finite.
        case invalidFraction(Double)
        /// The input bytes are not JSON.
        case notJSON(String)

        /// What is wrong, in a sentence.
        public var description: String {
            switch self {
            case .invalidPath(let path): "malformed path '\(path)'"
            case .unknownPath(let path, let typeName, let known):
                "\(typeName) has no field '\(path)' (known: \(known.joined(separator: ", ")))"
            case .invalidJSON(let json, let reason): "invalid JSON '\(json)': \(reason)"
            case .invalidFraction(let fraction): "fraction \(fraction) is outside 0...1"
            case .notJSON(let reason): "input is not JSON: \(reason)"
            }
        }
    }

    /// Length of the "very long" string mutation.
    public static let longStringLength = 1_000
    /// Element count of the "many" array mutation.
    public static let manyCount = 50
    /// The unknown raw value tried on `String` enums.
    public static let unknownEnumString = "\u{FFFD}unknown"

    /// The active strategy.
    public var strategy: Strategy
    /// Encodes models (and date/UUID/data leaves) to JSON.
    public var encoder: JSONEncoder
    /// The model's decoder; it decides which mutations are accepted.
    public var decoder: JSONDecoder

    /// Creates a mutator; pass the app's configured encoder/decoder if it uses non-default strategies.
    public init(_ strategy: Strategy, encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder()) {
        self.strategy = strategy
        self.encoder = encoder
        self.decoder = decoder
    }

    /// Checks the strategy against `type` up front (bad path, bad JSON, bad fraction), for console feedback.
    public func validate<T: Decodable>(for type: T.Type) throws {
        switch strategy {
        case .randomize(let fraction, _):
            guard fraction.isFinite, (0...1).contains(fraction) else { throw MutationError.invalidFraction(fraction) }
        case .nulls, .extremes:
            break
        case .set(let path, let json):
            _ = try setTarget(path: path, json: json, shape: ModelShape.learn(type))
        }
    }

    /// Mutates a model value (the value seam). Never throws: problems are reported as rejections.
    ///
    /// Same `seed` and `callIndex` give the same mutations.
    public func mutate<T: Codable>(_ value: T, seed: UInt64, callIndex: Int) -> (T, MutationReport) {
        let tree: JSONValue
        do {
            tree = try JSONValue.parse(encoder.encode(value))
        } catch {
            return (value, Self.failure("cannot encode \(T.self): \(Self.reason(error))"))
        }
        do {
            return try run(T.self, tree: tree, seed: seed, callIndex: callIndex)
        } catch {
            return (value, Self.failure("\(T.self) does not round-trip through JSON: \(Self.reason(error))"))
        }
    }

    /// Decodes `data` as `type` with mutations applied (the decoding seam: bytes → mutated model).
    ///
    /// - Throws: ``MutationError/notJSON(_:)`` for non-JSON bytes, or the decoder's error when the unmutated bytes
    ///   do not decode (exactly what the app would see without Mischief).
    public func mutate<T: Decodable>(
        data: Data, as type: T.Type, seed: UInt64, callIndex: Int
    ) throws -> (T, MutationReport) {
        let tree: JSONValue
        do {
            tree = try JSONValue.parse(data)
        } catch {
            throw MutationError.notJSON(String(describing: error))
        }
        return try run(type, tree: tree, seed: seed, callIndex: callIndex)
    }

    // MARK: - Engine

    private struct Location {
        var steps: [MutationPath.Step]
        var field: ModelField
    }

    /// Decodes the original tree, then applies and checks mutations one by one.
    private func run<T: Decodable>(
        _ type: T.Type, tree original: JSONValue, seed: UInt64, callIndex: Int
    ) throws -> (T, MutationReport) {
        var current = try decoder.decode(type, from: original.data)
        let shape = try ModelShape.learn(type, source: original)
        // JSONEncoder's key order varies between runs; declaration order keeps reports reproducible.
        var tree = original.ordered(like: shape.root)
        var report = MutationReport()
        var rng = SeededGenerator(mixing: strategySeed, seed, UInt64(bitPattern: Int64(callIndex)))

        func attempt(_ steps: [MutationPath.Step], _ newValue: JSONValue) {
            let path = MutationPath.display(steps)
            let oldText = tree.value(at: steps)?.text ?? "null"
            var candidate = tree
            guard candidate.setValue(newValue, at: steps[...]) else {
                report.rejected.append(
                    .init(
                        path: path, old: oldText, attempted: newValue.text,
                        reason: "no value at this path"))
                return
            }
            do {
                current = try decoder.decode(type, from: candidate.data)
                tree = candidate
                report.applied.append(.init(path: path, old: oldText, new: newValue.text))
            } catch {
                report.rejected.append(
                    .init(
                        path: path, old: oldText, attempted: newValue.text,
                        reason: Self.reason(error)))
            }
        }

        switch strategy {
        case .randomize(let fraction, _):
            let locations = collect(tree, shape: shape).filter { !candidates(for: $0, in: tree).isEmpty }
            let bounded = fraction.isFinite ? min(max(fraction, 0), 1) : 0
            var count = Int((Double(locations.count) * bounded).rounded())
            if bounded > 0, count == 0, !locations.isEmpty { count = 1 }
            var order = Array(locations.indices)
            for index in 0..<count {
                order.swapAt(index, index + rng.index(below: order.count - index))
            }
            for position in order.prefix(count).sorted() {
                let location = locations[position]
                let options = candidates(for: location, in: tree)
                guard !options.isEmpty else { continue }
                attempt(location.steps, options[rng.index(below: options.count)])
            }
        case .nulls:
            for location in collect(tree, shape: shape) where location.field.isOptional {
                if let value = tree.value(at: location.steps), !value.isNull { attempt(location.steps, .null) }
            }
        case .extremes:
            for location in collect(tree, shape: shape).reversed() {
                guard let value = tree.value(at: location.steps),
                    let extreme = extreme(for: location.field, value: value), extreme != value
                else { continue }
                attempt(location.steps, extreme)
            }
            // Applied children first (so "many" copies extreme elements); report in document order.
            report.applied.reverse()
            report.rejected.reverse()
        case .set(let path, let json):
            do {
                let (target, value) = try setTarget(path: path, json: json, shape: shape)
                let matches = target.expand(in: tree)
                if matches.isEmpty {
                    report.rejected.append(
                        .init(
                            path: target.description, old: "null", attempted: value.text,
                            reason: "no value at this path in this instance"))
                }
                for steps in matches { attempt(steps, value) }
            } catch {
                report.rejected.append(.init(path: path, old: "null", attempted: json, reason: "\(error)"))
            }
        }
        return (current, report)
    }

    private var strategySeed: UInt64 {
        if case .randomize(_, let seed) = strategy { return seed }
        return 0
    }

    private func setTarget(path: String, json: String, shape: ModelShape) throws -> (MutationPath, JSONValue) {
        let target = try MutationPath(path)
        guard shape.field(at: target.shapePath) != nil else {
            throw MutationError.unknownPath(path, typeName: shape.typeName, known: shape.paths)
        }
        do {
            return (target, try JSONValue.parse(json))
        } catch {
            throw MutationError.invalidJSON(json, reason: String(describing: error))
        }
    }

    /// Every present field of `tree`, in document order (parents before children).
    private func collect(_ tree: JSONValue, shape: ModelShape) -> [Location] {
        var out: [Location] = []
        func walk(_ value: JSONValue, _ field: ModelField, _ steps: [MutationPath.Step]) {
            switch (field.kind, value) {
            case (.object(let fields), .object):
                for child in fields {
                    guard let childValue = value[key: child.key] else { continue }
                    let childSteps = steps + [.key(child.key)]
                    out.append(Location(steps: childSteps, field: child))
                    walk(childValue, child, childSteps)
                }
            case (.array(let element), .array(let items)):
                for (index, item) in items.enumerated() {
                    let childSteps = steps + [.index(index)]
                    out.append(Location(steps: childSteps, field: element))
                    walk(item, element, childSteps)
                }
            default:
                break
            }
        }
        if case .object = shape.root.kind {} else { out.append(Location(steps: [], field: shape.root)) }
        walk(tree, shape.root, [])
        return out
    }

    /// Type-aware replacement values for `randomize`, excluding the current value.
    private func candidates(for location: Location, in tree: JSONValue) -> [JSONValue] {
        guard let value = tree.value(at: location.steps), !value.isNull else { return [] }
        let field = location.field
        var options: [JSONValue]
        switch field.kind {
        case .string:
            options = Self.hostileStrings.map(JSONValue.string)
        case .integer(let bits, let signed):
            let (low, high) = Self.integerRange(bits: bits, signed: signed)
            options = ([.number("0")] + (signed ? [.number("-1")] : []) + [.number(low), .number(high)])
        case .double:
            options = ["0", "-1", "-1.7976931348623157e+308", "1.7976931348623157e+308"].map(JSONValue.number)
        case .float:
            let largest = String(Double(Float.greatestFiniteMagnitude))
            options = ["0", "-1", "-" + largest, largest].map(JSONValue.number)
        case .bool:
            options = [.bool(value != .bool(true))]
        case .date:
            options = [Date.distantPast, Date.distantFuture, Date(timeIntervalSince1970: 0)].map(encoded)
        case .uuid:
            options = [encoded(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))]
        case .url:
            options = [
                .string(""), .string("about:blank"),
                .string("https://example.invalid/" + String(repeating: "a", count: Self.longStringLength)),
            ]
        case .data:
            options = [encoded(Data()), encoded(Data(repeating: 0xFF, count: Self.longStringLength))]
        case .stringEnum(let cases):
            options = [
                .string(
                    cases.contains(Self.unknownEnumString)
                        ? Self.unknownEnumString + "2"
                        : Self.unknownEnumString)
            ]
        case .intEnum(let cases):
            options = [.number(String((cases.max() ?? 0) &+ 1))]
        case .array(let element):
            options = arrayVariants(value, element: element, path: location.steps)
        case .object, .other:
            options = []
        }
        if field.isOptional { options.append(.null) }
        return options.filter { $0 != value }
    }

    /// The `extremes` replacement for a field, if it has one.
    private func extreme(for field: ModelField, value: JSONValue) -> JSONValue? {
        switch field.kind {
        case .string: .string(Self.longString)
        case .integer(let bits, let signed): .number(Self.integerRange(bits: bits, signed: signed).max)
        case .double: .number("1.7976931348623157e+308")
        case .float: .number(String(Double(Float.greatestFiniteMagnitude)))
        case .date: encoded(Date.distantFuture)
        case .array(let element): arrayVariants(value, element: element, path: []).last
        default: nil
        }
    }

    /// Empty, one element, and ``manyCount`` copies of the first (or a synthesised) element.
    private func arrayVariants(_ value: JSONValue, element: ModelField, path: [MutationPath.Step]) -> [JSONValue] {
        guard case .array(let items) = value else { return [] }
        let first =
            items.first
            ?? Fixtures.value(for: element, label: "mischief", path: MutationPath.display(path), encoder: encoder)
        guard !first.isNull || element.isOptional else { return [.array([])] }
        return [.array([]), .array([first]), .array(Array(repeating: first, count: Self.manyCount))]
    }

    private func encoded<V: Encodable>(_ value: V) -> JSONValue {
        Fixtures.encoded(value, encoder: encoder)
    }

    /// Strings that commonly break layouts and validation.
    static let hostileStrings = [
        "",
        longString,
        "Zoë Ångström-Núñez, ça va? ÀÉÎÕÜ ß ø",
        "🐙🔥👩‍👩‍👧‍👦🇵🇹🙈",
        "\u{202E}مرحبا بالعالم עברית",
        " \t \n  ",
    ]

    /// ``longStringLength`` characters of readable filler.
    static let longString: String = {
        let filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
        return String(String(repeating: filler, count: longStringLength / filler.count + 1).prefix(longStringLength))
    }()

    /// JSON texts of the minimum and maximum of an integer width.
    static func integerRange(bits: Int, signed: Bool) -> (min: String, max: String) {
        let width = UInt64(min(max(bits, 1), 64))
        if signed {
            let magnitude = UInt64(1) << (width - 1)
            return ("-" + String(magnitude), String(magnitude - 1))
        }
        return ("0", width == 64 ? String(UInt64.max) : String((UInt64(1) << width) - 1))
    }

    private static func failure(_ reason: String) -> MutationReport {
        MutationReport(rejected: [.init(path: "$", old: "", attempted: "", reason: reason)])
    }

    /// The readable text of a decoding error, first letter lower-cased.
    static func reason(_ error: any Error) -> String {
        let text: String
        switch error as? DecodingError {
        case .dataCorrupted(let context)?:
            text = context.debugDescription
        case .typeMismatch(let type, let context)?:
            text = "expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context)?:
            text = "missing \(type): \(context.debugDescription)"
        case .keyNotFound(let key, _)?:
            text = "missing key '\(key.stringValue)'"
        default:
            text = String(describing: error)
        }
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
