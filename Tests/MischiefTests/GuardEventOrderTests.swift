import Foundation
import Mischief
import Testing

/// A guard's `guard-tripped` event reaches event readers only once what it reverted is reverted: a reader that acts
/// on the event (calls the seam again, as the guard example in the docs does) gets the original.
@Suite struct GuardEventOrderTests {
    @Test func aReaderOfTheTripSeesTheSeamsReverted() async throws {
        let g = try GuardTests.Guarded()
        // Many layers make the revert take long enough that a reader woken early would call a seam still changed.
        let others = try (0..<2_000).map { index in
            Seam<Int, Int, Never>(try SeamID("other.s\(index)"), title: "Other", category: "Other", summary: "") { $0 }
        }
        try g.registry.register(others)
        for seam in others { try g.registry.apply(seam, Behaviour<Int, Int, Never>.constant(-1)) }
        try g.registry.apply(spec: #"throw("declined")"#, to: "api.checkout")
        try g.registry.apply(spec: #"throw("down")"#, to: "net.request")
        _ = try g.registry.addGuard(Guard(parsing: "errors(net.request) > 50% over 10s"))
        g.call(g.request, 10)
        g.tick()
        let events = g.registry.eventStream(bufferingNewest: 10_000)  // the trip and its 2,002 reverts
        let checkout = g.checkout
        let reader = Task {
            for await event in events where event.kind == .guardTripped {
                return (try? checkout(5)) == 5
            }
            return false
        }
        #expect(!g.registry.checkGuards().isEmpty, "the guard trips")
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            reader.cancel()
        }
        defer { watchdog.cancel() }
        #expect(await reader.value, "the reader of guard-tripped called api.checkout before it was reverted")
    }
}
