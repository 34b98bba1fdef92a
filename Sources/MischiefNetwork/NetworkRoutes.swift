import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Finds the ``ChaosNetwork`` a URLSession request belongs to, and how to send it on to the network.
///
/// URLSession makes URL protocol objects itself, so the protocol cannot be handed its instance.
/// ``ChaosNetwork/install(in:)`` marks the configuration with the instance's token in an `X-Mischief-Network`
/// header (none for ``ChaosNetwork/shared``). On Linux, URLSession adds a configuration's headers only when it sends
/// the request (`canInit` and `startLoading` never see them), so the protocol reads the mark from the session's
/// configuration, which it reaches through the task: swift-corelibs keeps the session in the task's stored property
/// `session`, with no public accessor, and `Mirror` reads it. A request whose session cannot be found (Darwin, or a
/// future corelibs), or has no mark, belongs to ``ChaosNetwork/shared``.
enum NetworkRoutes {
    static let header = "X-Mischief-Network"

    /// How many instances have rules applied; while none has, ``MischiefURLProtocol`` declines every request.
    private static let activeNetworks = Atomic<Int>(0)
    private static let nextToken = Atomic<Int>(1)
    private static let networks = Mutex<[Int: WeakNetwork]>([:])

    private struct WeakNetwork: Sendable {
        weak var network: ChaosNetwork?
    }

    static var anyActive: Bool { activeNetworks.load(ordering: .relaxed) > 0 }

    /// Whether some instance's calls are counted (a console observes, a guard reads them): then its requests are
    /// taken with no rule applied, so each is counted, and each failure. Looked at only while no rule is applied.
    static var anyCounted: Bool {
        networks.withLock { networks in networks.values.contains { $0.network?.countsCalls == true } }
    }

    static func newToken() -> Int { nextToken.wrappingAdd(1, ordering: .relaxed).oldValue }

    static func add(_ network: ChaosNetwork) {
        networks.withLock { $0[network.token] = WeakNetwork(network: network) }
    }

    static func remove(token: Int, wasActive: Bool) {
        networks.withLock { _ = $0.removeValue(forKey: token) }
        if wasActive { activeChanged(by: -1) }
    }

    static func activeChanged(by delta: Int) {
        activeNetworks.wrappingAdd(delta, ordering: .sequentiallyConsistent)
    }

    /// Where a request goes: the instance deciding it (nil when it is gone) and the configuration for reaching the
    /// network: the session's own, without ``MischiefURLProtocol`` and the mark.
    struct Route {
        let network: ChaosNetwork?
        let passThrough: URLSessionConfiguration
    }

    static func route(for urlProtocol: URLProtocol) -> Route {
        let session = self.session(of: urlProtocol.task)
        // A copy: swift-corelibs-foundation hands out the session's own configuration object.
        let configuration = (session?.configuration.copy() as? URLSessionConfiguration) ?? .default
        var headers = configuration.httpAdditionalHeaders ?? [:]
        let mark =
            urlProtocol.request.value(forHTTPHeaderField: header)
            ?? (headers[header] as? String)
        headers[header] = nil
        configuration.httpAdditionalHeaders = headers
        configuration.protocolClasses = configuration.protocolClasses?.filter { $0 != MischiefURLProtocol.self }
        guard let mark else { return Route(network: ChaosNetwork.shared, passThrough: configuration) }
        let network = Int(mark).flatMap { token in networks.withLock { $0[token]?.network } }
        return Route(network: network, passThrough: configuration)
    }

    /// The session of `task`, read from swift-corelibs-foundation's stored property (nil elsewhere).
    static func session(of task: URLSessionTask?) -> URLSession? {
        storedProperty("session", of: task) as? URLSession
    }

    /// The body an upload task was given apart from its request (`upload(for:from:)`), when it is in memory or in a
    /// file, so a request passed through keeps it.
    static func uploadBody(of task: URLSessionTask?) -> Data? {
        guard task is URLSessionUploadTask, let body = storedProperty("knownBody", of: task) else { return nil }
        // `knownBody` is an optional enum: `.data(DispatchData)`, `.file(URL)`, `.stream` or `.none`.
        let unwrapped = Mirror(reflecting: body).children.first.map(\.value) ?? body
        guard let payload = Mirror(reflecting: unwrapped).children.first?.value else { return nil }
        if let data = payload as? DispatchData { return Data(data) }
        if let file = payload as? URL { return try? Data(contentsOf: file) }
        return nil
    }

    private static func storedProperty(_ name: String, of object: Any?) -> Any? {
        guard let object else { return nil }
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == name }) { return child.value }
            mirror = current.superclassMirror
        }
        return nil
    }
}
