import Foundation
import Mischief
import MischiefCatalog
import MischiefConsole
import Testing

@testable import MischiefDemo

/// Random walks of keys and resizes through the console over the real demo target, in process: every preset, every
/// pane scrolled to its ends, the list moving under the selection as presets change what it shows. Each step renders
/// a frame and checks it; a walk is replayed from its seed, so a failure names the seed and the steps that led there.
@Suite("Console walks over the demo")
struct ConsoleWalkTests {
    static let keys: [Key] = [
        .home, .end, .pageUp, .pageDown, .up, .down, .left, .right, .tab, .backTab, .enter, .escape, .insert,
        .delete, .backspace,
        .character("1"), .character("2"), .character("3"), .character("4"), .character("5"), .character("6"),
        .character("7"), .character("8"), .character("0"), .character("j"), .character("k"), .character("g"),
        .character("G"), .character(" "), .character("+"), .character("-"), .character("r"), .character("R"),
        .character("p"), .character("?"), .character("/"), .character("x"), .character("e"), .character("f"),
        .character("a"), .character("t"), .character("y"), .character("Y"), .character("l"), .character("h"),
        .function(1), .control("l"),
    ]
    static let sizes = [
        ScreenSize(rows: 40, columns: 120), ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 30, columns: 100),
        ScreenSize.minimum, ScreenSize(rows: 80, columns: 250), ScreenSize(rows: 13, columns: 51),
        ScreenSize(rows: 5, columns: 20),
    ]

    /// The reviewer's sequence that ended the demo with SIGILL at 120×40 (issue 11), replayed exactly, with fresh
    /// data between keys as the running console gets it.
    @Test func reportedSequenceAt120x40() async throws {
        let keys: [Key] =
            [.home, .end] + (1...8).map { .character(Character("\($0)")) }
            + [.tab, .tab, .pageDown, .pageDown, .pageDown, .end, .tab, .character("j"), .character("k")]
        for size in [ScreenSize(rows: 40, columns: 120), ScreenSize(rows: 24, columns: 80)] {
            let walk = try Walk(seed: 7, size: size)
            await walk.start()
            for key in keys { try await walk.press(key) }
        }
    }

    @Test(arguments: 0..<24) func randomWalk(seed: UInt64) async throws {
        var random = SplitMix(seed: seed)
        let walk = try Walk(seed: Int(seed), size: Self.sizes[Int(seed) % Self.sizes.count])
        await walk.start()
        for _ in 0..<400 {
            switch random.next() % 20 {
            case 0:
                try await walk.resize(to: Self.sizes[Int(random.next() % UInt64(Self.sizes.count))])
            case 1:
                try await walk.refresh()
            default:
                try await walk.press(Self.keys[Int(random.next() % UInt64(Self.keys.count))])
            }
        }
    }
}

/// One console over one demo target: keys go through ``Console/update(_:_:)``, commands run against a
/// ``LocalController`` as ``ConsoleRunner`` runs them, and every step ends with a rendered frame that is checked.
final class Walk {
    let registry: Registry
    let demo: DemoTarget
    let controller: LocalController
    let directory: URL
    var state: ConsoleState
    var steps: [String] = []

    init(seed: Int, size: ScreenSize) throws {
        registry = Registry(sessionSeed: UInt64(seed))
        let clock = ChaosClock(id: "clock.now")
        demo = try DemoTarget(registry: registry, clock: clock)
        try demo.definePresets()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        controller = LocalController(
            registry: registry, name: "mischief demo", saveDirectory: directory, targetTime: { clock.peekDate() })
        state = ConsoleState(size: size)
        demo.publish()
    }

    /// Shows the console what its controller's first update carries now: everything.
    func start() async {
        state.show(await Self.everything(controller))
    }

    /// What a new reader of the controller's updates is sent first: everything, as of now.
    static func everything(_ controller: LocalController) async -> ConsoleData {
        for await update in controller.updates() {
            if case .reset(let delta) = update { return ConsoleData(everything: delta, eventLimit: 200) }
        }
        preconditionFailure("a controller's updates ended before their first")
    }

    deinit {
        registry.revertAll()
        try? FileManager.default.removeItem(at: directory)
    }

    func press(_ key: Key) async throws {
        steps.append("\(key)")
        try await handle(.key(key))
    }

    func resize(to size: ScreenSize) async throws {
        steps.append("resize \(size.columns)x\(size.rows)")
        try await handle(.resized(size))
    }

    /// What the runner's ticker does: the target draws its screen, the console loads fresh data.
    func refresh() async throws {
        steps.append("refresh")
        demo.publish()
        state.show(await Self.everything(controller))
        check()
    }

    private func handle(_ event: ConsoleEvent) async throws {
        var pending = [event]
        var changed = false
        while !pending.isEmpty {
            for command in Console.update(&state, pending.removeFirst()) {
                switch command {
                case .quit:
                    continue
                case .cycleTheme:
                    pending.append(.commandFinished(command, .success("mono")))
                case .copy:
                    pending.append(.commandFinished(command, .success(nil)))
                default:
                    let result = await command.perform(with: controller)?.result ?? .success(nil)
                    pending.append(.commandFinished(command, result))
                    changed = true
                }
            }
        }
        if changed {
            demo.publish()
            state.show(await Self.everything(controller))
        }
        check()
    }

    private func check() {
        let grid = Console.render(state, size: state.size, theme: .standard)
        #expect(
            grid.width == state.size.columns && grid.height == state.size.rows,
            "grid \(grid.width)x\(grid.height) for \(state.size.columns)x\(state.size.rows) after \(steps.suffix(12))")
        for y in 0..<grid.height {
            for cell in grid.row(y) where cell.text.count > 1 {
                Issue.record("row \(y) has a cell of \(cell.text.count) characters after \(steps.suffix(12))")
            }
        }
    }
}

/// A small seeded generator, so a walk replays from its seed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
