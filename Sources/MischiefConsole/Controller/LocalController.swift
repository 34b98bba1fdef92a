import Foundation
import Mischief
import MischiefFiles
import Synchronization

/// The console's controller for a target in the same process: reads and changes a ``Registry`` directly.
///
/// It follows the registry with the core's ``RegistryFollower``, as the control server's events streams do: woken
/// when the registry signals a change and, while the console reads ``updates()``, on the wall clock's multiples of
/// `refresh` for call counts and the clock shown, it yields a delta when something changed or a second shown turned,
/// at most one per `minimumInterval`. A command yields the delta that shows it before it returns.
///
/// ```swift
/// let controller = LocalController(registry: .shared, name: "demo", saveDirectory: profiles) {
///     ChaosClock.shared.peekDate()
/// }
/// for await update in controller.updates() { … }
/// try await controller.apply("shift(+1d)", to: "clock.now")
/// ```
public final class LocalController: ConsoleController {
    private let registry: Registry
    private let name: String
    private let targetTime: @Sendable () -> Date?
    private let advance: @Sendable (Duration) async -> Bool
    private let saveDirectory: URL
    private let refresh: Duration
    private let minimumInterval: Duration
    private let feed = Mutex<Feed?>(nil)
    /// The session's recording, in memory, from the controller's start until it goes.
    private let recorder: Recorder

    /// The console reading ``updates()``, and what it has been sent.
    private struct Feed {
        let continuation: AsyncStream<ConsoleUpdate>.Continuation
        var cursor = RegistryFollower.Cursor()
    }

    /// A controller over `registry`.
    ///
    /// - Parameters:
    ///   - name: The target's name for the header.
    ///   - saveDirectory: Where `s` saves profiles (a directory on the profile search path, so they load next time).
    ///   - refresh: How often call counts and times are looked at when nothing else changed; longer than zero. Once a
    ///     second by default, on the wall clock's turn of each second, when the seconds shown turn (the console's
    ///     rates are per second): an idle console wakes once a second, not four times.
    ///   - minimumInterval: The least time between two updates (50 ms: at most 20 a second).
    ///   - targetTime: The target's time read without counting (its clock seam's `peek`), or nil without one.
    ///   - advance: Moves the target's virtual time; returns false when its time is real.
    public init(
        registry: Registry, name: String, saveDirectory: URL,
        refresh: Duration = .seconds(1), minimumInterval: Duration = .milliseconds(50),
        targetTime: @escaping @Sendable () -> Date? = { nil },
        advance: @escaping @Sendable (Duration) async -> Bool = { _ in false }
    ) {
        precondition(refresh > .zero, "the console's refresh must be longer than zero, not \(refresh)")
        self.registry = registry
        self.name = name
        self.saveDirectory = saveDirectory
        self.refresh = refresh
        self.minimumInterval = minimumInterval
        self.targetTime = targetTime
        self.advance = advance
        recorder = registry.startRecording(
            capacity: RecordingFiles.capacity, target: name, decisions: RecordingFiles.decisions)
    }

    deinit { recorder.stop() }

    public func recording() async throws -> Recording { recorder.recording }

    public func updates() -> AsyncStream<ConsoleUpdate> {
        let (stream, continuation) = AsyncStream<ConsoleUpdate>.makeStream()
        let previous = feed.withLock { feed in
            defer { feed = Feed(continuation: continuation) }
            return feed?.continuation
        }
        previous?.finish()
        push()
        let follower = RegistryFollower(registry: registry, refresh: refresh, minimumInterval: minimumInterval) {
            [weak self] in self?.push()
        }
        follower.start()
        // No lock here: `push()` yields while it holds the feed's, so taking it on the canceller's thread could wait
        // on a yield that waits on the stream (a console ending on a signal hung so). The next push finds the stream
        // ended and lets it go.
        continuation.onTermination = { _ in follower.stop() }
        return stream
    }

    /// Sends the console what changed since its last delta, when anything did or a second it shows turned (the
    /// first time: everything); returns the generation of the last delta sent, which the console reaches.
    @discardableResult
    private func push() -> UInt64 {
        feed.withLock { feed -> UInt64 in
            guard var current = feed else { return 0 }
            let first = current.cursor.isFirst
            let delta = current.cursor.next(from: registry) { changes in
                TargetHeader(
                    name: name, pid: getpid(), uptime: changes.uptime, sessionSeed: changes.sessionSeed,
                    wallTime: RealClock.date(), targetTime: targetTime())
            }
            if let delta, case .terminated = current.continuation.yield(first ? .reset(delta) : .delta(delta)) {
                feed = nil  // the console stopped reading
                return 0
            }
            feed = current
            return current.cursor.generation
        }
    }

