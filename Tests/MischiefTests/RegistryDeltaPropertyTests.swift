import Dispatch
import Mischief
import Synchronization
import Testing

/// A reader applying `delta(since:)` to its copy with the console's applier (``TargetState/applying(_:eventLimit:)``,
/// the one there is) never misses a change, whatever runs beside it.
@Suite struct RegistryDeltaPropertyTests {
    static let seamCount = 40
    static let operations = 3_000

    /// Threads apply, replace, revert, register, unregister, publish and call while one poller follows along;
    /// after they stop, the poller's copy is the registry's snapshot, field for field.
    @Test(arguments: [1, 2, 3])
    func aPollersCopyEndsEqualToTheSnapshot(seed: UInt64) async throws {
        let registry = Registry(sessionSeed: seed)
        let seams = (0..<Self.seamCount).map { index in
            Seam<Int, Int, Never>(
                SeamID(stringLiteral: "prop.s\(index)"), title: "S\(index)", category: "P",
                summary: "x"
            ) { $0 &+ index }
        }
        try registry.register(seams)
        let observation = registry.observe()
        defer { observation.cancel() }
        var copy = TargetState.following(registry)
        var seen = copy.events.last?.id ?? 0
        let stop = Atomic<Bool>(false)
        let mutators = onThreads(2) { thread in
            var random = SeededGenerator(seed: seed, stream: UInt64(thread))
            for step in 0..<Self.operations {
                Self.mutate(registry, seams, step: step, thread: thread, random: &random)
            }
        }
        let callers = onThreads(1) { _ in
            var index = 0
            while !stop.load(ordering: .relaxed) {
                _ = seams[index % seams.count](index)
                index &+= 1
            }
        }
        var polls = 0
        while mutators.wait(timeout: .now()) == .timedOut {
            let changes = copy.follow(registry)
            #expect(changes.events.first.map { $0.id <= seen + 1 } ?? true, "no event skipped (bounded history)")
            seen = max(seen, changes.lastEventID)
            polls += 1
        }
        stop.store(true, ordering: .relaxed)
        await wait(for: callers)
        copy.follow(registry)
        let truth = registry.snapshot()
        #expect(copy.generation == truth.generation)
        #expect(copy.seams.map(\.id) == truth.seams.map(\.id))
        #expect(copy.seams == truth.seams)
        #expect(copy.view == truth.view)
        #expect(copy.events.last?.id ?? 0 == truth.lastEventID)
        #expect(copy.profiles == registry.profiles)
        #expect(copy.guards == registry.guards)
        print("changes property (seed \(seed)): \(2 * Self.operations) operations, \(polls) polls")
    }

    static func mutate(
        _ registry: Registry, _ seams: [Seam<Int, Int, Never>], step: Int, thread: Int,
        random: inout SeededGenerator
    ) {
        let seam = seams[random.index(below: seams.count)]
        let id = seam.info.id
        switch random.index(below: 10) {
        case 0, 1, 2:
            _ = try? registry.apply(spec: "return(\(step))", to: id, source: "thread \(thread)")
        case 3:
            _ = try? registry.apply(spec: "return(\(step))", to: id, source: "other")
        case 4:
            _ = try? registry.apply(seam, .constant(step))
        case 5:
            registry.revert(seam: id)
        case 6:
            registry.unregister(id)
            _ = try? registry.register(seam)
        case 7:
            registry.publish(TargetView(title: "step \(step)"))
        case 8:
            let profile = Profile(name: "P\(thread)", entries: [.init(seam: id, spec: "return(-1)")])
            _ = try? registry.define(profile)
            _ = try? registry.toggle(profile: profile.name)
        default:
            registry.report(seam: id, message: "step \(step)")
        }
    }
}
