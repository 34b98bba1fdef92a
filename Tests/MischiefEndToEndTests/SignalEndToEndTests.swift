import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `mischief demo` in tmux, sent each signal a crash, a user or a shell may send it (see
/// ``ConsoleInTmux``): a fatal one restores the terminal and ends the process with that signal (after the Swift
/// backtracer's report); SIGINT, SIGTERM and SIGHUP end it cleanly; the others leave it running and drawing, and
/// SIGTSTP gives the terminal back to the shell until `fg`.
@Suite(.oneAtATime) struct SignalEndToEndTests {
    /// The signals whose default action dumps core.
    static let fatal = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGQUIT]
    /// Those the Swift runtime's backtracer catches, printing a report before the process dies.
    static let backtraced: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT]

    @Test(arguments: fatal)
    func aFatalSignalRestoresTheTerminalAndEndsTheProcessWithIt(_ signal: Int32) async throws {
        let console = try await ConsoleInTmux.start(seed: 100 + Int(signal))
        defer { console.stop() }
        #expect(kill(console.pid, signal) == 0)
        let ending = try await console.waitForEnd()
        let name = Self.name(signal)
        #expect(ending.status == 128 + signal, "ended by \(name); screen:\n\(Poll.ascii(ending.screen))")
        #expect(ending.isRestored, "echo and icanon back after \(name): \(ending.terminalFlags.sorted())")
        #expect(!ending.alternateScreen, "the alternate screen left after \(name)")
        if Self.backtraced.contains(signal) {
            #expect(
                ending.screen.contains("crashed"), "the backtrace on the normal screen:\n\(Poll.ascii(ending.screen))")
        }
    }

    /// A `crash` applied to a seam the demo keeps calling ends it with status 86 (exit(3), not a signal): the
    /// console's exit handler restores the terminal all the same. The demo reads its clock as the console draws its
    /// panel, so the 41st read, the crash, comes while the console has the terminal. The test does not wait for a
    /// first screen: on a loaded machine (CI) the demo had ended before one was read.
    @Test func aCrashBehaviourRestoresTheTerminalAndEndsWithItsStatus() async throws {
        let console = try await ConsoleInTmux.start(
            seed: 600, environment: "MISCHIEF_ALLOW_CRASH=1 'MISCHIEF_APPLY=clock.now=40*off -> crash(\"tmux\")'",
            waitForFirstScreen: false)
        defer { console.stop() }
        let ending = try await console.waitForEnd()
        #expect(ending.status == 86, "screen:\n\(Poll.ascii(ending.screen))")
        #expect(ending.isRestored, "echo and icanon back after a crash: \(ending.terminalFlags.sorted())")
        #expect(!ending.alternateScreen)
        // The message went to stderr while the console had the alternate screen, so it left with it (README).
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aTerminationSignalEndsTheConsoleCleanly(_ signal: Int32) async throws {
        let console = try await ConsoleInTmux.start(seed: 200 + Int(signal))
        defer { console.stop() }
        #expect(kill(console.pid, signal) == 0)
        let ending = try await console.waitForEnd()
        #expect(ending.status == 128 + signal, "exit status after \(Self.name(signal))")
        #expect(ending.isRestored, "echo and icanon back after \(Self.name(signal)): \(ending.terminalFlags.sorted())")
        #expect(!ending.alternateScreen)
        #expect(!ending.screen.contains("crashed"))
    }

    /// SIGTSTP here too: the demo's shell has no job control (its process group is orphaned), so the kernel drops
    /// the stop and the console must take the terminal straight back.
    @Test(arguments: [SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT, SIGTSTP])
    func aHarmlessSignalLeavesTheConsoleRunning(_ signal: Int32) async throws {
        let console = try await ConsoleInTmux.start(seed: 300 + Int(signal))
        defer { console.stop() }
        #expect(kill(console.pid, signal) == 0)
        try await console.waitForDrawing("after \(Self.name(signal))")
        try console.tmux.send(console.session, keys: "q")
        let ending = try await console.waitForEnd()
        #expect(ending.status == 0)
        #expect(ending.isRestored)
    }

    /// Stopped by someone else (SIGSTOP cannot be caught) and continued: the console takes the terminal again.
    @Test func aStoppedConsoleTakesTheTerminalAgainWhenContinued() async throws {
        let console = try await ConsoleInTmux.start(seed: 400)
        defer { console.stop() }
        #expect(kill(console.pid, SIGSTOP) == 0)
        _ = try await Poll.until("the demo to stop", lastSeen: { Self.state(console.pid) }) {
            Self.state(console.pid).hasPrefix("T") ? true : nil
        }
        #expect(kill(console.pid, SIGCONT) == 0)
        try await console.waitForDrawing("after SIGSTOP and SIGCONT")
    }

    /// SIGTSTP (as from Ctrl-Z or `kill -TSTP`) in a shell with job control: the console gives the terminal back
    /// (normal screen, the shell's prompt), stops, and takes it again when the shell's `fg` continues it.
    @Test func aSuspendedConsoleGivesTheTerminalBackUntilFg() async throws {
        let console = try await ConsoleInTmux.start(seed: 500, jobControl: true)
        defer { console.stop() }
        #expect(kill(console.pid, SIGTSTP) == 0)
        _ = try await console.tmux.wait(for: "the shell to report the demo stopped", in: console.session) { text in
            text.contains("Stopped") ? true : nil
        }
        #expect(Self.state(console.pid).hasPrefix("T"), "the demo is stopped")
        #expect(try await console.takeStatus() == 128 + SIGTSTP, "the job shell saw it stop")
        #expect(
            try !console.tmux.isAlternateScreenOn(console.session),
            Comment(
                rawValue: "the normal screen, with the shell on it; the demo is \(Self.state(console.pid)), the pane:\n"
                    + console.tmux.screen(console.session)))

        try console.type("fg")
        _ = try await console.tmux.wait(for: "the console back after fg", in: console.session) { text in
            DemoScreen(text).pid == console.pid ? true : nil
        }
        try await console.waitForDrawing("after fg")
        try console.tmux.send(console.session, keys: "q")
        // Typed only once the console has ended: keys that reach it while it quits are lost.
        _ = try await Poll.until("the console to end", lastSeen: { console.tmux.screen(console.session) }) {
            try !console.tmux.isAlternateScreenOn(console.session) && kill(console.pid, 0) != 0 ? true : nil
        }
        try console.type(ConsoleInTmux.record)  // the shell ran the rest of the line when the job stopped
        let ending = try await console.waitForEnd()
        #expect(ending.status == 0)
        #expect(ending.isRestored)
    }

    /// The signal's name, for messages.
    static func name(_ signal: Int32) -> String {
        strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
    }

    /// The state letter and the rest of the State line of `/proc/PID/status` ("T (stopped)").
    static func state(_ pid: Int32) -> String {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("State:") } ?? "State: gone"
        return line.dropFirst("State:".count).trimmingCharacters(in: .whitespaces)
    }
}
