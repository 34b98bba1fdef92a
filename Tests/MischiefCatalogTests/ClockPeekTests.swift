import Foundation
import Mischief
import MischiefCatalog
import Testing

/// The clock reads its own seam with a peek whenever a change is applied, so what a peek lets through matters here.
/// The time limit is a backstop, far below the pause's hour and far above a starved machine's stall (ThreadSanitizer
/// beside four builds on two cores once stopped every test of the run for 390 s, and a one-minute limit failed).
@Suite(.timeLimit(.minutes(10))) struct ClockPeekTests {
    /// The clock's scheduler peeks at every change, on the thread that applied it: a pause on the clock held that
    /// thread for the pause's maximum (the demo's action picker applying every draft took 30 s).
    @Test func pausingTheClockReturnsAtOnce() throws {
        let registry = Registry(sessionSeed: 1)
        let clock = ChaosClock(id: "peek.clock")
        try registry.register(clock.seam)
        try registry.apply(spec: "pause(max: 1h)", to: "peek.clock")
        #expect(clock.peekDate().timeIntervalSinceNow.magnitude < 3_600)
        registry.revertAll()
    }
}
