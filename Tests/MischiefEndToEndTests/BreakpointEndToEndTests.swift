import Foundation
import Mischief
import MischiefConsole
import MischiefTestSupport
import Testing

/// Issue 33 in the built `mischief demo`, driven in tmux as a user would: a pause on `model.user` is a breakpoint
/// whose held call shows its input and returns the value typed for it, which the demo's pane then shows; `U` undoes
/// a typed spec and a profile switch, `Ctrl-R` redoes them; and the command lines the event log gives for a change
/// do it on a live target. Every step waits for what it expects on the screen, never a fixed time.
@Suite(.oneAtATime) struct BreakpointEndToEndTests {
    /// Opens the picker on the selected seam, types `spec` as its spec and applies it.
    static func apply(_ spec: String, in console: ConsoleInTmux) async throws {
        let (tmux, session) = (console.tmux, console.session)
        try tmux.send(session, keys: "Enter")
        _ = try await tmux.wait(for: "the picker open", in: session) { text in
            DemoScreen(text).statusLine.contains("edit spec") ? true : nil
        }
        try tmux.send(session, keys: "Enter")
        _ = try await tmux.wait(for: "the spec editor open", in: session) { text in
            DemoScreen(text).statusLine.contains("apply") ? true : nil
        }
        try tmux.send(session, keys: "C-u")
        try tmux.send(session, keys: "-l", spec)
        try tmux.send(session, keys: "Enter")
    }

