import Dispatch
import Foundation
import Mischief
import Synchronization
import Testing

/// A call to a synchronous seam that stops inside its behaviour, on a thread of its own, until released; so a
/// test decides exactly which calls are in flight when the registry frees, reverts or goes away.
final class ParkedCall: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let result = Atomic<Int>(0)

    /// A behaviour that parks the call inside it, then returns `value`.
    func behaviour(returning value: Int) -> Behaviour<Int, Int, Never> {
        .closure { [self] _ in park(returning: value) }
    }

    /// What the behaviour does: says the call is inside, waits to be released, returns `value`.
    func park(returning value: Int) -> Int {
        entered.signal()
        release.wait()
        return value
    }

    /// Calls `seam` on a new thread and returns once the call is inside the parking behaviour.
    func start(_ seam: Seam<Int, Int, Never>, input: Int = 0) {
        let thread = Thread { [self] in
            result.store(seam(input), ordering: .relaxed)
            done.signal()
        }
        thread.start()
        if entered.wait(timeout: .now() + 60) == .timedOut {
            Issue.record("the call of \(seam.info.id) did not reach its parking behaviour within 60 s")
        }
    }

    /// Lets the call return and waits for it; returns what the seam returned.
    func finish() -> Int {
        release.signal()
        if done.wait(timeout: .now() + 60) == .timedOut {
            Issue.record("the parked call did not return within 60 s of its release")
        }
        return result.load(ordering: .relaxed)
    }
}

/// An object a behaviour captures, to see when the registry frees that behaviour.
final class Witness: Sendable {}
