import Foundation
import Mischief
import MischiefConsole
import Synchronization
import Testing

/// What the console shows while its data and the target differ: a switch reports what the target did, a delta older
/// than what the console has never puts back what a command changed, and keys typed after a command wait for the
/// data that shows it.
@Suite("ConsoleRunner: data in order", .timeLimit(.minutes(2)))
struct ConsoleRunnerOrderTests {
    let target: RunnerTarget
    let terminal = RecordingTerminal(size: ScreenSize(rows: 30, columns: 120))
    var registry: Registry { target.registry }

    init() throws {
        target = try RunnerTarget(name: "order test")
        try registry.define(
            Profile(name: "Seven", key: 1, entries: [.init(seam: "test.answer", spec: "return(7)")]))
    }

    @Test func aSwitchSaysWhatTheTargetDidEvenWhenTheDataShowsOtherwise() async throws {
        // Data sent once and never again: the console believes Seven is off while the target has it on.
        let controller = ScriptedController(registry, answers: .unseen)
        _ = try registry.apply(profile: "Seven")
        let run = Task { try await ConsoleRunner(terminal: terminal, controller: controller).run() }
        try await terminal.frame(containing: "The answer")
        terminal.push(.character("1"))
        try await terminal.frame(containing: "profile Seven switched")
        #expect(terminal.last.contains("profile Seven switched off"), "\(terminal.last)")
        #expect(!registry.profiles[0].isActive)
        terminal.push([.character("q"), .character("q")])  // the first says the session is not saved
        #expect(try await run.value == .quit)
    }

    @Test func aDeltaOlderThanTheConsolesDataIsIgnored() async throws {
        try registry.apply(spec: "return(7)", to: "test.answer")
        // After `R`, the controller sends the revert's delta and then, late, its first delta again (return(7)).
        let controller = ScriptedController(registry, answers: .thenTheFirstAgain)
        let run = Task { try await ConsoleRunner(terminal: terminal, controller: controller).run() }
        try await terminal.frame(containing: "return(7)")
        terminal.push(.character("R"))
        try await terminal.frame(containing: "everything reverted")
        terminal.push([.character("/"), .character("q")])  // anything queued before these keys has been drawn
        try await terminal.frame(containing: "0 of 1 match “q”")
        let stale = terminal.frames.filter { $0.contains("everything reverted") && $0.contains("return(7)") }
        #expect(stale.isEmpty, "the old delta was drawn after the revert:\n\(stale.first ?? "")")
        terminal.push([.escape, .character("q"), .character("q")])  // the first q says the session is not saved
        #expect(try await run.value == .quit)
    }

    @Test func keysTypedAfterACommandWaitForTheDataThatShowsIt() async throws {
        // Space applies the default spec; its delta is held back until the test lets it go. `r`, typed at once,
        // must revert what Space applied, not say that the seam runs its original (what the old data shows).
        let controller = ScriptedController(registry, answers: .firstHeldUntilReleased)
        let run = Task { try await ConsoleRunner(terminal: terminal, controller: controller).run() }
        try await terminal.frame(containing: "The answer")
        terminal.push([.character(" "), .character("r")])
        await controller.answerHeld()
        #expect(registry.snapshot().seam("test.answer")?.behaviourText != nil)  // `r` has not run
        #expect(!terminal.last.contains("already runs its original"))
        controller.releaseHeld()
        try await terminal.frame(containing: "test.answer: original")
        #expect(registry.snapshot().seam("test.answer")?.behaviourText == nil)
        #expect(!terminal.frames.contains { $0.contains("already runs its original") })
        terminal.push([.character("q"), .character("q")])  // the first says the session is not saved
        #expect(try await run.value == .quit)
    }

