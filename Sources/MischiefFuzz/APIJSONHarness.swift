import Foundation
import Mischief

@testable import MischiefControl

/// JSON bodies (and query strings) for every route that reads one, straight into the routes: the first byte picks
/// the route, the rest is the body. Every answer is JSON with a status the API uses (never 500); a time advance is
/// a positive, finite duration; nothing traps.
///
/// `POST /v1/profiles` is left out until specs from requests are confined to allowed files (issue 13, defect 5):
/// a profile may name a file, and the fuzzer must not read the machine's files.
let apiJSONHarness = FuzzHarness(name: "api-json", summary: "JSON bodies and query strings of every route") { bytes in
    guard let first = bytes.first else { return }
    let routes: [(APIMethod, String)] = [
        (.PUT, "/v1/seams/f.count"), (.PUT, "/v1/seams/f.name"), (.POST, "/v1/sessions"),
        (.POST, "/v1/time/advance"), (.POST, "/v1/profiles/p/toggle"), (.POST, "/v1/revert-all"),
        (.GET, "/v1/console"), (.GET, "/v1/profiles/current"), (.DELETE, "/v1/seams/f.count"),
    ]
    let (method, path) = routes[Int(first) % routes.count]
    let rest = Data(bytes.dropFirst())
    let headers = [(name: "Content-Type", value: first & 0x80 == 0 ? "application/json" : "text/plain")]
    // GET routes take the bytes as their query string instead.
    let uri = method == .GET ? path + "?" + String(decoding: rest, as: UTF8.self) : path
    let request = APIRequest(method: method, uri: uri, headers: headers, body: method == .GET ? Data() : rest)
    switch HTTPFuzzTarget.server.handler.respond(to: request) {
    case .answer(let response):
        fuzzCheck(HTTPFuzzTarget.statuses.contains(Int(response.status.code)), "status \(response.status.code)")
        if response.contentType == "application/json" {
            fuzzCheck((try? JSONSerialization.jsonObject(with: response.body)) != nil, "an answer that is not JSON")
        }
    case .advance(let duration):
        fuzzCheck(duration > .zero && duration.seconds.isFinite, "advance by \(duration)")
    case .replay(let recording, _):
        fuzzCheck(recording.header.format == Recording.format, "a replay of no recording")
    case .events(let session, _):
        fuzzCheck(session == nil, "a stream for a session nobody opened")
    }
    HTTPFuzzTarget.reset()
}
