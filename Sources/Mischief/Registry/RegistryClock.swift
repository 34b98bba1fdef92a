/// Where a registry reads the time: a monotonic clock, so that time to live, event times and uptimes are real
/// time even while a chaos clock or the wall clock is moved.
///
/// The registry uses ``ContinuousRegistryClock`` unless a test gives it a ``ManualRegistryClock`` (see
/// `Registry.init(sessionSeed:eventCapacity:clock:expiresOnItsOwn:)`), so expiry can be tested without waiting.
package protocol RegistryClock: Sendable {
    /// Time since some fixed moment; never goes backwards.
    var now: Duration { get }

    /// Asks the clock to call `wake` whenever it moves other than by the passage of time (a manual clock being
    /// advanced), so that whoever waits on a deadline looks again. A real clock never calls it.
    func onAdvance(_ wake: @escaping @Sendable () -> Void)
}

/// The real monotonic clock (`ContinuousClock`): what every registry uses outside tests.
package struct ContinuousRegistryClock: RegistryClock {
    private let start = ContinuousClock.now

    package init() {}

    package var now: Duration { ContinuousClock.now - start }

    package func onAdvance(_ wake: @escaping @Sendable () -> Void) {}
}

/// A clock that moves only when told to: tests advance it past a deadline and see what expires, without sleeping.
///
/// ```swift
/// let clock = ManualRegistryClock()
/// let registry = Registry(sessionSeed: 1, clock: clock, expiresOnItsOwn: false)
/// try registry.apply(spec: "shift(1d)", to: "clock.now", ttl: .seconds(30))
/// clock.advance(by: .seconds(30))
/// registry.expireDue()
/// ```
package final class ManualRegistryClock: RegistryClock {
    private let state = Locked<(now: Duration, wakers: [@Sendable () -> Void])>((.zero, []))

    package init() {}

    package var now: Duration { state.withLock { $0.now } }

    /// Moves the clock forward by `duration` and wakes whoever waits on it.
    package func advance(by duration: Duration) {
        precondition(duration >= .zero, "a monotonic clock only moves forward")
        let wakers = state.withLock { state in
            state.now += duration
            return state.wakers
        }
        for wake in wakers { wake() }
    }

    package func onAdvance(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wakers.append(wake) }
    }
}