    @Test func keysAResizeAndQuitAreHandledWhileACommandWaitsForAStoppedTarget() async throws {
        // Space applies; the target does not answer (stopped) until the test lets it. Meanwhile the filter takes
        // keys, a resize redraws, the header says the console waits, and `q` quits.
        let controller = ScriptedController(registry, answers: .stoppedUntilReleased)
        defer { controller.releaseStopped() }
        let run = Task { try await ConsoleRunner(terminal: terminal, controller: controller).run() }
        try await terminal.frame(containing: "The answer")
        terminal.push(.character(" "))
        await controller.commandStopped()
        try await terminal.frame(containing: "waiting for the target")
        terminal.push([.character("/"), .character("q")])
        try await terminal.frame(containing: "0 of 1 match “q”")
        terminal.resize(to: ScreenSize(rows: 24, columns: 80))
        try await terminal.frame(where: { $0.width == 80 && $0.height == 24 })
        terminal.push([.escape, .character("q"), .character("q")])
        #expect(try await run.value == .quit)
    }

    @Test func aChangeTypedWhileACommandWaitsForAStoppedTargetWaitsItsTurn() async throws {
        // Space applies and the target stops; `r`, typed then, is a change: it waits until the apply is answered
        // and shown, then reverts what Space applied. A key after it waits behind it, in order.
        let controller = ScriptedController(registry, answers: .stoppedUntilReleased)
        let run = Task { try await ConsoleRunner(terminal: terminal, controller: controller).run() }
        try await terminal.frame(containing: "The answer")
        terminal.push(.character(" "))
        await controller.commandStopped()
        terminal.push([.character("r"), .character("/"), .character("x")])
        try await terminal.frame(containing: "waiting for the target")
        #expect(!terminal.frames.contains { $0.contains("match “x”") }, "the filter waited behind r")
        controller.releaseStopped()
        try await terminal.frame(containing: "0 of 1 match “x”")
        #expect(registry.snapshot().seam("test.answer")?.behaviourText == nil, "r reverted what Space applied")
        #expect(!terminal.frames.contains { $0.contains("already runs its original") })
        terminal.push([.escape, .character("q"), .character("q")])
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
    func resize(to size: ScreenSize) { memory.resize(to: size) }

    /// Waits for a frame `matches`; fails after 60 s (a deadline for a loaded machine, not a wait).
    func frame(where matches: @escaping @Sendable (CellGrid) -> Bool) async throws {
        let memory = self.memory
        let found = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await memory.frame(where: matches) != nil }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return false
            }
            defer { group.cancelAll() }
            return await group.next()!
        }
        if !found { throw WaitFailed(description: "no such frame; last:\n\(last)") }
    }

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

/// A controller over a registry whose updates are scripted, to show the runner's order rules.
final class ScriptedController: ConsoleController {
    enum Answers: Sendable {
        /// The first update only: commands answer with no generation, and the data never shows them.
        case unseen
        /// Each command's delta is sent; after it, the first update's delta again (an old delta arriving late).
        case thenTheFirstAgain
        /// The first command's delta is held until ``releaseHeld()``; later ones are sent.
        case firstHeldUntilReleased
        /// The first command does not return (a stopped target) until ``releaseStopped()``; then every command's
        /// delta is sent.
        case stoppedUntilReleased
    }

    private struct State {
        var continuation: AsyncStream<ConsoleUpdate>.Continuation?
        var sent: UInt64 = 0
        var first: StreamDelta?
        var held: StreamDelta?
        var hasHeld = false
        var waitingForHeld: CheckedContinuation<Void, Never>?
        /// The first command, stopped; and whoever waits to know it is.
        var stopped: CheckedContinuation<Void, Never>?
        var hasStopped = false
        var released = false
        var waitingForStopped: CheckedContinuation<Void, Never>?
    }

    private let registry: Registry
    private let answers: Answers
    private let state = Mutex(State())

    init(_ registry: Registry, answers: Answers) {
        self.registry = registry
        self.answers = answers
    }

