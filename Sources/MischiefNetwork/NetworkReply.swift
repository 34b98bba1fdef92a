import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP answer: status, header fields and body.
///
/// What a `respond(…)` rule gives, and what ``ChaosNetwork/perform(_:send:)`` returns.
public struct NetworkReply: Hashable, Sendable {
    /// The HTTP status code, such as 200.
    public var status: Int
    /// The header fields.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Makes a reply.
    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Makes a reply whose body is `text` in UTF-8.
    public init(status: Int = 200, headers: [String: String] = [:], text: String) {
        self.init(status: status, headers: headers, body: Data(text.utf8))
    }

    /// Whether the reply is a server error (5xx), which network seams count as a failed call, as they count a
    /// transport failure: guards such as `errors(net.request) > 50% over 10s` see a failing server. A 4xx is the
    /// server answering a request it did not like, and counts as a call that succeeded.
    public var isServerError: Bool { Self.isServerError(status) }

    /// Whether `status` is a server error (500–599).
    static func isServerError(_ status: Int) -> Bool { (500...599).contains(status) }

    /// The value of the header field `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// The reply as URLSession shows it: an `HTTPURLResponse` for `url`, with a `Content-Length` header when the
    /// reply has none; nil when Foundation refuses the status. ``MischiefURLProtocol`` fails such a request with
    /// `URLError.badServerResponse`.
    public func httpResponse(for url: URL) -> HTTPURLResponse? {
        var fields = headers
        if header("Content-Length") == nil { fields["Content-Length"] = String(body.count) }
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
    }

    /// Makes a reply from what another client received.
    public init(_ response: HTTPURLResponse, body: Data) {
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            headers[String(describing: key)] = String(describing: value)
        }
        self.init(status: response.statusCode, headers: headers, body: body)
    }
}