    @discardableResult
    public func apply(_ spec: String, to seam: SeamID) async throws -> UInt64 {
        do throws(MischiefError) {
            try registry.apply(spec: spec, to: seam, source: "console")
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
        return push()
    }

    @discardableResult
    public func revert(_ seam: SeamID) async throws -> UInt64 {
        registry.revert(seam: seam, source: "console")
        return push()
    }

    public func release(_ seam: SeamID) async throws -> (released: Int, generation: UInt64) {
        do throws(MischiefError) {
            let released = try registry.release(seam)
            return (released, push())
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
    }

    public func release(
        _ seam: SeamID, answer: String?, holdNext: Bool
    ) async throws -> (released: Int, generation: UInt64) {
        do throws(MischiefError) {
            let released = try registry.release(seam, answer: answer, holdNext: holdNext, source: "console")
            return (released, push())
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
    }

    @discardableResult
    public func apply(_ spec: String, to seam: SeamID, inTests pattern: String) async throws -> UInt64 {
        do throws(MischiefError) {
            try registry.apply(spec: spec, to: seam, inScopesMatching: pattern, source: "console")
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
        return push()
    }

    @discardableResult
    public func revert(_ seam: SeamID, inTests pattern: String) async throws -> UInt64 {
        registry.revertInScopes(matching: pattern, seam: seam, source: nil, requester: "console")
        return push()
    }

    public func release(
        _ seam: SeamID, inTests pattern: String, answer: String?, holdNext: Bool
    ) async throws -> (released: Int, generation: UInt64) {
        do throws(MischiefError) {
            let released = try registry.releaseInScopes(
                matching: pattern, seam: seam, answer: answer, holdNext: holdNext, source: "console")
            return (released, push())
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
    }

    @discardableResult
    public func revert(layers: [LayerID], on seam: SeamID) async throws -> UInt64 {
        registry.revert(layers: Set(layers), source: "console")
        return push()
    }

    @discardableResult
    public func setTTL(_ ttl: Duration?, on seam: SeamID) async throws -> UInt64 {
        do throws(MischiefError) {
            try registry.setTTL(ttl, on: seam)
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
        return push()
    }

    @discardableResult
    public func revertAll() async throws -> UInt64 {
        registry.revertAll(source: "console")
        return push()
    }

    @discardableResult
    public func resetCounters(_ seam: SeamID?) async throws -> UInt64 {
        if let seam {
            do throws(MischiefError) {
                try registry.resetCounters(seam, source: "console")
            } catch {
                throw ConsoleError.refused(Self.message(error))
            }
        } else {
            _ = registry.resetCounters(source: "console")
        }
        return push()
    }

    @discardableResult
    public func toggleProfile(_ name: String) async throws -> (isOn: Bool, generation: UInt64) {
        do throws(MischiefError) {
            let isOn = try registry.toggle(profile: name, source: "console")
            return (isOn, push())
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
    }

    @discardableResult
    public func advanceTime(by duration: Duration) async throws -> UInt64 {
        guard await advance(duration) else {
            throw ConsoleError.refused("time is real: apply virtual or freeze to clock.now to move it")
        }
        registry.noteTimeAdvanced(by: duration, source: "console")
        return push()
    }

    public func saveProfile(named name: String, overwrite: Bool) async throws -> String {
        let (profile, skipped) = registry.currentState(named: name, seed: registry.sessionSeed)
        guard !profile.entries.isEmpty else {
            throw ConsoleError.refused(
                "nothing to save: no seam is changed"
                    + (skipped.isEmpty
                        ? ""
                        : " by a spec (\(skipped.map(\.description).joined(separator: ", ")) were changed in code)"))
        }
        return try Self.save(ProfileFile(profile).yaml(), named: name, in: saveDirectory, overwrite: overwrite)
    }

    /// Where `s` saves a profile called `name`: its name in lower case, other characters as `-`.
    public static func saveURL(forProfile name: String, in directory: URL) -> URL {
        ProfileSaver.url(forProfile: name, in: directory)
    }

    /// Saves `yaml`, the profile called `name`, in `directory` with ``ProfileSaver``; returns the path written.
    ///
    /// - Throws: ``ConsoleError/wouldReplace(_:)`` or ``ConsoleError/refused(_:)``.
    public static func save(_ yaml: String, named name: String, in directory: URL, overwrite: Bool) throws -> String {
        let url = saveURL(forProfile: name, in: directory)
        do throws(ProfileSaveError) {
            try ProfileSaver.save(yaml: yaml, named: name, to: url, overwrite: overwrite)
        } catch {
            if case .wouldReplace = error { throw ConsoleError.wouldReplace(error.description) }
            throw ConsoleError.refused(error.description)
        }
        return url.path
    }

    /// A refusal as the console shows it: a spec error keeps its caret lines.
    static func message(_ error: MischiefError) -> String {
        error.description
    }
}
