import Foundation
import Mischief

/// The `model.*` family for one `Codable` model type: a seam around decoding (bytes → model) and one around
/// values (model → model), whose actions change fields in a type-aware way.
///
/// The model's shape (which keys exist, which are optional, what each field decodes as, down through nested
/// types, arrays, dates, UUIDs and enums) is learned with a recording decoder; mutations are made on the JSON
/// tree and decoded back with the model's own decoder. A mutation the decoder rejects is dropped, and both the
/// applied and the rejected ones are reported as events.
///
/// ```swift
/// struct User: Codable, Sendable { var name: String; var age: Int; var email: String? }
///
/// let users = ChaosModel<User>("user")              // seams model.user.decode and model.user
/// try Registry.shared.register(users.decoding, users.values)
///
/// try Registry.shared.apply(spec: "randomize(fields: 50%, seed: 7)", to: "model.user.decode")
/// let user = try users.decode(json)                  // the same fields change the same way for seed 7
/// ```
///
/// Actions: `randomize(fields: 30%, seed: N)` (strings empty, very long, Unicode, emoji, right-to-left,
/// whitespace; numbers 0, −1, min, max; booleans flipped; arrays empty, one, many; optionals null), `nulls`,
/// `extremes` and `set(path: "address.city", value: <JSON>)`.
public final class ChaosModel<Model: Codable & Sendable>: Sendable {
    /// The seam around decoding: JSON bytes in, a model out.
    public let decoding: Seam<Data, Model, any Error>
    /// The seam around values the target already has: a model in, a model out.
    public let values: Seam<Model, Model, Never>

    /// Declares the two seams, `model.<name>.decode` and `model.<name>`.
    ///
    /// - Parameters:
    ///   - name: The model's name in seam ids, e.g. `user`.
    ///   - title: The model's name in the console; by default the type's name.
    ///   - encoder: How the target encodes the model (used to see a value as JSON).
    ///   - decoder: How the target decodes it; it decides which mutations are accepted.
    public init(
        _ name: String, title: String? = nil, encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder()
    ) {
        let title = title ?? "\(Model.self)"
        decoding = Seam(
            SeamID(stringLiteral: "model.\(name).decode"), title: "\(title) decoding", category: "Models",
            summary: "JSON bytes decoded into \(Model.self)", makeError: { InjectedError($0) },
            actions: Self.actions(encoder: encoder, decoder: decoder) { mutator, seed, call in
                let (model, report) = try mutator.mutate(
                    data: call.input, as: Model.self, seed: seed, callIndex: call.index)
                Self.report(report, to: call.report)
                return model
            },
            original: { data in try decoder.decode(Model.self, from: data) })
        values = Seam(
            SeamID(stringLiteral: "model.\(name)"), title: title, category: "Models",
            summary: "\(Model.self) values the target passes through",
            actions: Self.actions(
                encoder: encoder, decoder: decoder
            ) { mutator, seed, call in
                let (model, report) = mutator.mutate(call.original(), seed: seed, callIndex: call.index)
                Self.report(report, to: call.report)
                return model
            },
            original: { $0 })
    }

    /// Decodes `data` through the decoding seam (one counted call).
    public func decode(_ data: Data) throws -> Model {
        try decoding(data)
    }

    /// Passes `model` through the value seam (one counted call).
    public func value(_ model: Model) -> Model {
        values(model)
    }

    // MARK: Actions

    /// The four mutation actions for a seam whose calls `run` a mutator with a seed.
    private static func actions<Input, Failure>(
        encoder: JSONEncoder, decoder: JSONDecoder,
        run: @escaping @Sendable (ModelMutator, UInt64, Call<Input, Model, Failure>) throws(Failure) -> Model
    ) -> [SeamAction<Input, Model, Failure>] {
        func action(
            _ signature: ActionSignature,
            _ strategy: @escaping @Sendable (BoundAction, UInt64) -> ModelMutator.Strategy
        ) -> SeamAction<Input, Model, Failure> {
            .produce(signature) { (bound, context) throws(SpecError) in
                let seed = bound.integer("seed").map { UInt64(bitPattern: Int64($0)) } ?? context.randomSeed
                let mutator = ModelMutator(strategy(bound, seed), encoder: encoder, decoder: decoder)
                do {
                    try mutator.validate(for: Model.self)
                } catch {
                    let argument = signature.parameters.first?.name
                    throw context.error("\(error)", argument: argument, of: bound)
                }
                return .closure { (call) throws(Failure) in try run(mutator, seed, call) }
            }
        }
        let seed = ActionSignature.Parameter(
            "seed", .integer, default: .null, summary: "the seed; default: the profile's or session's")
        return [
            action(
                ActionSignature(
                    "randomize", summary: "changes a share of the fields to awkward values, type by type",
                    parameters: [
                        .init(
                            "fields", .percent, default: .percent(30), step: .percent(10),
                            summary: "the share of present fields to change"),
                        seed,
                    ], composes: true)
            ) { bound, seed in .randomize(fields: bound.percent("fields")! / 100, seed: seed) },
            action(ActionSignature("nulls", summary: "every optional field becomes null", composes: true)) { _, _ in
                .nulls
            },
            action(
                ActionSignature(
                    "extremes", summary: "numbers at their maximum, strings very long, arrays of many", composes: true)
            ) { _, _ in .extremes },
            action(
                ActionSignature(
                    "set", summary: "sets one field (or every element for `[]`) to a JSON value",
                    parameters: [
                        .init("path", .string, summary: "a dotted path such as address.city or tags[]"),
                        .init("value", .json, summary: "the value as JSON: \"\", 0, null, [1, 2]"),
                    ], composes: true)
            ) { bound, _ in .set(path: bound.string("path")!, json: bound.json("value")!) },
        ]
    }

    /// One event per call that changed or tried to change something.
    private static func report(_ report: MutationReport, to reporter: (String) -> Void) {
        guard !report.isEmpty else { return }
        reporter(report.lines.joined(separator: "; "))
    }
}
