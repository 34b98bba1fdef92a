import Mischief
import MischiefConsole
import Testing

/// The command lines the event log gives for a change (that they work on a live target is checked end to end, in
/// `BreakpointEndToEndTests`).
@Suite struct ChangeCommandsTests {
    @Test func anApplyGivesItsSpecAndTTLAndQuotesForTheShell() throws {
        let event = Event(
            id: 1, time: .zero, kind: .applied, seam: "l10n.string", source: "console",
            message: #"replace("it's", "x") (seed 7, 8) (ttl 30s)"#)
        let lines = try #require(ChangeCommands.lines(for: event, socket: "/tmp/a b.sock"))
        #expect(
            lines.cli == #"mischief apply l10n.string 'replace("it'\''s", "x")' --ttl '30s' --socket '/tmp/a b.sock'"#)
        #expect(
            lines.curl
                == #"curl --unix-socket '/tmp/a b.sock' -X PUT 'http://localhost/v1/seams/l10n.string?ttl=30s' "#
                + #"-H 'Content-Type: text/plain' --data-binary 'replace("it'\''s", "x")'"#)
    }

    @Test func aRevertAndNoSocketNameTheVariable() throws {
        let event = Event(id: 2, time: .zero, kind: .reverted, seam: "clock.now", message: "shift(1d)")
        let lines = try #require(ChangeCommands.lines(for: event, socket: nil))
        #expect(lines.cli == #"mischief revert clock.now --socket "$MISCHIEF_SOCKET""#)
        #expect(lines.curl == #"curl --unix-socket "$MISCHIEF_SOCKET" -X DELETE 'http://localhost/v1/seams/clock.now'"#)
    }

    @Test func otherEventsAndCodeBuiltBehavioursHaveNone() {
        #expect(
            ChangeCommands.lines(for: Event(id: 3, time: .zero, kind: .report, seam: "a.b", message: "x"), socket: nil)
                == nil)
        #expect(
            ChangeCommands.lines(
                for: Event(id: 4, time: .zero, kind: .applied, seam: "a.b", message: "closure"), socket: nil) == nil)
        #expect(
            ChangeCommands.lines(for: Event(id: 5, time: .zero, kind: .applied, message: "shift(1d)"), socket: nil)
                == nil)
    }

    @Test func yInTheEventLogCopiesTheSelectedChangesCommand() {
        var state = ConsoleFixtures.state()
        _ = ConsoleFixtures.press([.character("e")], &state)
        // The newest line is a report: nothing to copy.
        #expect(ConsoleFixtures.press([.character("y")], &state).isEmpty)
        #expect(state.message?.text.hasPrefix("only an apply or a revert") == true)
        // Three up: the revert of model.user (event 7).
        let commands = ConsoleFixtures.press([.up, .up, .up, .character("y")], &state)
        #expect(commands == [.copy(#"mischief revert model.user --socket "$MISCHIEF_SOCKET""#)])
        #expect(ConsoleFixtures.press([.character("Y")], &state).first.map { "\($0)" }?.contains("-X DELETE") == true)
    }
}
