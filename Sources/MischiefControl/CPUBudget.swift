import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bounds the CPU the control server's event-loop thread takes from the target, so a flood of connections costs the
/// program being debugged at most ``ControlServer/Limits/cpuShare`` of a core.
///
/// A token bucket of CPU time: the thread earns `share` of every wall-clock nanosecond, up to `burst` (so a server
/// that has been idle answers at once), and pays for the CPU it used, read from its own thread clock. When the bucket
/// is in debt, ``pause()`` says how long the thread must stay off the CPU to pay it back; the server then sleeps
/// that long, neither accepting, reading, writing nor running timers, while the kernel holds what clients send.
/// Connections that wait cost nothing. The clocks are injected so tests need no timing.
final class CPUBudget: @unchecked Sendable {
    // Touched only on the server's event loop, after the first ``pause()`` (whose thread the clock measures).
    /// The thread's CPU time and the monotonic wall clock, both in nanoseconds.
    typealias Clock = () -> Int64

    let share: Double
    let burst: Int64
    /// The longest single pause (a very expensive request pays its debt over several).
    let longestPause: Int64
    private let cpu: Clock
    private let wall: Clock
    private var tokens: Int64
    private var lastCPU: Int64 = 0
    private var lastWall: Int64 = 0
    private var started = false

    /// A budget of `share` of a core (0 < share < 1), with `burst` to spend at once after idling.
    init(
        share: Double, burst: Duration, longestPause: Duration = .milliseconds(50),
        cpu: @escaping Clock = CPUBudget.threadCPUTime, wall: @escaping Clock = CPUBudget.monotonicTime
    ) {
        self.share = share
        self.burst = Self.nanoseconds(burst)
        self.longestPause = Self.nanoseconds(longestPause)
        self.cpu = cpu
        self.wall = wall
        tokens = self.burst
    }

    /// How long the thread must pause now to stay within its share (zero when it is within it): the CPU used since
    /// the last call is paid, the wall time passed is earned. The first call starts the clocks.
    func pause() -> Duration {
        let (cpuNow, wallNow) = (cpu(), wall())
        guard started else {
            (started, lastCPU, lastWall) = (true, cpuNow, wallNow)
            return .zero
        }
        let earned = Double(max(0, wallNow - lastWall)) * share
        tokens = min(burst, tokens + Int64(min(earned, Double(burst)))) - max(0, cpuNow - lastCPU)
        (lastCPU, lastWall) = (cpuNow, wallNow)
        guard tokens < 0 else { return .zero }
        return .nanoseconds(min(longestPause, Int64((Double(-tokens) / share).rounded(.up))))
    }

    /// Pauses the calling thread as ``pause()`` says; called by the server's thread after each piece of work.
    func throttle() {
        let pause = pause()
        guard pause > .zero else { return }
        let nanoseconds = Self.nanoseconds(pause)
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var left = timespec()
        while nanosleep(&request, &left) != 0, errno == EINTR { request = left }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The calling thread's CPU time (user and system), in nanoseconds.
    static func threadCPUTime() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    static func monotonicTime() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

/// First in every connection's pipeline and on the listening socket: after each batch of reads (requests, accepted
/// connections) the server's thread pays for the CPU it took, pausing when over ``ControlServer/Limits/cpuShare``.
final class BudgetGate: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    private let budget: CPUBudget

    init(budget: CPUBudget) {
        self.budget = budget
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        budget.throttle()
        context.fireChannelReadComplete()
    }
}
