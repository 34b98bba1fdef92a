/// A termination request that a terminal delivers to its owner instead of letting it kill the process.
public enum TerminalSignal: String, Hashable, Sendable, CaseIterable {
    /// SIGINT.
    case interrupt
    /// SIGTERM.
    case terminate
    /// SIGHUP.
    case hangup

    /// The conventional exit status of a process that ends because of this signal (128 + signal number).
    public var exitStatus: Int32 {
        switch self {
        case .hangup: 129
        case .interrupt: 130
        case .terminate: 143
        }
    }
}
