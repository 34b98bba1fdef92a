import Foundation
import MischiefCatalog
import MischiefNetwork
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A weather screen's model, written the way an app would write it, in the spirit of the demo's weather panel:
/// it asks the location where it is, asks the weather service (through the `net.request`-style seam of a
/// ``ChaosNetwork``) for the weather there, stamps the answer with the clock's time and keeps it in a store.
///
/// Everything it depends on is passed in, so the example's tests give it seams of their own and a mock store.
final class WeatherViewModel: Sendable {
    /// What the screen says besides the report.
    enum Status: Equatable, Sendable {
        case idle
        case showing
        case failed(String)
    }

    private struct State {
        var status = Status.idle
        var report: WeatherReport?
    }

    private struct Answer: Decodable {
        var summary: String
        var celsius: Int
    }

    /// The service, as in the demo: a loopback port where nothing listens, so only network rules answer.
    static let service = URL(string: "http://127.0.0.1:9/v1/weather")!
    /// How old a report may get before ``refreshIfStale()`` asks again.
    static let staleAfter: TimeInterval = 30 * 60

    private let clock: ChaosClock
    private let location: ChaosLocation
    private let network: ChaosNetwork
    private let store: any WeatherStore
    private let state = Mutex(State())
    private let polling = Mutex<Task<Void, Never>?>(nil)

    init(clock: ChaosClock, location: ChaosLocation, network: ChaosNetwork, store: any WeatherStore) {
        self.clock = clock
        self.location = location
        self.network = network
        self.store = store
    }

    /// What the screen says besides the report.
    var status: Status { state.withLock { $0.status } }
    /// The report shown: the latest fetched, or the one saved last time.
    var report: WeatherReport? { state.withLock { $0.report } }

    /// `Lisbon, Portugal · sunny, 21 °C`, in the store's unit.
    var headline: String? {
        guard let report else { return nil }
        let temperature =
            switch store.unit {
            case .celsius: "\(report.celsius) °C"
            case .fahrenheit: "\(Int((Double(report.celsius) * 9 / 5 + 32).rounded())) °F"
            }
        return "\(report.place) · \(report.summary), \(temperature)"
    }

    /// `updated 5 min ago`, by the clock.
    var updated: String? {
        guard let report else { return nil }
        let minutes = Int(clock.date.timeIntervalSince(report.fetched) / 60)
        switch minutes {
        case ..<1: return "updated just now"
        case ..<60: return "updated \(minutes) min ago"
        default: return "updated \(minutes / 60) h ago"
        }
    }

    /// Whether the report is missing or older than ``staleAfter`` by the clock.
    var isStale: Bool {
        guard let report else { return true }
        return clock.date.timeIntervalSince(report.fetched) >= Self.staleAfter
    }

    /// Shows the report saved last time for where we are, without asking the service.
    func load() {
        guard let here = try? location.current(), let saved = store.lastReport(for: Self.name(of: here)) else { return }
        state.withLock { state in
            state.report = saved
            state.status = .showing
        }
    }

    /// Asks the service again when the report is stale.
    func refreshIfStale() async {
        if isStale { await refresh() }
    }

    /// Asks the service for the weather where we are, shows it and saves it; on a failure, says why and keeps
    /// showing the last report.
    func refresh() async {
        let here: Coordinate
        do {
            here = try location.current()
        } catch {
            show(.failed(error.message))
            return
        }
        let place = Self.name(of: here)
        let answer: Answer
        do {
            // `perform` decides the request in this task, so a test's scoped rules (`.mischief("example.net", …)`)
            // apply. A URLSession with `network.install(in:)` decides on URLSession's own threads, outside the
            // test's task tree: only rules applied to the registry reach it.
            let reply = try await network.perform(NetworkRequest(url: Self.url(for: here)), send: Self.send)
            guard reply.status == 200 else {
                show(.failed("HTTP \(reply.status)"))
                return
            }
            answer = try JSONDecoder().decode(Answer.self, from: reply.body)
        } catch let error as URLError {
            show(.failed("offline (\(Self.describe(error)))"))
            return
        } catch {
            show(.failed("unreadable answer"))
            return
        }
        let report = WeatherReport(place: place, summary: answer.summary, celsius: answer.celsius, fetched: clock.date)
        state.withLock { state in
            state.report = report
            state.status = .showing
        }
        do {
            try store.save(report)
        } catch {
            show(.failed("not saved: \(error)"))
        }
    }

    /// Refreshes now and then every `interval` of the clock's time, until ``stopRefreshing()``.
    func startRefreshing(every interval: Duration) {
        let task = Task {
            while !Task.isCancelled {
                await refresh()
                do { try await clock.sleep(for: interval) } catch { return }
            }
        }
        polling.withLock {
            $0?.cancel(); $0 = task
        }
    }

    /// Stops the refreshes and waits for the last one to end.
    func stopRefreshing() async {
        let task = polling.withLock { polling in
            defer { polling = nil }
            return polling
        }
        task?.cancel()
        await task?.value
    }

    private func show(_ status: Status) {
        state.withLock { $0.status = status }
    }

    /// `Tokyo, Japan` within 50 km of a known city, else the coordinates.
    private static func name(of place: Coordinate) -> String {
        let (city, metres) = Cities.nearest(to: place)
        if metres < 50_000 { return "\(city.name), \(city.country)" }
        return String(format: "%.3f, %.3f", place.latitude, place.longitude)
    }

    private static func url(for place: Coordinate) -> URL {
        var components = URLComponents(url: service, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "lat", value: String(format: "%.4f", place.latitude)),
            URLQueryItem(name: "lon", value: String(format: "%.4f", place.longitude)),
        ]
        return components.url!
    }

    /// The real request, for what no rule takes.
    private static func send(_ request: NetworkRequest) async throws -> NetworkReply {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        let (data, response) = try await URLSession.shared.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return NetworkReply(http, body: data)
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .notConnectedToInternet: "no connection"
        case .timedOut: "timed out"
        case .cannotConnectToHost: "connection refused"
        default: "\(error.code.rawValue)"
        }
    }
}

/// One answer of the weather service, where and when it was asked.
struct WeatherReport: Hashable, Sendable, CustomStringConvertible {
    var place: String
    var summary: String
    var celsius: Int
    var fetched: Date

    var description: String { "\(place): \(summary), \(celsius) °C at \(fetched)" }
}

/// How temperatures are shown.
enum TemperatureUnit: Sendable {
    case celsius
    case fahrenheit
}

/// Where the model keeps reports between launches; the tests replace it with ``MockWeatherStore``.
protocol WeatherStore: Sendable {
    /// The report saved last for `place`, if any.
    func lastReport(for place: String) -> WeatherReport?
    /// Keeps `report`.
    func save(_ report: WeatherReport) throws
    /// The unit the user chose.
    var unit: TemperatureUnit { get }
}
