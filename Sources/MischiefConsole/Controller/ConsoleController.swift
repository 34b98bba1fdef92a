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

    /// Releases the calls a pause holds on a seam; returns how many went on.
    func release(_ seam: SeamID) async throws -> Int

    /// Gives the changes on a seam a time to live from now (the target reverts them when it runs out, whether or
    /// not the console is still there), or with nil lets them last until reverted.
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` when nothing is applied to the seam or the time is out of range.
    func setTTL(_ ttl: Duration?, on seam: SeamID) async throws

    /// Reverts everything applied.
    func revertAll() async throws

    /// Resets a seam's counted calls, chaos calls and errors to zero, or every seam's when `seam` is nil.
    func resetCounters(_ seam: SeamID?) async throws

    /// Applies a profile when it is off, reverts it when it is on.
    ///
    /// - Returns: Whether the profile is on now. The console says what happened from this answer, not from the data
    ///   it last loaded, which may be older than the switch.
    @discardableResult
    func toggleProfile(_ name: String) async throws -> Bool

    /// Moves the target's virtual time forward.
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` when the target's time is real.
    func advanceTime(by duration: Duration) async throws

    /// Saves what is applied now as a profile in a file of its own; returns the path written.
    ///
    /// - Parameter overwrite: Replace the file even when the console did not write it for this profile (the user
    ///   said yes to ``ConsoleError/wouldReplace(_:)``'s question).
    /// - Throws: ``ConsoleError/wouldReplace(_:)`` saying what the file holds when it is in the way and `overwrite`
    ///   is false; ``ConsoleError/refused(_:)`` when there is nothing to save or the file cannot be written.
    func saveProfile(named name: String, overwrite: Bool) async throws -> String
}

extension ConsoleController {
    /// Refuses: a controller written before time to live existed cannot set one.
    public func setTTL(_ ttl: Duration?, on seam: SeamID) async throws {
        throw ConsoleError.refused("this target cannot revert changes by itself after a time")
    }
}

/// Why a controller did not do what the console asked; the message is shown as it is.
public enum ConsoleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target refused: a bad spec (message, spec and caret line), an unknown profile, real time, …
    case refused(String)
    /// Saving would replace a file the console did not write for this profile; the message says what it holds
    /// (`tokyo.yaml exists (2 profiles: Tokyo, Osaka)`), for the console to ask before overwriting.
    case wouldReplace(String)

    public var description: String {
        switch self {
        case .refused(let message), .wouldReplace(let message): message
        }
    }

}
