import Foundation
import NIOCore
import NIOHTTP1

/// One request as the routes see it: method, path parts, query, headers and the whole body (already bounded by
/// ``ControlAPI/maxBodyBytes``).
struct APIRequest: Sendable {
    var method: HTTPMethod
    /// The path as sent, without the query (for messages).
    var path: String
    /// The path's parts, each percent-decoded on its own (so `%2F` stays inside its part).
    var parts: [String]
    var query: [String: String]
    var headers: HTTPHeaders
    var body: Data

    /// A request for `uri` (`/v1/seams?x=1`) as it came off the wire.
    init(method: HTTPMethod, uri: String, headers: HTTPHeaders, body: Data) {
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
    func header(_ name: String) -> String? { headers.first(name: name) }
}

/// One answer: a status, a content type and a body.
struct APIResponse: Sendable {
    var status: HTTPResponseStatus
    var contentType: String
    var body: Data

    /// `value` as JSON, with a final newline so `curl` output ends cleanly.
    static func json(_ value: some Encodable, status: HTTPResponseStatus = .ok) -> APIResponse {
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
}

/// An API error with its status: thrown inside handlers, answered as JSON.
struct APIFailure: Error {
    let status: HTTPResponseStatus
    let body: ErrorBody

    init(_ status: HTTPResponseStatus, _ error: String, _ detail: String, column: Int? = nil) {
        self.status = status
        self.body = ErrorBody(error: error, detail: detail, column: column)
    }

    /// A number from outside that is out of its range: 400, naming the field.
    init(_ error: String, _ range: OutOfRange) {
        self.init(.badRequest, error, range.description)
    }

    var response: APIResponse { .json(body, status: status) }
}
