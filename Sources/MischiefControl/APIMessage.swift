import Foundation
import Mischief

/// A request's method, as the routes see it (the transport's own type stays in the transport).
enum APIMethod: Sendable, Equatable {
    case GET, PUT, POST, DELETE
    /// Any other method, as sent (the routes refuse it with 405).
    case other(String)

    /// The method named `text` (case-sensitive, as HTTP has it).
    init(_ text: String) {
        switch text {
        case "GET": self = .GET
        case "PUT": self = .PUT
        case "POST": self = .POST
        case "DELETE": self = .DELETE
        default: self = .other(text)
        }
    }

    /// The method as sent.
    var rawValue: String {
        switch self {
        case .GET: "GET"
        case .PUT: "PUT"
        case .POST: "POST"
        case .DELETE: "DELETE"
        case .other(let text): text
        }
    }
}

/// An answer's status: its code and the reason phrase the transport writes after it.
struct APIStatus: Sendable, Equatable {
    let code: Int
    let reasonPhrase: String

    static let ok = APIStatus(code: 200, reasonPhrase: "OK")
    static let created = APIStatus(code: 201, reasonPhrase: "Created")
    static let badRequest = APIStatus(code: 400, reasonPhrase: "Bad Request")
    static let unauthorized = APIStatus(code: 401, reasonPhrase: "Unauthorized")
    static let notFound = APIStatus(code: 404, reasonPhrase: "Not Found")
    static let methodNotAllowed = APIStatus(code: 405, reasonPhrase: "Method Not Allowed")
    static let requestTimeout = APIStatus(code: 408, reasonPhrase: "Request Timeout")
    static let conflict = APIStatus(code: 409, reasonPhrase: "Conflict")
    static let payloadTooLarge = APIStatus(code: 413, reasonPhrase: "Payload Too Large")
    static let unsupportedMediaType = APIStatus(code: 415, reasonPhrase: "Unsupported Media Type")
    static let upgradeRequired = APIStatus(code: 426, reasonPhrase: "Upgrade Required")
    static let requestHeaderFieldsTooLarge = APIStatus(code: 431, reasonPhrase: "Request Header Fields Too Large")
    static let serviceUnavailable = APIStatus(code: 503, reasonPhrase: "Service Unavailable")
}

/// One request as the routes see it: method, path parts, query, headers and the whole body (already bounded by
/// ``ControlAPI/maxBodyBytes``).
struct APIRequest: Sendable {
    var method: APIMethod
    /// The path as sent, without the query (for messages).
    var path: String
    /// The path's parts, each percent-decoded on its own (so `%2F` stays inside its part).
    var parts: [String]
    var query: [String: String]
    /// The headers as sent, in order.
    var headers: [(name: String, value: String)]
    var body: Data

    /// A request for `uri` (`/v1/seams?x=1`) as it came off the wire.
    init(method: APIMethod, uri: String, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.method = method
        self.headers = headers
        self.body = body
        let mark = uri.firstIndex(of: "?")
        path = String(uri[..<(mark ?? uri.endIndex)])
        parts = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        var query: [String: String] = [:]
        if let mark {
            for pair in uri[uri.index(after: mark)...].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    .map { $0.removingPercentEncoding ?? String($0) }
                if query[halves[0]] == nil { query[halves[0]] = halves.count > 1 ? halves[1] : "" }
            }
        }
        self.query = query
    }

    /// The first value of a header, by name in any case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// One answer: a status, a content type and a body.
struct APIResponse: Sendable {
    var status: APIStatus
    var contentType: String
    var body: Data
    /// For an answer to a change: the registry generation it produced (``ControlAPI/generationHeader``).
    var generation: UInt64? = nil

    /// `value` as JSON, with a final newline so `curl` output ends cleanly.
    static func json(_ value: some Encodable, status: APIStatus = .ok) -> APIResponse {
        let data = (try? JSONEncoder.control.encode(value)) ?? Data("{}".utf8)
        return APIResponse(status: status, contentType: "application/json", body: data + Data("\n".utf8))
    }
}

/// What a route decided: an answer now, time to move (which waits on the target's tasks, so it runs off the
/// server's threads with a deadline), or an events stream.
enum Reply: Sendable {
    case answer(APIResponse)
    case advance(Duration)
    /// An events stream; `changes`: the stream carries `changes` messages (see ``StreamDelta``).
    case events(session: String?, changes: Bool)
    /// A replay of a recording, answered with its outcome once it has finished (`POST /v1/replay`).
    case replay(Recording, timeout: Duration?)
}

/// An API error with its status: thrown inside handlers, answered as JSON.
struct APIFailure: Error {
    let status: APIStatus
    let body: ErrorBody

    init(_ status: APIStatus, _ error: String, _ detail: String, column: Int? = nil) {
        self.status = status
        self.body = ErrorBody(error: error, detail: detail, column: column)
    }

    /// A change the registry refused, as the API answers it: a bad spec 400 with its column, chaos disabled 409, an
    /// unknown seam 404 (with `unknownSeam` as its detail when given), a bad time to live 400, anything else 400
    /// `refused`; `unsupported` is the status and error an unsupported change answers with, where it means more.
    init(refusal error: MischiefError, unknownSeam: String? = nil, unsupported: (APIStatus, String)? = nil) {
        switch error {
        case .invalidSpec(_, let specError):
            self.init(.badRequest, "invalid spec", error.description, column: specError.column)
        case .disabled: self.init(.conflict, "disabled", error.description)
        case .unknownSeam: self.init(.notFound, "unknown seam", unknownSeam ?? error.description)
        case .invalidTTL: self.init(.badRequest, "invalid ttl", error.description)
        case .unsupported where unsupported != nil: self.init(unsupported!.0, unsupported!.1, error.description)
        default: self.init(.badRequest, "refused", error.description)
        }
    }

    /// A number from outside that is out of its range: 400, naming the field.
    init(_ error: String, _ range: OutOfRange) {
        self.init(.badRequest, error, range.description)
    }

    var response: APIResponse { .json(body, status: status) }
}
