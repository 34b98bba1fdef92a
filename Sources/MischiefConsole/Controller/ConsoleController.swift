import Mischief

/// What the console asks of its target: data to show, and changes to make.
///
/// There is an in-process implementation (over a ``Registry``) and a remote one (over the control socket); the
/// console works the same with either. Every method that changes something throws ``ConsoleError`` with a
/// message the console shows as it is.
public protocol ConsoleController: Sendable {
    /// Everything the console shows, as of now.
    func load() async throws -> ConsoleData

    /// Applies a spec to a seam.
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` with the spec's own error text (message, spec, caret line) when it
    ///   does not parse or fit the seam.
    func apply(_ spec: String, to seam: SeamID) async throws

    /// Reverts whatever is applied to a seam.
    func revert(_ seam: SeamID) async throws

    /// Reverts everything applied.
    func revertAll() async throws

    /// Applies a profile when it is off, reverts it when it is on.
    func toggleProfile(_ name: String) async throws

    /// Moves the target's virtual time forward.
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` when the target's time is real.
    func advanceTime(by duration: Duration) async throws

    /// Saves what is applied now as a profile; returns the path written.
    func saveProfile(named name: String) async throws -> String
}

/// Why a controller did not do what the console asked; the message is shown as it is.
public enum ConsoleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target refused: a bad spec (message, spec and caret line), an unknown profile, real time, …
    case refused(String)

    public var description: String {
        switch self {
        case .refused(let message): message
        }
    }
}
