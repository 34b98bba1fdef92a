import Foundation
import Mischief

extension ControlHandler {
    // MARK: Bodies

    func bodyText(_ request: APIRequest) throws(APIFailure) -> String {
        let data = request.body
        guard String(data: data, encoding: .utf8) != nil else {
            throw APIFailure(.badRequest, "invalid body", "the body is not UTF-8 text")
        }
        // Decoded as it is: Foundation's decoding above drops a leading byte-order mark, which the parser (and
        // `mischief spec check`) would refuse.
        return String(decoding: data, as: UTF8.self)
    }

    func mediaType(of request: APIRequest, accepting types: [String]) throws(APIFailure) -> String? {
        guard let header = request.header("Content-Type") else { return nil }
        let type = header.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard types.contains(type) else {
            throw APIFailure(
                .unsupportedMediaType, "unsupported media type",
                "\(type) is not accepted here; send \(types.joined(separator: ", "))")
        }
        return type
    }

    func decodeJSON<T: Decodable>(_ request: APIRequest) throws(APIFailure) -> T {
        _ = try mediaType(
            of: request, accepting: ["application/json", "text/plain", "application/x-www-form-urlencoded"])
        do {
            return try JSONDecoder().decode(T.self, from: request.body)
        } catch {
            throw APIFailure(.badRequest, "malformed JSON", Self.describe(error))
        }
    }

    /// A spec and its time to live from `{"spec": "…", "ttl": 30}` (JSON), or the body as it is (text, or what
    /// `curl -d` sends) with the time to live from the query (`?ttl=30s`).
    func applyRequest(of request: APIRequest) throws(APIFailure) -> (spec: String, ttl: Duration?, seed: UInt64?) {
        let type = try mediaType(
            of: request, accepting: ["application/json", "text/plain", "application/x-www-form-urlencoded"])
        if type == "application/json" {
            let body: ApplyRequest = try decodeJSON(request)
            var seed = body.seed
            if seed == nil { seed = try querySeed(request) }
            return (body.spec, try ttl(body.ttl ?? queryTTL(request)), seed)
        }
        return (try specText(of: request, type: type), try ttl(queryTTL(request)), try querySeed(request))
    }

    /// The `seed` query parameter: a decimal UInt64.
    func querySeed(_ request: APIRequest) throws(APIFailure) -> UInt64? {
        guard let text = request.query["seed"] else { return nil }
        guard let seed = UInt64(text) else {
            throw APIFailure(
                .badRequest, "invalid seed", "seed must be a whole number from 0 to \(UInt64.max), got '\(text)'")
        }
        return seed
    }

    /// The `ttl` query parameter: seconds, or a spec duration.
    func queryTTL(_ request: APIRequest) -> TTLValue? {
        guard let text = request.query["ttl"] else { return nil }
        return Double(text).map(TTLValue.seconds) ?? .text(text)
    }

    /// A time to live from a client, checked; a bad one is a 400 saying why.
    func ttl(_ value: TTLValue?) throws(APIFailure) -> Duration? {
        guard let value else { return nil }
        do throws(TTLValue.Invalid) {
            return try value.duration()
        } catch {
            throw APIFailure(.badRequest, "invalid ttl", error.description)
        }
    }

    /// A spec sent as text: the body as it is, or `spec=…` as a form sends it.
    private func specText(of request: APIRequest, type: String?) throws(APIFailure) -> String {
        var text = Self.trimmingSpace(try bodyText(request))
        if type == "application/x-www-form-urlencoded", text.hasPrefix("spec=") {
            text = String(text.dropFirst(5)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
        }
        guard !text.isEmpty else {
            throw APIFailure(.badRequest, "missing spec", "send the spec as the body, or as {\"spec\": \"…\"} in JSON")
        }
        return text
    }

    /// `text` without the spaces, tabs and line breaks around it: the only space a spec or a guard condition knows.
    /// Other Unicode space (a zero-width space, a no-break space) stays, so the parser refuses it here as
    /// `mischief spec check` does: one parser, one answer.
    static func trimmingSpace(_ text: String) -> String {
        let space: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r"]
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, space.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, space.contains(last) { scalars.removeLast() }
        return String(scalars)
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription + Self.underlying(context)
        case DecodingError.keyNotFound(let key, _):
            return "the key '\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(let type, let context):
            return "\(Self.path(context)) should be \(type)"
        case DecodingError.valueNotFound(let type, let context):
            return "\(Self.path(context)) should be \(type), not null"
        default:
            return "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? "the body" : "'\(path)'"
    }

    private static func underlying(_ context: DecodingError.Context) -> String {
        guard let error = context.underlyingError as NSError?,
            let reason = error.userInfo[NSDebugDescriptionErrorKey] as? String
        else { return "" }
        return ": \(reason)"
    }
}
