import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `mischief demo --seed 7` in tmux, under `TERM=xterm-256color` and `tmux-256color`, at 80×24 and 120×40:
/// each of the demo's presets alone and then all together, with every pane scrolled to its end and back; then Home,
/// End, Insert, Delete, PgUp/PgDn, F-keys, Alt-digits and unknown sequences in the encodings terminals use, typed as
/// raw bytes. After each step the demo is alive, its frame intact, and no key switched a preset it should not have.
///
/// Presets 4 and 6 used to end the console (SIGILL) once their text was on screen, and tmux's Home and End
/// (`ESC [ 1 ~`, `ESC [ 4 ~`) switched presets 1 and 4. Every step waits for what it expects on the screen.
@Suite(.oneAtATime) struct PresetEndToEndTests {
    /// One terminal: its `TERM` and size.
    struct Setup: Sendable, CustomTestStringConvertible {
        let term: String
        let width: Int
        let height: Int
        var testDescription: String { "\(term) \(width)x\(height)" }
    }

    static let setups = [
        Setup(term: "xterm-256color", width: 80, height: 24), Setup(term: "xterm-256color", width: 120, height: 40),
        Setup(term: "tmux-256color", width: 80, height: 24), Setup(term: "tmux-256color", width: 120, height: 40),
    ]
    /// The demo's presets: key and name.
    static let presets = [
        (1, "Tomorrow"), (2, "Tokyo"), (3, "German-length UI"), (4, "Right-to-left"), (5, "Flaky network"),
        (6, "Garbage models"), (7, "Year 2038"), (8, "Frozen time"),
    ]
    /// Every pane scrolled to its end (End in each, Tab to the next), and focus back on the list.
    static let toEnds = ["End", "Tab", "End", "Tab", "End", "Tab"]
    /// Every pane scrolled to its top.
    static let toTops = ["Home", "Tab", "Home", "Tab", "Home", "Tab"]

    @Test(arguments: setups) func everyPresetAloneAndTogether(_ setup: Setup) async throws {
        let run = try Run(setup)
        defer { run.end() }
        try await run.waitIntact("the demo's first screen") { $0.countdownDays != nil }
        for (key, name) in Self.presets {
            try run.tmux.send(run.session, keys: [String(key)] + Self.toEnds)
            try await run.waitIntact("preset \(key) (\(name)) on, every pane at its end") {
                $0.statusLine.contains("profile \(name) switched") && $0.row(1).contains("profiles ")
                    && !$0.row(1).contains("profiles none") && Self.atEnds($0)
            }
            try run.tmux.send(run.session, keys: [String(key)] + Self.toTops)
            try await run.waitIntact("preset \(key) (\(name)) off, every pane at its top") {
                $0.row(1).contains("profiles none") && Self.atTops($0)
            }
        }
        // Esc clears the last message, so the next one is new.
        try run.tmux.send(run.session, keys: ["Escape"])
        try await run.waitIntact("the message cleared") { !$0.statusLine.contains("switched") }
        try run.tmux.send(run.session, keys: Self.presets.map { String($0.0) } + Self.toEnds)
        try await run.waitIntact("every preset on, every pane at its end") {
            $0.statusLine.contains("profile Frozen time switched") && Self.everyPresetOn($0) && Self.atEnds($0)
        }
        try run.tmux.send(run.session, keys: Self.presets.map { String($0.0) } + Self.toTops)
        try await run.waitIntact("every preset off again") { $0.row(1).contains("profiles none") && Self.atTops($0) }
    }

    /// The sequence a review reported ending the demo with SIGILL at 120×40 (issue 11), with tmux's own key names:
    /// Home and End first with no preset on, every preset, the target pane paged down and to its end, then the event
    /// log focused and moved. The demo stays alive and every preset stays on.
    @Test(arguments: setups) func reportedSequenceKeepsTheDemoAlive(_ setup: Setup) async throws {
        let run = try Run(setup)
        defer { run.end() }
        try await run.waitIntact("the demo's first screen") { $0.countdownDays != nil }
        try run.tmux.send(run.session, keys: ["Home", "End"] + Self.presets.map { String($0.0) })
        try await run.waitIntact("every preset on") { $0.statusLine.contains("profile Frozen time switched") }
        try run.tmux.send(run.session, keys: ["Tab", "Tab", "NPage", "NPage", "NPage", "End", "Tab", "j", "k"])
        try run.tmux.send(run.session, keys: ["?"])
        try await run.waitForHelp()
        try run.tmux.send(run.session, keys: ["Escape"])
        try await run.waitIntact("the main screen, every preset still on") { Self.everyPresetOn($0) }
    }

