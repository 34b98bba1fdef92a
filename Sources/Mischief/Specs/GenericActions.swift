#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The actions every seam understands, offered according to its types: `return` where the output is Decodable,
/// `nil` where it is optional, `throw` where the seam can throw, `random` where the output is a ``RandomValue``.
enum GenericActions {
    /// The generic actions of each kind of seam (its types, and whether it can throw), with their signatures, made
    /// once and shared by every seam of that kind: they depend on nothing else, and made per seam they were most
    /// of a registered seam's memory.
    private static let made = Locked<[Kind: any Sendable]>([:])

    private struct Kind: Hashable {
        let types: ObjectIdentifier
        let canThrow: Bool
    }

    /// ``all(for:canThrow:makeFailure:)``'s actions for these types, and their signatures, shared.
    static func shared<Input, Output, Failure>(
        for types: (Input, Output, Failure).Type, canThrow: Bool
    ) -> (actions: [SeamAction<Input, Output, Failure>], signatures: [ActionSignature]) {
        typealias Made = (actions: [SeamAction<Input, Output, Failure>], signatures: [ActionSignature])
        let kind = Kind(types: ObjectIdentifier(types), canThrow: canThrow)
        if let found = made.withLock({ $0[kind] }) { return found as! Made }
        let actions = all(for: types, canThrow: canThrow, makeFailure: nil)
        let new: Made = (actions, actions.map(\.signature))
        return made.withLock { made in
            if let found = made[kind] { return found as! Made }  // another thread made them first: share those
            made[kind] = new
            return new
        }
    }

    static func all<Input, Output, Failure>(
        for _: (Input, Output, Failure).Type, canThrow: Bool, makeFailure: (@Sendable (String) -> Failure)?
    ) -> [SeamAction<Input, Output, Failure>] {
        typealias Action = SeamAction<Input, Output, Failure>
        var actions: [Action] = [
            .produce(ActionSignature("off", summary: "the original runs; nothing after it is tried")) { _, _ in
                .original
            },
            Action(
                ActionSignature(
                    "delay", summary: "waits, then runs what follows (or the original)",
                    parameters: [
                        .init(
                            "for", .duration, step: .duration(SpecDuration(.milliseconds(100))),
                            summary: "how long to wait; up to 1d")
                    ],
                    composes: true)
            ) { (action, context) throws(SpecError) in
                let duration = action.duration("for")!
                guard duration >= .zero, duration <= PauseGate.longestMax else {
                    throw context.error(
                        "delay needs a duration of zero or more and at most 1d, such as 250ms", argument: "for",
                        of: action)
                }
                return .wrap { $0.delayed(by: duration) }
            },
            Action(
                ActionSignature(
                    "pause",
                    summary: "holds each call until released (or until max passes), then runs what follows",
                    parameters: [
                        .init(
                            "max", .duration, default: .duration(SpecDuration(PauseGate.defaultMax)),
                            summary: "the longest a call is held; up to 1d")
                    ],
                    composes: true)
            ) { (action, context) throws(SpecError) in
                let max = action.duration("max")!
                guard max > .zero, max <= PauseGate.longestMax else {
                    throw context.error(
                        "pause(max:) needs a duration above zero and at most 1d, such as 30s", argument: "max",
                        of: action)
                }
                return .wrap { $0.paused(max: max) }
            },
            Action(
                ActionSignature(
                    "log",
                    summary: "logs the call (its input) to the event log, then runs what follows; alias print",
                    parameters: [
                        .init("message", .string, default: .string(logDefaultMessage), summary: "what the event says")
                    ],
                    composes: true)
            ) { action, _ in
                let message = action.string("message")!
                return .wrap { $0.logged(message) }
            },
            .produce(
                ActionSignature(
                    "crash",
                    summary: "ends the process (exit status 86); only where the target allows crashes",
                    parameters: [
                        .init("message", .string, default: .string(crashDefaultMessage), summary: "said on stderr")
                    ],
                    composes: true)
            ) { action, _ in .crash(action.string("message")!) },
            .produce(
                ActionSignature(
                    "seq", summary: "call i gets behaviour i; the last one repeats",
                    parameters: [.init("behaviours", .any, summary: "specs separated by commas")], composes: true)
            ) { _, _ in
                preconditionFailure("seq is built by SpecBuilder, which reads its arguments as specs")
            },
        ]
        if Output.self is any Decodable.Type {
            actions.append(
                .produce(
                    ActionSignature(
                        "return", summary: "returns a value, written as JSON",
                        parameters: [
                            .init("value", .json, summary: "the value as JSON: 42, \"text\", {\"name\": \"Ann\"}")
                        ],
                        composes: true)
                ) { (action, context) throws(SpecError) in
                    let json = action.json("value") ?? "null"
                    do {
                        let decodable = Output.self as! any Decodable.Type
                        let value = try decodeJSON(decodable, from: json)
                        return .constant(value as! Output).labelled("return(\(json))")
                    } catch {
                        throw context.error(
                            "return(…) needs JSON for \(Output.self): \(describeDecodingError(error))",
                            argument: "value", of: action)
                    }
                })
        }
        if let optional = Output.self as? any ExpressibleByNilLiteral.Type {
            let none = makeNil(optional) as! Output
            actions.append(
                .produce(ActionSignature("nil", summary: "returns nil", composes: true)) { _, _ in
                    .constant(none).labelled("nil")
                })
        }
        if canThrow {
            actions.append(
                .produce(
                    ActionSignature(
                        "throw", summary: "throws an error with a message",
                        parameters: [
                            .init("message", .string, default: .string("injected by Mischief"), summary: "the error")
                        ],
                        composes: true)
                ) { action, _ in .throwing(message: action.string("message")!) })
        }
        if let random = Output.self as? any RandomValue.Type {
            let generate = randomGenerator(random) as! @Sendable (inout SeededGenerator) -> Output
            actions.append(
                .produce(
                    ActionSignature(
                        "random", summary: "returns random values, the same ones for the same seed",
                        parameters: [
                            .init(
                                "seed", .integer, default: .null,
                                summary: "the seed; default: the profile's or session's")
                        ],
                        composes: true)
                ) { action, _ in
                    let seed = action.integer("seed").map { UInt64(bitPattern: Int64($0)) }
                    return .random(seed: seed, generate)
                })
        }
        return actions
    }
}

