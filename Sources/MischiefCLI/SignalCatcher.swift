import ArgumentParser
import CMischiefTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Catches SIGINT, SIGTERM and SIGHUP from the moment it is installed, for commands that run until one comes
/// (`demo --headless`, `apply --hold`).
///
/// Install it before telling anyone the command is ready: a signal that comes at once is then kept for ``next()``,
/// where before it killed the process (leaving its socket behind) or, caught between `signal(SIG_IGN)` and the
/// registration of a Dispatch signal source, was dropped and the command never ended. The handlers are the
/// console's async-signal-safe ones: they note the signal and write a byte to a pipe.
struct SignalCatcher: Sendable {
    private let wake: Int32

    /// Installs the handlers.
    ///
    /// - Throws: `ExitCode(1)` after printing why, when the pipe or the handlers cannot be set up.
    static func install() throws -> SignalCatcher {
        var descriptors: [Int32] = [-1, -1]
        guard mischief_terminal_make_pipe(&descriptors) == 0, mischief_terminal_signals_install(descriptors[1]) == 0
        else {
            printError("cannot catch SIGINT, SIGTERM and SIGHUP: \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        return SignalCatcher(wake: descriptors[0])
    }

    private init(wake: Int32) { self.wake = wake }

    /// Waits for the next signal and returns it: SIGTERM, else SIGINT, else SIGHUP when several came together.
    func next() async -> Int32 {
        let wake = self.wake
        return await withCheckedContinuation { continuation in
            // A thread of its own, as the wait blocks in poll(2).
            Thread.detachNewThread {
                while true {
                    var entry = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
                    _ = poll(&entry, 1, -1)
                    var byte: UInt8 = 0
                    while read(wake, &byte, 1) == 1 {}
                    let pending = mischief_terminal_take_signals()
                    for (bit, signal) in [
                        (MISCHIEF_SIGNAL_TERMINATE, SIGTERM), (MISCHIEF_SIGNAL_INTERRUPT, SIGINT),
                        (MISCHIEF_SIGNAL_HANGUP, SIGHUP),
                    ] where pending & bit != 0 {
                        continuation.resume(returning: signal)
                        return
                    }
                }
            }
        }
    }
}
