import Foundation
import Mischief
import MischiefConsole
import Synchronization
import Testing

/// What the console shows when its data is older than the target: a switch reports what the target did, and a
/// periodic load that began before a command never puts back the state the command changed.
@Suite("ConsoleRunner: data in order")
struct ConsoleRunnerOrderTests {
    let target: RunnerTarget
    let terminal = RecordingTerminal(size: ScreenSize(rows: 30, columns: 120))
    var registry: Registry { target.registry }
    var local: LocalController { target.controller }

    init() throws {
        target = try RunnerTarget(name: "order test")
        try registry.define(
            Profile(name: "Seven", key: 1, entries: [.init(seam: "test.answer", spec: "return(7)")]))
    }

    @Test func aSwitchSaysWhatTheTargetDidEvenWhenTheDataShowsOtherwise() async throws {
        // Data loaded once and never again: the console believes Seven is off while the target has it on.
        let controller = ScriptedController(local, frozen: try await local.load())
        _ = try registry.apply(profile: "Seven")
        let run = Task { try await ConsoleRunner(terminal: terminal, controller: controller).run() }
        try await terminal.frame(containing: "The answer")
        terminal.push(.character("1"))
        try await terminal.frame(containing: "profile Seven switched")
        #expect(terminal.last.contains("profile Seven switched off"), "\(terminal.last)")
        #expect(!registry.profiles[0].isActive)
        terminal.push(.character("q"))
        #expect(try await run.value == .quit)
    }

    @Test func aPeriodicLoadFromBeforeACommandDoesNotPutBackWhatItChanged() async throws {
        try registry.apply(spec: "return(7)", to: "test.answer")
        // The periodic load after the first takes the target's state (return(7) applied) and is held until `R` has
        // reverted everything; the revert waits until that load's data is queued before it returns.
        let controller = ScriptedController(local, holdingLoad: 2)
        let run = Task {
            try await ConsoleRunner(terminal: terminal, controller: controller, refresh: .milliseconds(5)).run()
        }
        try await terminal.frame(containing: "return(7)")
        await controller.heldLoadHasTakenItsData()
        terminal.push(.character("R"))
        try await terminal.frame(containing: "everything reverted")
        terminal.push([.character("/"), .character("q")])  // anything queued before these keys has been drawn
        try await terminal.frame(containing: "0 of 1 match “q”")
        let stale = terminal.frames.filter { $0.contains("everything reverted") && $0.contains("return(7)") }
        #expect(stale.isEmpty, "the held load's data was drawn after the revert:\n\(stale.first ?? "")")
        terminal.push([.escape, .character("q")])
        #expect(try await run.value == .quit)
    }
}

/// A ``MemoryTerminal`` that keeps the text of every frame drawn.
final class RecordingTerminal: Terminal {
    private let memory: MemoryTerminal
    private let drawn = Mutex<[String]>([])

    init(size: ScreenSize) { memory = MemoryTerminal(size: size) }

    var size: ScreenSize { memory.size }
    /// Every frame's text, oldest first.
    var frames: [String] { drawn.withLock { $0 } }
    /// The last frame's text.
    var last: String { memory.lastGrid?.text ?? "" }

    func start(
        onKey: @escaping @Sendable (Key) -> Void, onResize: @escaping @Sendable (ScreenSize) -> Void,
        onSignal: (@Sendable (TerminalSignal) -> Void)?
    ) throws { try memory.start(onKey: onKey, onResize: onResize, onSignal: onSignal) }

    func draw(_ grid: CellGrid) {
        drawn.withLock { $0.append(grid.text) }
        memory.draw(grid)
    }

    func stop() { memory.stop() }
    func copyToClipboard(_ text: String) { memory.copyToClipboard(text) }
    func push(_ key: Key) { memory.push(key) }
    func push(_ keys: [Key]) { memory.push(keys) }

    /// Waits for a frame containing `text`; fails after 60 s (a deadline for a loaded machine, not a wait).
    func frame(containing text: String) async throws {
        let memory = self.memory
        let found = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await memory.frame(containing: text) != nil }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return false
            }
            defer { group.cancelAll() }
            return await group.next()!
        }
        if !found { throw WaitFailed(description: "no frame with \"\(text)\"; last:\n\(last)") }
    }

    struct WaitFailed: Error, CustomStringConvertible { let description: String }
}

/// A ``LocalController`` whose loads are scripted: frozen at one answer, or with one load held back.
final class ScriptedController: ConsoleController {
    private struct State {
        var loads = 0
        var tookData: CheckedContinuation<Void, Never>?
        var hasTakenData = false
        var release: CheckedContinuation<Void, Never>?
        var isReleased = false
        var afterRelease: CheckedContinuation<Void, Never>?
    }

    private let inner: LocalController
    private let frozen: ConsoleData?
    private let held: Int?
    private let state = Mutex(State())

    /// Every load answers `frozen`.
    init(_ inner: LocalController, frozen: ConsoleData) {
        (self.inner, self.frozen, held) = (inner, frozen, nil)
    }

    /// Load number `held` takes the target's data, then waits until ``revertAll()`` has reverted everything.
    init(_ inner: LocalController, holdingLoad held: Int) {
        (self.inner, frozen, self.held) = (inner, nil, held)
    }

    func load() async throws -> ConsoleData {
        if let frozen { return frozen }
        let number = state.withLock { state in
            state.loads += 1
            if state.isReleased, let next = state.afterRelease {
                state.afterRelease = nil
                next.resume()
            }
            return state.loads
        }
        let data = try await inner.load()
        guard number == held else { return data }
        let waiter = state.withLock { state in
            state.hasTakenData = true
            defer { state.tookData = nil }
            return state.tookData
        }
        waiter?.resume()
        await withCheckedContinuation { continuation in
            let released = state.withLock { state in
                if !state.isReleased { state.release = continuation }
                return state.isReleased
            }
            if released { continuation.resume() }
        }
        return data
    }

    /// Returns once the held load has taken its data.
    func heldLoadHasTakenItsData() async {
        await withCheckedContinuation { continuation in
            let taken = state.withLock { state in
                if !state.hasTakenData { state.tookData = continuation }
                return state.hasTakenData
            }
            if taken { continuation.resume() }
        }
    }

    /// Reverts everything, lets the held load return, and returns when the next load starts: by then the
    /// periodic loop has queued the held load's data.
    func revertAll() async throws {
        try await inner.revertAll()
        await withCheckedContinuation { continuation in
            let release = state.withLock { state in
                state.isReleased = true
                state.afterRelease = continuation
                defer { state.release = nil }
                return state.release
            }
            release?.resume()
        }
    }

    func apply(_ spec: String, to seam: SeamID) async throws { try await inner.apply(spec, to: seam) }
    func revert(_ seam: SeamID) async throws { try await inner.revert(seam) }
    func release(_ seam: SeamID) async throws -> Int { try await inner.release(seam) }
    func setTTL(_ ttl: Duration?, on seam: SeamID) async throws { try await inner.setTTL(ttl, on: seam) }
    func resetCounters(_ seam: SeamID?) async throws { try await inner.resetCounters(seam) }
    func toggleProfile(_ name: String) async throws -> Bool { try await inner.toggleProfile(name) }
    func advanceTime(by duration: Duration) async throws { try await inner.advanceTime(by: duration) }
    func saveProfile(named name: String, overwrite: Bool) async throws -> String {
        try await inner.saveProfile(named: name, overwrite: overwrite)
    }
}
