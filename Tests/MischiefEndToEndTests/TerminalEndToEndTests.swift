import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `Scripts/terminal-smoke.sh` checked with a program of its own (`terminal-smoke`) and the other tmux suites
/// did not: keys read through ncurses reaching a text field (a non-ASCII character, Ctrl-A, Shift-Tab), and a crash
/// with the Swift backtracer turned off. Its other checks are here already: the layout at two sizes, under two TERMs
/// and after a resize (``PresetEndToEndTests``, ``DemoEndToEndTests``), q, SIGTERM and crashes restoring the terminal
/// (``SignalEndToEndTests``).
@Suite(.oneAtATime) struct TerminalEndToEndTests {
    @Test func keysReachATextFieldThroughNcurses() async throws {
        let console = try await ConsoleInTmux.start(seed: 7)
        defer { console.stop() }
        try console.tmux.send(console.session, keys: "/")
        _ = try await console.tmux.wait(for: "the filter open", in: console.session) { text in
            DemoScreen(text).statusLine.contains("Esc clear") ? true : nil
        }
        // é (two bytes in UTF-8), Ctrl-A (to the start of the field), then x before the é.
        try console.tmux.send(console.session, keys: "-l", "é")
        try console.tmux.send(console.session, keys: "C-a")
        try console.tmux.send(console.session, keys: "x")
        _ = try await console.tmux.wait(for: "x typed before é in the filter", in: console.session) { text in
            DemoScreen(text).statusLine.contains("/ xé") ? true : nil
        }
        // Shift-Tab is a key, not text: none of its bytes (ESC [ Z) lands in the field.
        try console.tmux.send(console.session, keys: "BTab")
        try console.tmux.send(console.session, keys: "y")
        let screen = try await console.tmux.wait(for: "y typed after x in the filter", in: console.session) { text in
            DemoScreen(text).statusLine.contains("/ xyé") ? DemoScreen(text) : nil
        }
        #expect(!screen.text.contains("[Z"), "Shift-Tab's bytes on the screen:\n\(screen.text)")
        try console.tmux.send(console.session, keys: "Escape")
        _ = try await console.tmux.wait(for: "the filter cleared by Escape", in: console.session) { text in
            DemoScreen(text).statusLine.contains("xyé") ? nil : true
        }
    }

    /// Without the Swift runtime's backtracer (`SWIFT_BACKTRACE=enable=no`) nothing prints a report, and the
    /// console's own handler alone restores the terminal before the signal ends the process.
    @Test func aCrashWithoutTheSwiftBacktracerRestoresTheTerminal() async throws {
        let console = try await ConsoleInTmux.start(seed: 700, environment: "SWIFT_BACKTRACE=enable=no")
        defer { console.stop() }
        #expect(kill(console.pid, SIGILL) == 0)
        let ending = try await console.waitForEnd()
        #expect(ending.status == 128 + SIGILL, "screen:\n\(Poll.ascii(ending.screen))")
        #expect(ending.isRestored, "echo and icanon back: \(ending.terminalFlags.sorted())")
        #expect(!ending.alternateScreen, "the alternate screen left")
        #expect(
            !ending.screen.contains("crashed"), "a backtrace with the backtracer off:\n\(Poll.ascii(ending.screen))")
    }
}
