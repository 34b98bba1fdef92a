import Foundation
import MischiefTestSupport
import Testing

/// The built `mischief demo` in tmux: the Right-to-left preset's bidirectional controls show in the demo pane as
/// marks (`⟨RLM⟩⟨RLO⟩Welcome…`), `I` hides them and shows them again, and the screen stays whole throughout.
/// Before, the console dropped the controls and preset 4 changed nothing visible.
@Suite(.serialized, .oneAtATime) struct InvisibleMarksEndToEndTests {
    static let setup = PresetEndToEndTests.Setup(term: "xterm-256color", width: 120, height: 40)

    @Test func rightToLeftShowsItsMarksAndIHidesThem() async throws {
        let run = try PresetEndToEndTests.Run(Self.setup)
        defer { run.end() }
        try await run.waitIntact("the demo's first screen") { $0.countdownDays != nil && $0.text.contains("Welcome") }
        try run.tmux.send(run.session, keys: ["4"])
        try await run.waitIntact("preset 4 on, its marks in the demo pane") {
            $0.statusLine.contains("profile Right-to-left switched on") && $0.text.contains("⟨RLM⟩⟨RLO⟩Welcome")
        }
        try run.tmux.send(run.session, keys: ["I"])
        try await run.waitIntact("the marks hidden") {
            $0.statusLine.contains("invisible characters hidden") && !$0.text.contains("⟨RLO⟩")
                && $0.text.contains("Welcome")
        }
        try run.tmux.send(run.session, keys: ["I"])
        try await run.waitIntact("the marks shown again") { $0.text.contains("⟨RLO⟩Welcome") }
        try run.tmux.send(run.session, keys: ["4"])
        try await run.waitIntact("preset 4 off, no mark left") {
            $0.statusLine.contains("profile Right-to-left switched off") && !$0.text.contains("⟨RLO⟩")
        }
    }
}