/// `json` as a `T`, with the default `JSONDecoder`, or, when that fails, with dates in ISO 8601 (as a held call's
/// input shows them, ``HeldCall/readable(_:)``); the first decoder's error when neither reads it.
private func decodeJSON<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
    do {
        return try JSONDecoder().decode(T.self, from: Data(json.utf8))
    } catch {
        let people = JSONDecoder()
        people.dateDecodingStrategy = .iso8601
        guard let value = try? people.decode(T.self, from: Data(json.utf8)) else { throw error }
        return value
    }
}

private func makeNil<T: ExpressibleByNilLiteral>(_ type: T.Type) -> T { nil }

/// A generator closure for `T`, made once so calls need no dynamic cast.
private func randomGenerator<T: RandomValue>(_ type: T.Type) -> Any {
    let generate: @Sendable (inout SeededGenerator) -> T = { T.random(using: &$0) }
    return generate
}

/// A short reason for a JSON decoding failure, without Foundation's long debug text.
func describeDecodingError(_ error: any Error) -> String {
    guard let decoding = error as? DecodingError else { return "\(error)" }
    switch decoding {
    case .typeMismatch(let type, let context):
        return "expected \(type)\(path(context.codingPath))"
    case .valueNotFound(let type, let context):
        return "missing \(type)\(path(context.codingPath))"
    case .keyNotFound(let key, let context):
        return "missing key '\(key.stringValue)'\(path(context.codingPath))"
    case .dataCorrupted(let context):
        return context.debugDescription + path(context.codingPath)
    @unknown default:
        return "\(error)"
    }
}

private func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.isEmpty
        ? "" : " at " + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
}
