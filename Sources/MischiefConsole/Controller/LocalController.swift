import Foundation
import Mischief
import MischiefFiles

/// The console's controller for a target in the same process: reads and changes a ``Registry`` directly.
///
/// ```swift
/// let controller = LocalController(registry: .shared, name: "demo") { ChaosClock.shared.peekDate() }
/// let data = try await controller.load()
/// try await controller.apply("shift(+1d)", to: "clock.now")
/// ```
public final class LocalController: ConsoleController {
    private let registry: Registry
    private let name: String
    private let targetTime: @Sendable () -> Date?
    private let advance: @Sendable (Duration) async -> Bool
    private let saveDirectory: URL
    private let eventLimit: Int

    /// A controller over `registry`.
    ///
    /// - Parameters:
    ///   - name: The target's name for the header.
    ///   - saveDirectory: Where `s` saves profiles (a directory on the profile search path, so they load next time).
    ///   - targetTime: The target's time read without counting (its clock seam's `peek`), or nil without one.
    ///   - advance: Moves the target's virtual time; returns false when its time is real.
    public init(
        registry: Registry, name: String, saveDirectory: URL, eventLimit: Int = 200,
        targetTime: @escaping @Sendable () -> Date? = { nil },
        advance: @escaping @Sendable (Duration) async -> Bool = { _ in false }
    ) {
        self.registry = registry
        self.name = name
        self.saveDirectory = saveDirectory
        self.eventLimit = eventLimit
        self.targetTime = targetTime
        self.advance = advance
    }

    public func load() async throws -> ConsoleData { loadNow() }

    /// ``load()`` without suspending: for callers on threads of their own.
    public func loadNow() -> ConsoleData {
        let snapshot = registry.snapshot(includingActions: true)
        let events = registry.events(after: max(0, snapshot.lastEventID - eventLimit))
        return ConsoleData(
            target: TargetHeader(
                name: name, pid: getpid(), uptime: snapshot.uptime, sessionSeed: snapshot.sessionSeed,
                wallTime: Date(), targetTime: targetTime()),
            seams: snapshot.seams, profiles: registry.profiles, events: events, view: snapshot.view,
            guards: snapshot.guards)
    }

    public func apply(_ spec: String, to seam: SeamID) async throws {
        do throws(MischiefError) {
            try registry.apply(spec: spec, to: seam, source: "console")
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
    }

    public func revert(_ seam: SeamID) async throws {
        registry.revert(seam: seam)
    }

    public func release(_ seam: SeamID) async throws -> Int {
        do throws(MischiefError) {
            return try registry.release(seam)
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
    }

    public func setTTL(_ ttl: Duration?, on seam: SeamID) async throws {
        do throws(MischiefError) {
            try registry.setTTL(ttl, on: seam)
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
    }

    public func revertAll() async throws {
        registry.revertAll()
    }

    public func resetCounters(_ seam: SeamID?) async throws {
        guard let seam else { return _ = registry.resetCounters(source: "console") }
        do throws(MischiefError) {
            try registry.resetCounters(seam, source: "console")
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
    }

    @discardableResult
    public func toggleProfile(_ name: String) async throws -> Bool {
        do throws(MischiefError) {
            return try registry.toggle(profile: name)
        } catch {
            throw ConsoleError.refused(Self.message(error))
        }
    }

    public func advanceTime(by duration: Duration) async throws {
        guard await advance(duration) else {
            throw ConsoleError.refused("time is real: apply virtual or freeze to clock.now to move it")
        }
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