    @Test(arguments: [(200, 60), (80, 24)])
    func aBreakpointOnTheUserModelShowsTheHeldInputAndReturnsTheValueTyped(width: Int, height: Int) async throws {
        let console = try await ConsoleInTmux.start(seed: 7, width: width, height: height)
        defer { console.stop() }
        let (tmux, session) = (console.tmux, console.session)
        if height >= 60 { #expect(tmux.screen(session).contains("Ada Lovelace"), "the demo's pane shows its user") }

        // Select model.user: filter by its title (the decoding seam is listed first), then the last row.
        try tmux.send(session, keys: "/")
        try tmux.send(session, keys: "-l", "User profile")
        try tmux.send(session, keys: "Enter", "G")
        _ = try await tmux.wait(for: "model.user selected", in: session) { text in
            text.contains("─ model.user ─") ? true : nil
        }
        try await Self.apply("pause(1h)", in: console)

        // The demo's next call is held: the row says so and the detail shows its input, the user as JSON.
        func userRow(_ text: String) -> String {
            DemoScreen(text).seamRows.first { $0.title == "User profile" }?.status ?? "?"
        }
        let held = try await tmux.wait(for: "a held call with its input", in: session) { text in
            userRow(text) == "held" && text.contains("held {") ? text : nil
        }
        // One member a line, the date as people read it (it was `"joined":721692800`, seconds since 2001); a short
        // pane shows where it starts, and scrolls.
        for member in height >= 60 ? [#""age": 36,"#, #""joined": "2023-11-14T22:13:20Z","#] : [] {
            #expect(held.contains(member), "\(member) in the held input:\n\(held)")
        }

        // o asks what it returns, starting from `return(` and the input; the user types the same user with another
        // name (the input as the console shows it, whole at 200 columns).
        try tmux.send(session, keys: "o")
        _ = try await tmux.wait(for: "the answer field", in: session) { text in
            DemoScreen(text).statusLine.contains("model.user returns:") ? true : nil
        }
        try tmux.send(session, keys: "C-u")
        try tmux.send(
            session, keys: "-l",
            "return(\(Self.demoUser.replacingOccurrences(of: "Ada Lovelace", with: "Grace Hopper")))")
        try tmux.send(session, keys: "Enter")
        if height < 60 {
            // The profile card is at the bottom of the demo's pane: focus the pane (list, detail, target) and go there.
            try tmux.send(session, keys: "Tab", "Tab", "G")
        } else {
            #expect(held.contains(#""name": "Ada Lovelace","#), "\(held)")
        }
        // The card's line is the name and the nickname: the answer reached the demo, not only the status line.
        _ = try await tmux.wait(for: "the demo's pane to show the answer", in: session) { text in
            text.contains("Grace Hopper (Ada)") ? true : nil
        }

        // The next call is held again; c lets it and the rest run: the demo shows its own user again.
        _ = try await tmux.wait(for: "the next call held", in: session) { text in
            userRow(text) == "held" ? true : nil
        }
        try tmux.send(session, keys: "c")
        _ = try await tmux.wait(for: "the pause reverted and the user back", in: session) { text in
            userRow(text) == "reverted" && text.contains("Ada Lovelace (Ada)") ? text : nil
        }
    }

    /// The demo's user as a held call's input holds it (`HeldCall.readable`: compact JSON, sorted keys, dates in ISO
    /// 8601; the console lays it out a member a line), which `return(…)` decodes back.
    static let demoUser =
        #"{"age":36,"email":"ada@example.com","id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","#
        + #""joined":"2023-11-14T22:13:20Z","#
        + #""name":"Ada Lovelace","nickname":"Ada","plan":"family","premium":true,"tags":["maths","engines","poetry"]}"#

    @Test func uUndoesATypedSpecAndAProfileSwitchAndCtrlRRedoesThem() async throws {
        let console = try await ConsoleInTmux.start(seed: 7, width: 80, height: 24)
        defer { console.stop() }
        let (tmux, session) = (console.tmux, console.session)
        func row(_ text: String) -> String {
            DemoScreen(text).seamRows.first { $0.title == "Current time" }?.status ?? "?"
        }

        // Current time (clock.now) is selected: a typed spec, then profile 1 (Tomorrow) on.
        try await Self.apply("shift(+3h)", in: console)
        _ = try await tmux.wait(for: "shift(+3h) applied", in: session) { text in
            row(text) == "active" && text.contains("shift(+3h)") ? true : nil
        }
        try tmux.send(session, keys: "1")
        _ = try await tmux.wait(for: "Tomorrow on", in: session) { text in
            DemoScreen(text).profile(1, "Tomorrow") == true ? true : nil
        }

        // U: the switch, then the spec; each says what it undid.
        try tmux.send(session, keys: "U")
        _ = try await tmux.wait(for: "the switch undone", in: session) { text in
            let screen = DemoScreen(text)
            return screen.profile(1, "Tomorrow") == false && screen.statusLine.contains("undid switch profile")
                ? true : nil
        }
        try tmux.send(session, keys: "U")
        _ = try await tmux.wait(for: "the spec undone", in: session) { text in
            row(text) != "active" && DemoScreen(text).statusLine.contains("undid apply clock.now") ? true : nil
        }

        // Ctrl-R: the spec again, then the switch.
        try tmux.send(session, keys: "C-r")
        _ = try await tmux.wait(for: "the spec redone", in: session) { text in
            row(text) == "active" && DemoScreen(text).statusLine.contains("redid apply clock.now") ? true : nil
        }
        try tmux.send(session, keys: "C-r")
        _ = try await tmux.wait(for: "the switch redone", in: session) { text in
            DemoScreen(text).profile(1, "Tomorrow") == true ? true : nil
        }
        try tmux.send(session, keys: "C-r")
        _ = try await tmux.wait(for: "nothing more to redo", in: session) { text in
            DemoScreen(text).statusLine.contains("nothing to redo") ? true : nil
        }
    }

    @Test func mischiefReleaseAnswersAHeldCallOfAHeadlessDemo() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        #expect(try demo.mischief(["apply", "model.user", "pause(1h)", "--socket", demo.socket]).status == 0)
        _ = try await Poll.until("a call held on model.user", timeout: .seconds(60), lastSeen: { "" }) {
            (try demo.seam("model.user")["held"] as? Int ?? 0) > 0 ? true : nil
        }
        let input = try #require(
            (try demo.seam("model.user")["heldCalls"] as? [[String: Any]])?.first?["input"] as? String)
        #expect(input == Self.demoUser)
        let answer = "return(\(input.replacingOccurrences(of: "Ada Lovelace", with: "Grace Hopper")))"
        let answered = try demo.mischief(["release", "model.user", "--return", answer, "--socket", demo.socket])
        #expect(answered.status == 0, "\(answered.error)")
        #expect(answered.output.hasPrefix("model.user: released 1 held call answering return("), "\(answered.output)")
        let bad = try demo.mischief(["release", "model.user", "--return", "return(1)", "--socket", demo.socket])
        #expect(bad.status != 0 && bad.error.contains("return(…) needs JSON for DemoUser"), "\(bad.error)")
        let rest = try demo.mischief(["release", "model.user", "--continue", "--socket", demo.socket])
        #expect(rest.status == 0 && rest.output.contains("the pause is reverted"), "\(rest.output) \(rest.error)")
        #expect(try demo.behaviour(of: "model.user") == nil)
    }

    @Test func theCommandLinesOfAChangeDoItOnALiveTarget() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let applied = Event(id: 1, time: .zero, kind: .applied, seam: "clock.now", message: "shift(+3h) (ttl 10m)")
        let reverted = Event(id: 2, time: .zero, kind: .reverted, seam: "clock.now", message: "shift(+3h)")
        let apply = try #require(ChangeCommands.lines(for: applied, socket: demo.socket))
        let revert = try #require(ChangeCommands.lines(for: reverted, socket: demo.socket))
        #expect(apply.cli == "mischief apply clock.now 'shift(+3h)' --ttl '10m' --socket '\(demo.socket)'")

        // Each line as the console copies it, run by a shell (`mischief` the built one).
        func run(_ line: String) throws -> ChildProcess.Result {
            let shell = line.hasPrefix("mischief ") ? CLI.binary.path + line.dropFirst("mischief".count) : line
            return try ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", shell],
                environment: HeadlessDemo.environment(in: demo.directory))
        }
        for (line, behaviour) in [
            (apply.cli, "shift(3h)"), (revert.cli, nil), (apply.curl, "shift(3h)"), (revert.curl, nil),
        ] {
            let result = try run(line)
            #expect(result.status == 0, "\(line): \(result.output) \(result.error)")
            #expect(try demo.behaviour(of: "clock.now") == behaviour, "after \(line): \(result.output)")
            guard behaviour != nil else { continue }
            let layers = (try demo.get("seams/clock.now") as? [String: Any])?["layers"] as? [[String: Any]] ?? []
            #expect(layers.contains { $0["ttl"] as? Double == 600 }, "the ttl went with \(line): \(layers)")
        }
    }
}
