import Foundation
import MischiefTestSupport

/// A tmux server of a test's own (`tmux -L <socket>`), to run a full-screen program in and read its screen.
///
/// Each server has its own socket, so tests running in parallel never see each other's sessions; `kill()` ends the
/// server and every program in it.
struct TmuxServer {
    /// The socket name, unique to this server.
    let socket = "mischief-e2e-\(UUID().uuidString)"
    /// The tmux executable.
    let executable: URL

    /// Finds tmux on `PATH`.
    ///
    /// - Throws: `Poll.Failure` saying how to install tmux when it is missing, so the test fails instead of passing
    ///   without having run.
    init() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories =
            path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        let found = directories.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent("tmux") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let found else {
            throw Poll.Failure(
                description: """
                    tmux is not installed, so the end-to-end test of `mischief demo` cannot run; install it \
                    (apt-get install tmux; .ci/run does this)
                    """)
        }
        executable = found
    }

    /// Starts a detached session of `width`×`height` cells running `command` (an argument vector, run without a
    /// shell in between).
    func start(session: String, width: Int, height: Int, command: [String]) throws {
        try run(["new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)"] + command)
    }

    /// The visible screen of `session`, one line per row.
    func screen(_ session: String) -> String {
        (try? run(["capture-pane", "-p", "-t", session])) ?? "(no screen: tmux capture-pane failed)"
    }

    /// The process id of the program `session`'s pane runs (the command it was started with).
    func panePID(_ session: String) throws -> Int? {
        let output = try run(["list-panes", "-t", session, "-F", "#{pane_pid}"])
        return Int(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Types `keys` (tmux key names such as `Space`, or single characters) into `session`.
    func send(_ session: String, keys: String...) throws {
        try send(session, keys: keys)
    }

    /// Types `keys` (tmux key names, or `-H` and hex bytes) into `session`.
    func send(_ session: String, keys: [String]) throws {
        try run(["send-keys", "-t", session] + keys)
    }

    /// Whether the program in `session` has the alternate screen on (a full-screen program that has not left it).
    func isAlternateScreenOn(_ session: String) throws -> Bool {
        try run(["display-message", "-p", "-t", session, "#{alternate_on}"])
            .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Resizes the window of `session`, as a user resizing the terminal would.
    func resize(_ session: String, width: Int, height: Int) throws {
        try run(["resize-window", "-t", session, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until `probe` finds what it looks for on the screen of `session`, and returns what it found.
    ///
    /// - Throws: `Poll.Failure` with the last screen when `timeout` passes first.
    func wait<Value>(
        for what: String, in session: String, timeout: Duration = .seconds(60), probe: (String) -> Value?
    ) async throws -> Value {
        var last = ""
        return try await Poll.until(what, timeout: timeout, lastSeen: { last }) {
            last = screen(session)
            return probe(last)
        }
    }

    /// Ends the server and every program running in it, and removes its socket.
    func kill() {
        let socketPath = try? run(["display-message", "-p", "#{socket_path}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try? run(["kill-server"])
        if let socketPath, !socketPath.isEmpty { try? FileManager.default.removeItem(atPath: socketPath) }
        // A server whose last session ended (its program exited) has gone already and left its socket where tmux
        // puts it by default (`run` gives it no TMUX_TMPDIR).
        try? FileManager.default.removeItem(atPath: "/tmp/tmux-\(getuid())/\(socket)")
    }

    /// Runs a tmux command against this server and returns its output.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        // The server and the programs in it start with this environment, not the test runner's.
        let inherited = ProcessInfo.processInfo.environment
        let environment = [
            "HOME": inherited["HOME"] ?? NSTemporaryDirectory(), "PATH": inherited["PATH"] ?? "/usr/bin:/bin",
            "LANG": "C.UTF-8", "TERM": "xterm-256color",
        ]
        // -u: UTF-8 whatever the locale; -f /dev/null: none of the user's tmux configuration.
        let result = try ChildProcess.run(
            executable, ["-u", "-f", "/dev/null", "-L", socket] + arguments, environment: environment)
        guard result.status == 0 else {
            throw Poll.Failure(
                description: "tmux \(arguments.joined(separator: " ")) exited with \(result.status): \(result.error)")
        }
        return result.output
    }
}
