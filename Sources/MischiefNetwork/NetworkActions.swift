import Foundation
import Mischief

/// The actions specs can use on ``ChaosNetwork/seam``.
///
/// Every action takes the match arguments `url`, `host`, `path`, `method` and `header` (see ``NetworkMatch``); a
/// composition applies to requests that match all its actions' arguments. Answers (`respond`, `offline`, `timeout`,
/// `dns`, `reset`) produce the response; `latency` (alias `delay`) and `bandwidth` wrap whatever the composition
/// gives, or the network when they stand alone.
enum NetworkActions {
    typealias Action = SeamAction<NetworkRequest, NetworkResponse, Never>

    static let all: [Action] =
        [respond] + FailureKind.allCases.map(failure) + [
            latency(name: "latency", parameter: "duration"), latency(name: "delay", parameter: "for"), bandwidth,
        ]

    static let matchParameters: [ActionSignature.Parameter] = [
        .init("url", .string, default: .null, summary: "a regular expression found in the URL: \"weather\""),
        .init("host", .string, default: .null, summary: "the host; \"*.example.com\" for its subdomains"),
        .init("path", .string, default: .null, summary: "the path; \"/api/*\" for every path under /api/"),
        .init("method", .string, default: .null, summary: "the HTTP method, such as GET"),
        .init("header", .string, default: .null, summary: "a header field that must be there, or \"Name: pattern\""),
    ]

    // MARK: Answers

    static let respond = Action.produce(
        ActionSignature(
            "respond",
            summary: "answers with a status, header fields and a body; the request never reaches the network",
            parameters: [
                // No step: `+` that turned 200 into 300 answered a redirect with nowhere to go; a status is
                // typed, not nudged.
                .init("status", .integer, default: .integer(200), summary: "the HTTP status code"),
                .init("body", .json, default: .null, summary: "text in quotes, or JSON such as {\"temp\": 21}"),
                .init("headers", .json, default: .null, summary: "header fields: {\"Retry-After\": \"5\"}"),
                .init(
                    "file", .string, default: .null,
                    summary: "a regular file (16 MiB at most) whose contents are the body, read when applied"),
            ] + matchParameters,
            composes: true)
    ) { (action, context) throws(SpecError) in
        let status = action.integer("status")!
        guard (100...599).contains(status) else {
            throw context.error("an HTTP status is between 100 and 599, got \(status)", argument: "status", of: action)
        }
        var headers = try headerFields(action, context)
        var body = Data()
        var isJSON = false
        switch action.value("body") {
        case .string(let text)?: body = Data(text.utf8)
        case .null?, nil: break
        case let value?:
            body = Data((value.jsonText ?? "").utf8)
            isJSON = true
        }
        if let file = action.string("file") {
            guard action.value("body") == .null else {
                throw context.error("give either 'body' or 'file', not both", argument: "file", of: action)
            }
            body = Data(try context.readFile(file, argument: "file", of: action))
            isJSON = file.lowercased().hasSuffix(".json")
        }
        if isJSON, !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
            headers["Content-Type"] = "application/json"
        }
        let reply = NetworkReply(status: status, headers: headers, body: body)
        return try answer(.reply(reply), action, context)
    }

    static func failure(_ kind: FailureKind) -> Action {
        Action.produce(
            ActionSignature(
                kind.rawValue, summary: kind.summary,
                parameters: [
                    .init(
                        "after", .duration, default: .duration(SpecDuration(nanoseconds: 0)),
                        step: .duration(SpecDuration(kind.step)), summary: "how long the request hangs before it fails")
                ] + matchParameters,
                composes: true)
        ) { (action, context) throws(SpecError) in
            let after = action.duration("after")!
            guard after >= .zero else {
                throw context.error(
                    "'after' cannot be negative, got \(SpecDuration(after))", argument: "after", of: action)
            }
            return try answer(NetworkResponse.failure(kind.code).delayed(by: after), action, context)
        }
    }

    /// `response` for requests the action's match arguments accept, named by the action's canonical text.
    private static func answer(
        _ response: NetworkResponse, _ action: BoundAction, _ context: ActionContext
    ) throws(SpecError) -> NetworkRule {
        let label = action.canonicalTerm.description
        return try match(action, context).rule(.constant(response.ruled(by: label)).labelled(label))
    }

    // MARK: Arguments

    /// The match arguments of `action`.
    static func match(_ action: BoundAction, _ context: ActionContext) throws(SpecError) -> NetworkMatch {
        do throws(NetworkMatchError) {
            return try NetworkMatch(
                method: action.string("method"), url: action.string("url"), host: action.string("host"),
                path: action.string("path"), header: action.string("header"))
        } catch {
            throw context.error(error.description, argument: error.parameter, of: action)
        }
    }

    /// The `headers` argument: a JSON object whose values are strings, numbers or booleans.
    private static func headerFields(
        _ action: BoundAction, _ context: ActionContext
    ) throws(SpecError) -> [String: String] {
        switch action.value("headers") {
        case .null?, nil:
            return [:]
        case .object(let members)?:
            var fields: [String: String] = [:]
            for member in members {
                switch member.value {
                case .string(let text): fields[member.key] = text
                case .integer, .number, .bool: fields[member.key] = member.value.description
                default:
                    throw context.error(
                        "header '\(member.key)' needs a string or a number, got \(member.value)",
                        argument: "headers", of: action)
                }
            }
            return fields
        default:
            throw context.error(
                "'headers' takes a JSON object such as {\"Retry-After\": \"5\"}", argument: "headers", of: action)
        }
    }
}
