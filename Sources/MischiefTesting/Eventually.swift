import Mischief
import MischiefCatalog

/// Waits for `condition` by moving `clock`'s virtual time, never by waiting in real time: checks it, advances
/// the clock by `step`, and again, until it holds or `limit` of virtual time has passed (then the test fails at
/// the call). Kiwi's `shouldEventually`, on virtual time. Without a limit it tries 100 steps.
///
/// ```swift
/// try registry.apply(spec: "virtual(2030-01-01)", to: "test.clock")
/// model.startPolling()
/// await eventually(advancing: clock, by: .seconds(30)) { model.refreshCount >= 3 }
/// ```
/// The clock must be virtual or frozen (`virtual`, `freeze`): a real clock cannot be moved, and the wait fails
/// at once saying so. How sure each advance is that woken work has finished is the clock's business (see
/// `ChaosClock.advance(by:)`).
///
/// - Returns: Whether the condition came to hold.
@discardableResult
public func eventually(
    advancing clock: ChaosClock, by step: Duration = .seconds(1), within limit: Duration? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    precondition(step > .zero, "eventually(advancing:by:) needs a positive step; got \(step)")
    let limit = limit ?? step * 100
    var waited = Duration.zero
    while true {
        if try await condition() { return true }
        guard waited < limit else { break }
        guard await clock.advance(by: step) else {
            fail(
                "eventually(advancing: \(clock.seam.info.id)) cannot move a real clock: apply virtual or freeze to it",
                at: site)
            return false
        }
        waited += step
    }
    fail("The condition did not hold within \(limit) of virtual time on \(clock.seam.info.id)", at: site)
    return false
}