    /// Navigation keys, Alt-digits and unknown sequences (a stray end of paste among them: `ESC [ 200 ~` starts a
    /// paste, whose text is never keys; PasteEndToEndTests), then F1 (help opens: everything before it was read); then
    /// F2–F12 and F1 in other encodings. Not one of them may switch a preset.
    @Test(arguments: setups) func keysInEveryEncodingSwitchNoPreset(_ setup: Setup) async throws {
        let run = try Run(setup)
        defer { run.end() }
        try await run.waitIntact("the demo's first screen") { $0.countdownDays != nil }
        let esc = "\u{1B}"
        let navigation = [
            "[1~", "[4~", "[7~", "[8~", "[H", "[F", "OH", "OF", "[2~", "[3~", "[5~", "[6~", "[1;5H", "[1;2F", "[4;5~",
            "[201~", "[27;5;49~", "[49;5u", "[?1;2c", "[<0;1;1M", "[1$y", "Oz", "1", "2", "3", "4", "5", "6", "7", "8",
        ]
        try run.tmux.send(run.session, keys: ["Home", "End", "IC", "DC", "PPage", "NPage", "M-1", "M-4", "M-6", "F5"])
        try run.tmux.send(run.session, keys: Self.hex(navigation.map { esc + $0 }.joined() + esc + "OP"))
        try await run.waitForHelp()
        try run.tmux.send(run.session, keys: ["Escape"])
        try await run.waitIntact("the main screen again, no preset on") { $0.row(1).contains("profiles none") }
        let functionKeys = [
            "OQ", "OR", "OS", "[15~", "[17~", "[18~", "[19~", "[20~", "[21~", "[23~", "[24~", "[[B", "[[C", "[[D",
            "[[E",
            "[12~", "[13~", "[14~", "[1;2Q", "[15;5~",
        ]
        try run.tmux.send(run.session, keys: Self.hex(functionKeys.map { esc + $0 }.joined() + esc + "[[A"))
        try await run.waitForHelp()
        try run.tmux.send(run.session, keys: ["Escape"])
        try await run.waitIntact("the main screen again, still no preset on") { $0.row(1).contains("profiles none") }
    }

    /// Whether the Profiles bar shows every preset on (`1 ●Tomorrow` …). Not the header's `profiles …` list: at 80
    /// columns its tail is cut once frozen time has drifted from the wall clock and the offset grows (CI, 2026-11-24).
    static func everyPresetOn(_ screen: DemoScreen) -> Bool {
        presets.allSatisfy { key, name in screen.profile(key, name) == true }
    }

    /// Whether the list, the detail and the target pane are scrolled to their ends: the last seam is selected, the
    /// detail is scrolled down (its up arrow shows; new events may have come in below since), and the target's last
    /// panel (the profile card) is at the bottom.
    static func atEnds(_ screen: DemoScreen) -> Bool {
        pane(titled: "net.request", in: screen) && (screen.text.contains("↑ ─┘") || screen.text.contains("↑↓─┘"))
            && (screen.text.contains("member since") || screen.text.contains("cannot read the profile"))
    }

    /// Whether the panes are at their tops: the first seam selected, the detail's down arrow, Halley's Comet.
    static func atTops(_ screen: DemoScreen) -> Bool {
        pane(titled: "clock.now", in: screen) && screen.text.contains(" ↓─┘") && screen.text.contains("Halley's Comet")
    }

    /// Whether a pane titled `title` shows, focused (`▶`) or not.
    static func pane(titled title: String, in screen: DemoScreen) -> Bool {
        screen.text.contains("┌─ \(title) ") || screen.text.contains("┌─ ▶ \(title) ")
    }

    /// `text`'s bytes as `send-keys -H` arguments.
    static func hex(_ text: String) -> [String] {
        ["-H"] + text.utf8.map { String($0, radix: 16) }
    }
}
