import Foundation
import Mischief
import MischiefCatalog
import MischiefNetwork
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo's weather client: asks `/v1/weather` of the demo's own loopback server (``DemoLoopbackServer``), which
/// answers, so with nothing applied the panel shows the weather and `net.request` counts no errors: every failure on
/// screen is one a network rule made. No traffic leaves the machine.
final class DemoWeather: Sendable {
    /// What the panel shows.
    enum Report: Sendable, Equatable {
        case waiting
        case offline(String)
        case answer(summary: String, celsius: Int)
        case unreadable(String)
    }

    private struct Answer: Decodable {
        var summary: String
        var celsius: Int
    }

    private let state = Mutex(Report.waiting)
    private let session: URLSession
    /// The network rules its requests go through (`net.request`).
    let network: ChaosNetwork

    /// Where it asks: `http://127.0.0.1:PORT/v1/weather`.
    let service: URL

    /// A client of the weather service at `service` (without a loopback server, a closed port: "offline").
    init(registry: Registry, service: URL = URL(string: "http://127.0.0.1:9/v1/weather")!) {
        self.service = service
        network = ChaosNetwork(id: "net.request", registry: registry)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        network.install(in: configuration)
        session = URLSession(configuration: configuration)
    }

    /// The latest report.
    var latest: Report { state.withLock { $0 } }

    /// Asks the service for the weather at `place`.
    func update(for place: Coordinate?) async {
        var components = URLComponents(url: service, resolvingAgainstBaseURL: false)!
        if let place {
            components.queryItems = [
                URLQueryItem(name: "lat", value: String(format: "%.4f", place.latitude)),
                URLQueryItem(name: "lon", value: String(format: "%.4f", place.longitude)),
            ]
        }
        let report: Report
        do {
            let (data, response) = try await session.data(from: components.url!)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if status != 200 {
                report = .unreadable("HTTP \(status)")
            } else if let answer = try? JSONDecoder().decode(Answer.self, from: data) {
                report = .answer(summary: answer.summary, celsius: answer.celsius)
            } else {
                report = .unreadable(String(decoding: data.prefix(40), as: UTF8.self))
            }
        } catch let error as URLError {
            report = .offline(Self.describe(error))
        } catch {
            report = .offline("\(error)")
        }
        state.withLock { $0 = report }
    }

    /// A URLError as the panels say it: "connection refused", "timed out".
    static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .notConnectedToInternet: "no connection"
        case .timedOut: "timed out"
        case .cannotFindHost: "unknown host"
        case .networkConnectionLost: "connection reset"
        default: error.localizedDescription
        }
    }
}
