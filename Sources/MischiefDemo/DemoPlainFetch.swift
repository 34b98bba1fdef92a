import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo's plain fetch: a GET through a plain `URLSession` (libcurl underneath) with no MischiefNetwork protocol,
/// as code written without Mischief makes it, from the demo's own loopback server. Network rules (`net.request`)
/// never see it; only `system.net`, which rebinds libcurl's `getaddrinfo` and `connect`, changes what it gets.
final class DemoPlainFetch: Sendable {
    /// What the line shows.
    enum Result: Sendable, Equatable {
        case waiting
        case answered(status: Int, milliseconds: Int)
        case failed(String)
    }

    /// The start of the line on the demo's screen.
    static let prefix = "Plain fetch (URLSession, no MischiefNetwork): "

    private let server: Swift.Result<DemoLoopbackServer, DemoLoopbackServer.Failure>
    private let state = Mutex(Result.waiting)

    /// Fetches from `server` (by default a loopback server of its own, started here).
    init(
        server: Swift.Result<DemoLoopbackServer, DemoLoopbackServer.Failure> = Swift.Result {
            () throws(DemoLoopbackServer.Failure) in try DemoLoopbackServer()
        }
    ) {
        self.server = server
    }

    /// The latest result.
    var latest: Result { state.withLock { $0 } }

    /// The line for the demo's screen: `Plain fetch (URLSession, no MischiefNetwork): 200 OK in 3 ms`.
    var line: String { Self.prefix + Self.describe(latest) }

    static func describe(_ result: Result) -> String {
        switch result {
        case .waiting: "waiting"
        case .answered(let status, let milliseconds):
            "\(status) \(HTTPURLResponse.localizedString(forStatusCode: status).uppercased()) in \(milliseconds) ms"
        case .failed(let reason): "failed: \(reason)"
        }
    }

    /// Fetches once and keeps the result.
    func fetch() async {
        let result: Result
        switch server {
        case .failure(let failure):
            result = .failed("no loopback server (\(failure))")
        case .success(let server):
            result = await Self.fetch(URL(string: "http://127.0.0.1:\(server.port)/plain")!)
        }
        state.withLock { $0 = result }
    }

    /// One GET of `url` on a session of its own.
    ///
    /// libcurl hides a change of `system.net` twice over: it keeps a name's answer for about a minute, and it reuses a
    /// kept-alive connection, which needs no new `connect`. So each fetch gets an ephemeral session of its own (a
    /// fresh libcurl handle: no cached answer, no pooled connection), asks for `Connection: close`, and the server
    /// closes too; each fetch then makes a `connect` that `system.net` decides, and the line follows a change at once.
    static func fetch(_ url: URL) async -> Result {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 3
        configuration.httpShouldUsePipelining = false
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.setValue("close", forHTTPHeaderField: "Connection")
        let start = ContinuousClock.now
        do {
            let (_, response) = try await session.data(for: request)
            let elapsed = ContinuousClock.now - start
            let milliseconds = Int(
                elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
            return .answered(status: (response as? HTTPURLResponse)?.statusCode ?? 0, milliseconds: milliseconds)
        } catch let error as URLError {
            return .failed(DemoWeather.describe(error))
        } catch {
            return .failed("\(error)")
        }
    }

    /// Stops the loopback server.
    func stop() {
        if case .success(let server) = server { server.stop() }
    }
}
