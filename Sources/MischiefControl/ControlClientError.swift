/// Why a request to a target failed.
public enum ControlClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing answers on the socket (the target is gone, or the path is wrong).
    case unreachable(String, String)
    /// The target answered with an error.
    case refused(status: Int, ErrorBody)
    /// The target speaks another API version.
    case incompatible(target: Int?, client: Int, detail: String)
    /// A stream ended.
    case disconnected(String)
    /// The answer made no sense.
    case protocolError(String)
    /// Another process answers where the attached target was: the target is gone.
    case gone(String)

    public var description: String {
        switch self {
        case .unreachable(let path, let reason):
            "no target answers on \(path): \(reason)"
        case .refused(_, let body):
            body.detail.isEmpty ? body.error : body.detail
        case .incompatible(let target, let client, let detail):
            if let target {
                "the target speaks control API v\(target) and this mischief speaks v\(client): "
                    + "use the mischief CLI that matches the target's Mischief version"
            } else {
                detail
            }
        case .disconnected(let reason):
            "lost the target: \(reason)"
        case .protocolError(let reason):
            "unexpected answer from the target: \(reason)"
        case .gone(let reason):
            reason
        }
    }
}
