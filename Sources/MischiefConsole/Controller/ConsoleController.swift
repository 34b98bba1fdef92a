import Mischief

/// What the console asks of its target: the target's state as it changes, and changes to make.
///
/// There is an in-process implementation (over a ``Registry``) and a remote one (over the control socket); the
/// console works the same with either, on one road: the controller pushes deltas (``ConsoleUpdate``), each stamped
/// with the registry generation it brings the console to, and every command answers with the generation its effect
/// is part of. The controller yields a delta of at least that generation on ``updates()`` before the command
/// returns, so the console shows a command's result and the data that carries it together, and never waits on a
/// timer for the target to settle.
///
/// Every method that changes something throws ``ConsoleError`` with a message the console shows as it is.
public protocol ConsoleController: Sendable {
    /// The source the target records for this console's changes (a layer's and an event's `source`): `console`
    /// in process, the session's name when attached. What has another source was done by someone else.
    var source: String { get }

    /// The control socket of the target, for the command lines the event log shows; nil in process.
    var socketPath: String? { get }

    /// The target's state as it changes: first ``ConsoleUpdate/reset(_:)`` with everything, then a delta whenever
    /// something changed (at most about 20 a second) or a time the console shows turns to another second.
    ///
    /// One console reads it; calling it again ends the stream handed out before. It ends when the console stops
    /// reading it.
    func updates() -> AsyncStream<ConsoleUpdate>

    /// Applies a spec to a seam; returns the generation the change is part of.
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` with the spec's own error text (message, spec, caret line) when it
    ///   does not parse or fit the seam.
    @discardableResult
    func apply(_ spec: String, to seam: SeamID) async throws -> UInt64

    /// Reverts whatever is applied to a seam; returns the generation the revert is part of.
    @discardableResult
    func revert(_ seam: SeamID) async throws -> UInt64

    /// Releases the calls a pause holds on a seam; returns how many went on, and the generation that shows it.
    func release(_ seam: SeamID) async throws -> (released: Int, generation: UInt64)

    /// Ends the calls a pause holds on a seam as a breakpoint does: each returns or throws what the spec `answer`
    /// gives (nil: goes on unchanged); with `holdNext` false the pause is reverted so the rest run. Returns how many
    /// were ended, and the generation that shows it.
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` with the spec's own error text when `answer` does not fit the seam.
    func release(_ seam: SeamID, answer: String?, holdNext: Bool) async throws -> (released: Int, generation: UInt64)

    /// Reverts these layers of a seam (this console's own, for undo), leaving its others; returns the generation
    /// that shows it.
    @discardableResult
    func revert(layers: [LayerID], on seam: SeamID) async throws -> UInt64

    /// Gives the layers on a seam a time to live from now (the target reverts them when it runs out, whether or
    /// not the console is still there), or with nil lets them last until reverted; returns the generation that shows
    /// it.
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` when nothing is applied to the seam or the time is out of range.
    @discardableResult
    func setTTL(_ ttl: Duration?, on seam: SeamID) async throws -> UInt64

    /// Reverts everything applied; returns the generation that shows it.
    @discardableResult
    func revertAll() async throws -> UInt64

    /// Resets a seam's counted calls, chaos calls and errors to zero, or every seam's when `seam` is nil; returns
    /// the generation that shows it.
    @discardableResult
    func resetCounters(_ seam: SeamID?) async throws -> UInt64

    /// Applies a profile when it is off, reverts it when it is on.
    ///
    /// - Returns: Whether the profile is on now, and the generation that shows it. The console says what happened
    ///   from this answer, not from the data it last had, which may be older than the switch.
    @discardableResult
    func toggleProfile(_ name: String) async throws -> (isOn: Bool, generation: UInt64)

    /// Moves the target's virtual time forward; returns the generation that shows it.
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` when the target's time is real.
    @discardableResult
    func advanceTime(by duration: Duration) async throws -> UInt64

    /// Saves what is applied now as a profile in a file of its own; returns the path written.
    ///
    /// - Parameter overwrite: Replace the file even when the console did not write it for this profile (the user
    ///   said yes to ``ConsoleError/wouldReplace(_:)``'s question).
    /// - Throws: ``ConsoleError/wouldReplace(_:)`` saying what the file holds when it is in the way and `overwrite`
    ///   is false; ``ConsoleError/refused(_:)`` when there is nothing to save or the file cannot be written.
    func saveProfile(named name: String, overwrite: Bool) async throws -> String

    /// The session's recording so far: every change since the console (or, attached, the target's server) began
    /// recording, with call numbers, specs and seeds (`W` saves it).
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` when the target keeps no recording.
    func recording() async throws -> Recording

    /// Applies a spec to a seam in the running tests `pattern` names (a live test session's scopes: a number, a
    /// test's name, or a pattern with `*`), and only there; returns the generation that shows it.
    @discardableResult
    func apply(_ spec: String, to seam: SeamID, inTests pattern: String) async throws -> UInt64

    /// Reverts the changes made to a seam from outside the tests `pattern` names (this console's and others'; the
    /// tests' own layers stay); returns the generation that shows it.
    @discardableResult
    func revert(_ seam: SeamID, inTests pattern: String) async throws -> UInt64

    /// Ends the calls held on a seam in the tests `pattern` names as ``release(_:answer:holdNext:)`` does.
    func release(
        _ seam: SeamID, inTests pattern: String, answer: String?, holdNext: Bool
    ) async throws -> (released: Int, generation: UInt64)
}

/// What a controller tells the console about its target.
public enum ConsoleUpdate: Sendable, Equatable {
    /// Everything, replacing what the console has: the first update, and the first after the controller reached
    /// the target again (which may be a new process, whose generations start again).
    case reset(StreamDelta)
    /// A delta: what changed; applied when it follows the generation the console has, ignored when it is older.
    case delta(StreamDelta)
    /// The target went away or stopped answering; the payload says why. The console keeps what it has, shown as
    /// stale, until the next ``reset(_:)``.
    case lost(String)
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

extension ConsoleController {
    /// `console`, the source a registry gives changes made in process by the console.
    public var source: String { "console" }

    /// None: a console in process has no socket.
    public var socketPath: String? { nil }

    /// Refuses: for controllers that cannot answer held calls.
    public func release(
        _ seam: SeamID, answer: String?, holdNext: Bool
    ) async throws -> (released: Int, generation: UInt64) {
        throw ConsoleError.refused("this console cannot answer held calls")
    }

    /// Refuses: for controllers that cannot revert single layers.
    @discardableResult
    public func revert(layers: [LayerID], on seam: SeamID) async throws -> UInt64 {
        throw ConsoleError.refused("this console cannot revert single layers")
    }

    /// Refuses: for controllers of targets without test scopes.
    @discardableResult
    public func apply(_ spec: String, to seam: SeamID, inTests pattern: String) async throws -> UInt64 {
        throw ConsoleError.refused("this console cannot change a test's scope")
    }

    /// Refuses: for controllers of targets without test scopes.
    @discardableResult
    public func revert(_ seam: SeamID, inTests pattern: String) async throws -> UInt64 {
        throw ConsoleError.refused("this console cannot change a test's scope")
    }

    /// Refuses: for controllers of targets without test scopes.
    public func release(
        _ seam: SeamID, inTests pattern: String, answer: String?, holdNext: Bool
    ) async throws -> (released: Int, generation: UInt64) {
        throw ConsoleError.refused("this console cannot change a test's scope")
    }

    /// No recording: for controllers that keep none.
    public func recording() async throws -> Recording {
        throw ConsoleError.refused("this console keeps no recording of the session")
    }
}
