import Dispatch
import Foundation
import Mischief
import Testing

/// Profiles changed from several threads at once: each toggle, apply and revert is one atomic step.
@Suite struct ProfileRaceTests {
    /// Regression: "is it active?" and "apply it" were two steps, so two threads could both apply a profile and
    /// the second overwrote the first's handle: its layers stayed active and no revert could reach them
    /// (4 to 582 orphaned layers after 2 × 20,000 operations).
    @Test func twoThreadsTogglingOneProfileLeaveNoOrphanedLayer() throws {
        let f = try Fixture()
        try f.registry.define(
            Profile(
                name: "Tokyo",
                entries: [
                    .init(seam: "test.double", spec: "return(1)"), .init(seam: "test.rules", spec: #"return("T")"#),
                ]))
        let rounds = 3_000
        let done = DispatchGroup()
        for thread in 0..<2 {
            done.enter()
            Thread {
                for round in 0..<rounds {
                    switch (round + thread) % 3 {
                    case 0: _ = try? f.registry.toggle(profile: "Tokyo")
                    case 1: _ = try? f.registry.apply(profile: "Tokyo")
                    default: f.registry.revert(profile: "Tokyo")
                    }
                }
                done.leave()
            }.start()
        }
        done.wait()
        f.registry.revert(profile: "Tokyo")
        let snapshot = f.registry.snapshot()
        #expect(snapshot.seams.allSatisfy { $0.layers.isEmpty }, "orphaned layers after revert")
        #expect(f.registry.profiles.map(\.isActive) == [false])
        #expect(f.double(4) == 8 && f.rules("x") == "original x")
    }

    /// Parallel toggles, as 400 parallel `POST …/toggle` requests make: the profile ends on or off as a whole.
    @Test func parallelTogglesLeaveTheProfileWholeOnOrOff() throws {
        let f = try Fixture()
        try f.registry.define(Profile(name: "Tokyo", entries: [.init(seam: "test.double", spec: "return(1)")]))
        let toggles = 400
        DispatchQueue.concurrentPerform(iterations: toggles) { _ in _ = try? f.registry.toggle(profile: "Tokyo") }
        let layers = f.registry.snapshot().seams.first { $0.info.id == "test.double" }!.layers.count
        let active = f.registry.profiles[0].isActive
        #expect(layers == (active ? 1 : 0))
        #expect(active == false, "an even number of toggles leaves it off")
        f.registry.revert(profile: "Tokyo")
        #expect(f.registry.snapshot().seams.allSatisfy { $0.layers.isEmpty })
    }
}
