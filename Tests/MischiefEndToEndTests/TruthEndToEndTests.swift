import Foundation
import MischiefTestSupport
import Testing

/// The built `mischief demo` in tmux tells the truth about what it changes (issue 27): every preset visibly changes
/// the demo's own pane, and two presets on one seam are both shown, with their sources, and a copy says what it
/// leaves out.
@Suite(.oneAtATime) struct TruthEndToEndTests {
    typealias Run = PresetEndToEndTests.Run

    static let setup = PresetEndToEndTests.Setup(term: "xterm-256color", width: 120, height: 40)

    /// The demo's own pane: each row's text right of the last `││` (the target pane is the rightmost), trimmed.
    static func pane(_ screen: DemoScreen) -> [String] {
        screen.lines.compactMap { line in
            guard let range = line.range(of: "││", options: .backwards) else { return nil }
            return String(line[range.upperBound...].dropLast()).trimmingCharacters(in: .whitespaces)
        }
    }

    /// The `count` pane rows after the one that starts with `title`.
    static func section(_ title: String, rows count: Int, of screen: DemoScreen) -> [String] {
        let rows = pane(screen)
        guard let start = rows.firstIndex(where: { $0.hasPrefix(title) }) else { return [] }
        return Array(rows[(start + 1)...].prefix(count))
    }

    /// Whether a row of the demo's pane contains `text`.
    static func paneShows(_ text: String, _ screen: DemoScreen) -> Bool { pane(screen).contains { $0.contains(text) } }

    /// The date the demo's pane says it is (`today is 2026-11-26 …`), and the wall date in the header.
    static func dates(_ screen: DemoScreen) -> (pane: String, wall: String)? {
        guard let line = pane(screen).first(where: { $0.hasPrefix("today is ") }),
            let wall = screen.row(1).range(of: "wall ")
        else { return nil }
        return (String(line.dropFirst(9).prefix(10)), String(screen.row(1)[wall.upperBound...].prefix(10)))
    }

    @Test func everyPresetVisiblyChangesTheDemosPane() async throws {
        let run = try Run(Self.setup)
        defer { run.end() }
        var baseline = DemoScreen("")
        try await run.waitIntact("the demo's first screen, the weather asked") { screen in
            baseline = screen
            return !Self.section("☂ Weather here", rows: 2, of: screen).joined().contains("asking")
                && Self.dates(screen) != nil
        }
        let weather = Self.section("☂ Weather here", rows: 2, of: baseline)
        let greeting = Self.section("✉ Greeting", rows: 4, of: baseline)
        let card = Self.section("☺ Profile card", rows: 4, of: baseline)
        let checks: [(Int, String, (DemoScreen) -> Bool)] = [
            (1, "the pane's date a day after the wall's", { Self.dates($0).map { $0.pane != $0.wall } ?? false }),
            (2, "the weather in Tokyo", { Self.paneShows("Tokyo, Japan", $0) }),
            (3, "the greeting longer", { Self.section("✉ Greeting", rows: 4, of: $0) != greeting }),
            (4, "the greeting's bidi controls as marks", { Self.paneShows("⟨RLO⟩", $0) }),
            (5, "another weather answer", { Self.section("☂ Weather here", rows: 2, of: $0) != weather }),
            (6, "the profile card's fields changed", { Self.section("☺ Profile card", rows: 4, of: $0) != card }),
            (7, "the date in 2038", { Self.paneShows("today is 2038-01-19", $0) }),
            (8, "the time standing still", { Self.paneShows("⏸ time stands still", $0) }),
        ]
        for (key, what, check) in checks {
            try run.tmux.send(run.session, keys: [String(key)])
            try await run.waitIntact("preset \(key) on: \(what)") { check($0) }
            try run.tmux.send(run.session, keys: [String(key)])
            try await run.waitIntact("preset \(key) off") { $0.row(1).contains("profiles none") }
        }
    }

    @Test func twoPresetsOnOneSeamAreBothShownWithTheirSources() async throws {
        let run = try Run(Self.setup)
        defer { run.end() }
        try await run.waitIntact("the demo's first screen") { $0.countdownDays != nil }
        // German-length UI, then Right-to-left on top, both on l10n.string; the list's third seam.
        try run.tmux.send(run.session, keys: ["3", "4", "j", "j"])
        try await run.waitIntact("both layers in the row and the detail") { screen in
            // The list's row (left of the panes), not the detail's title, which names the seam too.
            let row =
                screen.lines.map { $0.split(separator: "│", omittingEmptySubsequences: false) }
                .first { $0.count > 1 && $0[1].contains("Localised strings") }?[1] ?? ""
            let text = screen.text
            return row.contains(" +1") && text.contains("Layers  top first")
                && text.contains("● answers  profile Right-to-left")
                && text.contains("○ underneath  profile German-length UI")
        }
        try run.tmux.send(run.session, keys: ["y"])
        try await run.waitIntact("the copy saying what it leaves out") {
            $0.statusLine.contains("left out 1 layer underneath (on l10n.string)")
        }
    }
}
