import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mischief demo` on a tmux server of its own (UTF-8, 120×40), run by a shell that records how it ended: its exit
/// status in `status` and the terminal's modes (`stty -a`) in `stty.txt`, in a temporary directory that is also the
/// demo's working directory and config home.
///
/// With `jobControl`, the shell is an interactive bash (job control on, as in a user's terminal) and the demo is
/// typed at its prompt, so SIGTSTP stops it as Ctrl-Z would and `fg` brings it back.
final class ConsoleInTmux {
    let tmux: TmuxServer
    let directory: URL
    let session = "console"
    /// The demo's process id, read off its header (0 when started without waiting for it).
    private(set) var pid: Int32 = 0

    /// How the demo ended.
    struct Ending {
        /// The shell's `$?`: the exit status, or 128 + the signal that ended it.
        let status: Int32
        /// The flags `stty -a` printed afterwards.
        let terminalFlags: Set<String>
        /// Whether the pane was still on the alternate screen.
        let alternateScreen: Bool
        /// The pane's screen when it had ended.
        let screen: String

        /// Whether the terminal is back in the shell's modes: echo and canonical input on.
        var isRestored: Bool {
            terminalFlags.isSuperset(of: ["echo", "icanon"]) && terminalFlags.isDisjoint(with: ["-echo", "-icanon"])
        }
    }

    /// The shell command that records how the demo ended (after it, or typed after `fg`).
    static let record = "echo $? > status.part; stty -a > stty.txt; mv status.part status"

    private init(tmux: TmuxServer, directory: URL) {
        self.tmux = tmux
        self.directory = directory
    }

    /// Starts the demo (`binary`, by default the built one) on a `width`×`height` pane and waits for its first screen
    /// (unless `waitForFirstScreen` is false: a demo set to end by itself may end before a loaded machine reads it).
    static func start(
        seed: Int, jobControl: Bool = false, binary: URL = CLI.binary, width: Int = 120, height: Int = 40,
        options: String = "", environment: String = "", waitForFirstScreen: Bool = true
    ) async throws -> ConsoleInTmux {
        let console = ConsoleInTmux(tmux: try TmuxServer(), directory: try HeadlessDemo.makeDirectory())
        do {
            try console.launch(
                seed: seed, jobControl: jobControl, binary: binary, size: (width, height), options: options,
                environment: environment)
            if waitForFirstScreen { try await console.waitForFirstScreen() }
            return console
        } catch {
            console.stop()
            throw error
        }
    }

    private func launch(
        seed: Int, jobControl: Bool, binary: URL, size: (Int, Int), options: String, environment: String
    ) throws {
        let demo =
            (environment.isEmpty ? "" : "env \(environment) ") + "\(Self.quoted(binary.path)) demo --seed \(seed)"
            + (options.isEmpty ? "" : " " + options)
        let setUp = "cd \(Self.quoted(directory.path)) && export TERM=xterm-256color XDG_CONFIG_HOME=."
        if jobControl {
            try tmux.start(
                session: session, width: size.0, height: size.1,
                command: ["sh", "-c", "\(setUp) PS1='$ ' && exec bash --norc --noprofile -i"])
            try type("\(demo); \(Self.record)")
        } else {
            // The shell stays, and so the tmux server, until stop(): a test starved of its threads on a loaded machine
            // may read the ending a minute late (CI: with `sleep 60` the server had gone, "no server running").
            let script = "\(setUp) && \(demo); \(Self.record); sleep 3600"
            try tmux.start(session: session, width: size.0, height: size.1, command: ["sh", "-c", script])
        }
    }

    /// Types `line` and Enter at the pane's shell.
    func type(_ line: String) throws {
        try tmux.send(session, keys: "-l", line)
        try tmux.send(session, keys: "Enter")
    }

    /// Waits for the demo's screen with its countdown and pid, and checks the pid is a `mischief` process.
    private func waitForFirstScreen() async throws {
        pid = try await tmux.wait(for: "the demo's first screen with its pid", in: session) { text in
            let screen = DemoScreen(text)
            return screen.countdownDays != nil ? screen.pid : nil
        }
        let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
        if FileManager.default.fileExists(atPath: "/proc/self/comm") {
            try #require(name == "mischief\n", "pid \(pid) from the header is not the demo (it is \(name ?? "gone"))")
        }
    }

    /// Waits until the console draws a new frame with more calls to the demo's clock than now: it is alive, on the
    /// alternate screen, and drawing.
    func waitForDrawing(_ what: String) async throws {
        let before = DemoScreen(tmux.screen(session)).calls(of: "Current time") ?? 0
        _ = try await tmux.wait(for: "the console to go on drawing \(what)", in: session) { text in
            (DemoScreen(text).calls(of: "Current time") ?? 0) > before ? true : nil
        }
        #expect(try tmux.isAlternateScreenOn(session), "the console's alternate screen \(what)")
    }

    /// Waits for the demo to end (answering the Swift backtracer's "Press space to interact" prompt with `q`), and
    /// returns how it ended.
    func waitForEnd(timeout: Duration = .seconds(60)) async throws -> Ending {
        let statusFile = directory.appendingPathComponent("status")
        var answered = false
        let lastSeen = { self.tmux.screen(self.session) }
        let status = try await Poll.until("the demo to end", timeout: timeout, lastSeen: lastSeen) { () -> Int32? in
            if let text = try? String(contentsOf: statusFile, encoding: .utf8) {
                return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if !answered, tmux.screen(session).contains("Press space to interact") {
                try tmux.send(session, keys: "q")
                answered = true
            }
            return nil
        }
        let stty = (try? String(contentsOf: directory.appendingPathComponent("stty.txt"), encoding: .utf8)) ?? ""
        return Ending(
            status: status, terminalFlags: Set(stty.split(whereSeparator: \.isWhitespace).map(String.init)),
            alternateScreen: try tmux.isAlternateScreenOn(session), screen: tmux.screen(session))
    }

    /// Waits for the shell to record a status, and removes it: when a job shell's job stops, the shell goes on with
    /// the rest of the command line, so the status recorded then is 128 + the stopping signal.
    func takeStatus() async throws -> Int32 {
        let statusFile = directory.appendingPathComponent("status")
        let text = try await Poll.file(statusFile) { tmux.screen(session) }
        try FileManager.default.removeItem(at: statusFile)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Ends the tmux server and everything in it, and removes the directory: for `defer`.
    func stop() {
        tmux.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// `text` in single quotes for sh.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
