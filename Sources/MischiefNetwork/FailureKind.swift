import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The failures specs name, each with the `URLError` code URLSession gives for it.
enum FailureKind: String, CaseIterable, Sendable {
    case offline, timeout, dns, reset

    /// The code of the `URLError` the request fails with.
    var code: URLError.Code {
        switch self {
        case .offline: return .notConnectedToInternet
        case .timeout: return .timedOut
        case .dns: return .cannotFindHost
        case .reset: return .networkConnectionLost
        }
    }

    init?(code: URLError.Code) {
        guard let kind = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = kind
    }

    /// How error messages describe it.
    var phrase: String {
        switch self {
        case .offline: return "the device is offline"
        case .timeout: return "the request timed out"
        case .dns: return "the host name did not resolve"
        case .reset: return "the connection was reset"
        }
    }

    /// The summary of its spec action.
    var summary: String {
        switch self {
        case .offline: return "fails as if offline (URLError.notConnectedToInternet)"
        case .timeout: return "fails with a timeout (URLError.timedOut) after a wait"
        case .dns: return "fails as if the host name did not resolve (URLError.cannotFindHost)"
        case .reset: return "fails as if the connection dropped (URLError.networkConnectionLost)"
        }
    }

    /// How much one nudge of `after` moves it.
    var step: Duration {
        switch self {
        case .timeout: return .seconds(1)
        case .offline, .dns, .reset: return .milliseconds(100)
        }
    }
}
