import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The mouse in `mischief demo`, in tmux: the console asks the terminal to report the mouse (or, with `--no-mouse`,
/// leaves it alone), and reacts to the SGR reports a terminal sends (typed into the pane as those bytes).
@Suite(.oneAtATime) struct MouseEndToEndTests {
    /// The bytes of an SGR mouse report (`ESC [ < button ; column ; row M|m`, 1-based) as `send-keys -H` arguments.
    static func report(button: Int, x: Int, y: Int, release: Bool = false) -> [String] {
        let text = "\u{1B}[<\(button);\(x + 1);\(y + 1)" + (release ? "m" : "M")
        return ["-H"] + text.utf8.map { String($0, radix: 16) }
    }

    /// A left click (press and release) at a 0-based cell.
    static func click(x: Int, y: Int) -> [String] {
        report(button: 0, x: x, y: y) + Array(report(button: 0, x: x, y: y, release: true).dropFirst())
    }

    /// tmux's view of the pane's mouse modes: whether the program asked for mouse reports, in SGR form.
    static func mouseModes(_ console: ConsoleInTmux) throws -> String {
        try console.tmux.run(["display-message", "-p", "-t", console.session, "#{mouse_any_flag}#{mouse_sgr_flag}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The 0-based row of the first screen line containing `text`.
    static func row(of text: String, _ console: ConsoleInTmux) throws -> Int {
        try #require(DemoScreen(console.tmux.screen(console.session)).lines.firstIndex { $0.contains(text) })
    }

    @Test func clicksSelectSeamsAndProfilesTheWheelScrollsADoubleClickOpensThePicker() async throws {
        let console = try await ConsoleInTmux.start(seed: 12, width: 120, height: 40)
        defer { console.stop() }
        let tmux = console.tmux
        let session = console.session
        #expect(try Self.mouseModes(console) == "11")
        try tmux.send(session, keys: Self.click(x: 10, y: try Self.row(of: "Current location", console)))
        _ = try await tmux.wait(for: "location.current selected", in: session) { text in
            text.contains("┌─ location.current ") ? true : nil
        }
        // The wheel moves the selection three lines down: past the Localisation heading to the models.
        try tmux.send(session, keys: Self.report(button: 65, x: 10, y: 10))
        _ = try await tmux.wait(for: "the wheel to move the selection", in: session) { text in
            text.contains("┌─ model.user") ? true : nil
        }
        // A click on the bar switches the profile under it.
        let bar = try Self.row(of: "2 ○Tokyo", console)
        let line = DemoScreen(tmux.screen(session)).row(bar)
        let x = try #require(line.firstRange(of: "○Tokyo")).lowerBound.utf16Offset(in: line)
        try tmux.send(session, keys: Self.click(x: x + 1, y: bar))
        _ = try await tmux.wait(for: "Tokyo switched on by a click", in: session) { text in
            DemoScreen(text).profile(2, "Tokyo") == true ? true : nil
        }
        let clock = try Self.row(of: "Current time", console)
        try tmux.send(session, keys: Self.click(x: 10, y: clock) + Array(Self.click(x: 10, y: clock).dropFirst()))
        _ = try await tmux.wait(for: "the picker opened by a double click", in: session) { text in
            text.contains("Apply to clock.now") ? true : nil
        }
    }

    @Test func noMouseLeavesTheMouseToTheTerminal() async throws {
        let console = try await ConsoleInTmux.start(seed: 12, width: 120, height: 40, options: "--no-mouse")
        defer { console.stop() }
        #expect(try Self.mouseModes(console) == "00")
        // Were a report to arrive anyway, it selects nothing and switches no profile. A press and its release, each
        // on its own: ncurses takes `ESC [ <` for its mouse key even with the mouse off, and the digits of one report
        // (its row, 8 here) would switch a preset, which the other report would switch back.
        let row = try Self.row(of: "Current location", console)
        for (report, name) in [
            (Self.report(button: 0, x: 10, y: row), "press"),
            (Self.report(button: 0, x: 10, y: row, release: true), "release"),
        ] {
            try console.tmux.send(console.session, keys: report)
            try await console.waitForDrawing("after a \(name) it did not ask for")
            let screen = DemoScreen(console.tmux.screen(console.session))
            #expect(screen.text.contains("┌─ clock.now "), "after the \(name)")
            #expect(screen.row(1).contains("profiles none"), "after the \(name)")
        }
    }
}

/// A crash does not leave the terminal reporting the mouse (the shell would get the reports as text).
@Suite(.oneAtATime) struct MouseCrashEndToEndTests {
    @Test func aCrashTurnsMouseReportingOff() async throws {
        let console = try await ConsoleInTmux.start(seed: 13, width: 120, height: 40)
        defer { console.stop() }
        #expect(try MouseEndToEndTests.mouseModes(console) == "11")
        #expect(kill(console.pid, SIGSEGV) == 0)
        let ending = try await console.waitForEnd()
        #expect(ending.status == 128 + SIGSEGV)
        #expect(try MouseEndToEndTests.mouseModes(console) == "00")
    }
}
