import Foundation
import Mischief
import MischiefNetwork

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A registry, a network family on a seam of its own, and a URLSession with the Mischief protocol installed, so every
/// test runs alone.
struct NetworkFixture {
    let registry: Registry
    let network: ChaosNetwork
    let session: URLSession

    /// - Parameter id: The seam's id; unique by default. Random behaviours derive their seeds from it, so tests that
    ///   compare runs give each the same id (they have registries of their own).
    init(seed: UInt64 = 7, id: SeamID? = nil) throws {
        registry = Registry(sessionSeed: seed)
        let unique = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        network = ChaosNetwork(id: try id ?? SeamID("net.t\(unique)"), registry: registry)
        try network.register()
        let configuration = URLSessionConfiguration.ephemeral
        network.install(in: configuration)
        session = URLSession(configuration: configuration)
    }

    var id: SeamID { network.seam.info.id }

    /// Applies a spec to the fixture's seam.
    @discardableResult
    func apply(_ spec: String, seed: UInt64? = nil) throws -> Applied {
        try registry.apply(spec: spec, to: id, seed: seed)
    }

    /// `http://127.0.0.1:9` + `path`: port 9 refuses at once, so nothing leaves the machine.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:9\(path)")! }

    /// Loads `path` through the session.
    func get(_ path: String) async throws -> (Data, HTTPURLResponse) {
        try await load(URLRequest(url: url(path)))
    }

    func load(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        return (data, response as! HTTPURLResponse)
    }

    /// The URLError loading `path` ends with, or nil when it succeeds.
    func failure(_ path: String) async -> URLError? {
        do {
            _ = try await get(path)
            return nil
        } catch {
            return error as? URLError
        }
    }

    /// The decision for a GET of `path`, through the seam-level API.
    func decide(_ path: String, method: String = "GET", headers: [String: String] = [:]) -> NetworkResponse {
        network.decide(NetworkRequest(method: method, url: url(path), headers: headers))
    }

    /// The messages behaviours and the network reported, oldest first.
    var reports: [String] { registry.events().filter { $0.kind == .report }.map(\.message) }
}

extension String {
    var utf8Data: Data { Data(utf8) }
}
