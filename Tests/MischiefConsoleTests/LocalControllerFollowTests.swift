import Foundation
import Mischief
import MischiefConsole
import Testing

/// The in-process console follows its registry with the core's follower, as the control server's streams do.
@Suite(.timeLimit(.minutes(1))) struct LocalControllerFollowTests {
    /// A change made in the registry by someone else (code, a guard, another client) reaches the console when the
    /// registry signals it, not at the next refresh: here an hour away.
    @Test func aChangeReachesTheConsoleOnTheRegistrysSignal() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Never>("t.double", title: "Double", category: "T", summary: "") { $0 * 2 }
        try registry.register(seam)
        let controller = LocalController(
            registry: registry, name: "test", saveDirectory: URL(fileURLWithPath: "/nonexistent"),
            refresh: .seconds(3_600))
        let updates = controller.updates()
        #expect(registry.delta(since: 0).isCounting, "a console reads: the registry counts")
        try registry.apply(spec: "return(3)", to: "t.double", source: "code")
        // The suite's time limit is the deadline: a change that never comes fails it there.
        var state: TargetState?
        for await update in updates {
            switch update {
            case .reset(let delta): state = TargetState(everything: delta, eventLimit: 10)
            case .delta(let delta): state?.applying(delta, eventLimit: 10)
            case .lost: break
            }
            if state?.seams.first?.behaviourText != nil { break }
        }
        #expect(state?.seams.first?.behaviourText == "return(3)", "the updates ended before the apply was sent")
    }
}
