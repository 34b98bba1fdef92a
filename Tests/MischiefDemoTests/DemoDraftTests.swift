import Foundation
import Mischief
import MischiefCatalog
import MischiefConsole
import Testing

@testable import MischiefDemo

/// The action picker starts every action of every demo seam from a spec that applies as it is.
@Suite struct DemoDraftTests {
    /// Every draft the picker offers as complete applies to its seam; before, `freeze` started as `freeze(1d)` and
    /// `virtual` as `virtual(null)`, neither of which applies.
    @Test func everyActionsDraftAppliesAsItIs() throws {
        let registry = Registry(sessionSeed: 9)
        let clock = ChaosClock(id: "clock.now")
        _ = try DemoTarget(registry: registry, clock: clock)
        let now = Date(timeIntervalSince1970: 1_764_000_000)  // 2025-11-24T16:00:00Z
        var applied: [String] = []
        var blanks: [String] = []
        var crashes: [String] = []
        for seam in registry.snapshot().seams {
            for action in registry.actions(for: seam.id) ?? [] {
                let draft = action.draft(now: now)
                guard draft.isComplete else {
                    blanks.append("\(seam.id): \(draft.text)")
                    continue
                }
                if action.name == "crash" {
                    // Refused here (this registry does not allow crashes); where they are allowed, the first call of
                    // the seam would end this process. CrashActionTests apply it in a child process.
                    crashes.append("\(seam.id): \(draft.text)")
                    continue
                }
                #expect(throws: Never.self, "\(seam.id): \(draft.text)") {
                    try registry.apply(spec: draft.text, to: seam.id)
                }
                registry.revertAll()
                applied.append("\(seam.id): \(draft.text)")
            }
        }
        #expect(applied.contains("clock.now: freeze(2025-11-24T16:00:00Z)"), "\(applied)")
        #expect(applied.contains("location.current: city(\"São Paulo\")"), "\(applied)")
        #expect(applied.contains("clock.now: virtual"), "\(applied)")
        #expect(crashes.contains("net.request: crash"), "\(crashes)")
        // What is left blank for the user: routes, JSON values (their type is the seam's), lists of specs.
        #expect(blanks.contains("location.current: route(\"\")") && blanks.contains("model.user: return()"))
        #expect(!blanks.contains { $0.hasPrefix("clock.now: freeze") || $0.hasPrefix("clock.now: shift") })
    }
}