    private func delta(since generation: UInt64) -> StreamDelta {
        let changes = registry.delta(since: generation, includingActions: generation == 0)
        return StreamDelta(
            target: TargetHeader(
                name: "order test", pid: 1, uptime: changes.uptime, sessionSeed: 3, wallTime: Date()),
            registry: changes)
    }

    func updates() -> AsyncStream<ConsoleUpdate> {
        let (stream, continuation) = AsyncStream<ConsoleUpdate>.makeStream()
        let first = delta(since: 0)
        state.withLock { state in
            state.continuation = continuation
            state.first = first
            state.sent = first.generation
        }
        continuation.yield(.reset(first))
        return stream
    }

    /// Sends (or holds) what the command changed; returns the generation that shows it.
    private func answer() -> UInt64 {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            let delta = delta(since: state.sent)
            switch answers {
            case .unseen:
                return nil
            case .thenTheFirstAgain:
                state.continuation?.yield(.delta(delta))
                if let first = state.first { state.continuation?.yield(.delta(first)) }
            case .firstHeldUntilReleased where !state.hasHeld:
                state.held = delta
                state.hasHeld = true
            case .firstHeldUntilReleased, .stoppedUntilReleased:
                state.continuation?.yield(.delta(delta))
            }
            state.sent = delta.generation
            defer { state.waitingForHeld = nil }
            return state.waitingForHeld
        }
        waiter?.resume()
        return answers == .unseen ? 0 : state.withLock { $0.sent }
    }

    /// Holds the first command until ``releaseStopped()``, as a stopped target holds a request.
    private func stopIfFirst() async {
        guard answers == .stoppedUntilReleased else { return }
        await withCheckedContinuation { continuation in
            let (stop, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                guard !state.hasStopped, !state.released else { return (false, nil) }
                state.hasStopped = true
                state.stopped = continuation
                defer { state.waitingForStopped = nil }
                return (true, state.waitingForStopped)
            }
            waiter?.resume()
            if !stop { continuation.resume() }
        }
    }

    /// Returns once the first command is held by the stopped target.
    func commandStopped() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.hasStopped { return true }
                state.waitingForStopped = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets the stopped command go on (the target continues).
    func releaseStopped() {
        let stopped = state.withLock { state in
            state.released = true
            defer { state.stopped = nil }
            return state.stopped
        }
        stopped?.resume()
    }

    /// Returns once a command's delta is held.
    func answerHeld() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.hasHeld { return true }
                state.waitingForHeld = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Sends the held delta.
    func releaseHeld() {
        state.withLock { state in
            if let held = state.held { state.continuation?.yield(.delta(held)) }
            state.held = nil
        }
    }

    @discardableResult
    func apply(_ spec: String, to seam: SeamID) async throws -> UInt64 {
        await stopIfFirst()
        do throws(MischiefError) {
            try registry.apply(spec: spec, to: seam, source: "console")
        } catch {
            throw ConsoleError.refused(error.description)
        }
        return answer()
    }

    @discardableResult
    func revert(_ seam: SeamID) async throws -> UInt64 {
        registry.revert(seam: seam)
        return answer()
    }

    func release(_ seam: SeamID) async throws -> (released: Int, generation: UInt64) { (0, answer()) }

    @discardableResult
    func setTTL(_ ttl: Duration?, on seam: SeamID) async throws -> UInt64 { answer() }

    @discardableResult
    func revertAll() async throws -> UInt64 {
        registry.revertAll()
        return answer()
    }

    @discardableResult
    func resetCounters(_ seam: SeamID?) async throws -> UInt64 { answer() }

    @discardableResult
    func toggleProfile(_ name: String) async throws -> (isOn: Bool, generation: UInt64) {
        let isOn = try registry.toggle(profile: name)
        return (isOn, answer())
    }

    @discardableResult
    func advanceTime(by duration: Duration) async throws -> UInt64 { answer() }

    func saveProfile(named name: String, overwrite: Bool) async throws -> String { "" }
}
