import Foundation
import MischiefTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension PresetEndToEndTests {
    /// One `mischief demo --seed 7` in a tmux server of its own, with its own config directory.
    final class Run {
        let tmux: TmuxServer
        let session = "presets"
        let setup: Setup
        let directory: URL
        /// The demo's process id, from its first screen.
        private var pid: Int32?

        /// Starts the demo under `setup`'s `TERM` and size; when it ends, the pane says so and stays.
        init(_ setup: Setup) throws {
            self.setup = setup
            tmux = try TmuxServer()
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-e2e-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let script = """
                cd '\(directory.path)' && export TERM=\(setup.term) XDG_CONFIG_HOME='\(directory.path)' \
                && '\(CLI.binary.path)' demo --seed 7; echo "mischief exited with status $?"; sleep 3600
                """
            try tmux.start(session: session, width: setup.width, height: setup.height, command: ["sh", "-c", script])
        }

        /// Ends the tmux server and the demo, and removes the directory.
        func end() {
            tmux.kill()
            try? FileManager.default.removeItem(at: directory)
        }

        /// Waits until the screen is intact (see ``intact(_:)``) and `probe` finds what it looks for, then checks the
        /// demo is still running; fails at once when the demo has ended.
        func waitIntact(_ what: String, probe: (DemoScreen) -> Bool) async throws {
            try await wait(what) { Self.intact($0, setup) && probe($0) }
        }

        /// Waits for the help screen (F1).
        func waitForHelp() async throws {
            try await wait("the help screen (F1)") { $0.row(0).contains("Keys · theme") }
        }

        private func wait(_ what: String, until probe: (DemoScreen) -> Bool) async throws {
            var last = ""
            try await Poll.until("\(what) [\(setup.testDescription)]", lastSeen: { last }) { () -> Bool? in
                last = tmux.screen(session)
                let screen = DemoScreen(last)
                if last.contains("mischief exited") || last.contains("Fatal error") {
                    throw Poll.Failure(description: "the demo ended waiting for \(what):\n" + Poll.ascii(last))
                }
                if pid == nil {
                    pid = screen.pid
                }
                return probe(screen) ? true : nil
            }
            if let pid, kill(pid, 0) != 0 {
                throw Poll.Failure(description: "the demo (pid \(pid)) is gone after \(what):\n" + Poll.ascii(last))
            }
        }

        /// Pieces of escape sequences that would show if a key's bytes leaked onto the screen.
        static let leaks = ["^[", "[1~", "[4~", "[200~", "1;5H", "[[A", "[27;5"]

        /// Whether the main screen is whole: as many rows as the terminal, the header, the seam list's top border,
        /// the Profiles bar below (one or more rows), every row between them framed at both edges (a row drawn wider
        /// or narrower than the terminal moves or loses its right border), a status line, and no stray pieces of
        /// escape sequences.
        static func intact(_ screen: DemoScreen, _ setup: Setup) -> Bool {
            guard screen.lines.count == setup.height, !leaks.contains(where: screen.text.contains),
                screen.row(0).hasPrefix(" Mischief · mischief demo"),
                let top = screen.lines.firstIndex(where: { $0.hasPrefix("┌─ Seams") || $0.hasPrefix("┌─ ▶ Seams") }),
                let bar = screen.lines.firstIndex(where: { $0.hasPrefix(" Profiles") }), top < bar,
                bar + 1 <= screen.lines.count - 1, !screen.row(screen.lines.count - 1).allSatisfy(\.isWhitespace)
            else { return false }
            return screen.lines[top..<bar].allSatisfy { line in
                guard let first = line.first, let last = line.last else { return false }
                return "│┌└".contains(first) && "│┐┘".contains(last)
            }
        }
    }
}
