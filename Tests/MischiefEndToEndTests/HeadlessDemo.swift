import Foundation
import MischiefTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `mischief demo --headless` of a test's own, and the ways a user reaches it: `mischief` commands and
/// `curl --unix-socket`.
///
/// Its directory (made with mkdtemp under /tmp, so the socket path fits `sun_path`) is the socket directory
/// (`MISCHIEF_SOCKET_DIR`), the home, the config home and the working directory of every command run here, so
/// the user's profiles, themes and sockets stay out. `kill()` (for `defer`) ends the demo and removes the directory.
final class HeadlessDemo {
    let directory: URL
    /// The socket path the demo printed.
    let socket: String
    let process: ChildProcess.Running
    private let ownsDirectory: Bool

    private init(directory: URL, socket: String, process: ChildProcess.Running, ownsDirectory: Bool) {
        self.directory = directory
        self.socket = socket
        self.process = process
        self.ownsDirectory = ownsDirectory
    }

    /// Starts a demo in a fresh directory; returns once it has printed its socket path.
    static func start(
        seed: Int = 11, arguments: [String] = [], environment extra: [String: String] = [:]
    ) async throws -> HeadlessDemo {
        let directory = try makeDirectory()
        do {
            return try await start(
                in: directory, seed: seed, arguments: arguments, environment: extra, ownsDirectory: true)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Starts another demo on the socket `directory/demo.sock` (a target restarting); `directory` stays when it is
    /// killed.
    /// `socketName` nil: the demo's default path there, `demo-<pid>.sock`.
    static func start(
        in directory: URL, seed: Int = 11, socketName: String? = "demo.sock", arguments: [String] = []
    ) async throws -> HeadlessDemo {
        try await start(
            in: directory, seed: seed, socketName: socketName, arguments: arguments, environment: [:],
            ownsDirectory: false)
    }

    /// Starts the demo as `mischief-blocked-target` serves it (Tests/MischiefBlockedTarget): its tasks block every
    /// thread of Swift's task pool once it serves, and it says so on standard error.
    /// `arguments`: more of its own, such as `--system`.
    static func startBlockingItsTaskPool(seed: Int = 11, arguments: [String] = []) async throws -> HeadlessDemo {
        let directory = try makeDirectory()
        do {
            return try await start(
                in: directory, seed: seed, arguments: arguments, environment: [:], ownsDirectory: true,
                binary: CLI.binary.deletingLastPathComponent().appendingPathComponent("MischiefBlockedTarget"),
                command: [])
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Starts `MischiefTwoThreadTarget` (Tests/MischiefTwoThreadTarget): two threads that call the seam `t.n` once
    /// the file `socket + ".go"` exists (``go()``).
    static func startTwoThreadTarget(calls: Int) async throws -> HeadlessDemo {
        let directory = try makeDirectory()
        do {
            return try await start(
                in: directory, seed: 5, arguments: ["--calls", "\(calls)"], environment: [:], ownsDirectory: true,
                binary: CLI.binary.deletingLastPathComponent().appendingPathComponent("MischiefTwoThreadTarget"),
                command: [])
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Lets a `MischiefTwoThreadTarget`'s threads start calling.
    func go() {
        FileManager.default.createFile(atPath: socket + ".go", contents: Data())
    }

    private static func start(
        in directory: URL, seed: Int, socketName: String? = "demo.sock", arguments: [String],
        environment extra: [String: String], ownsDirectory: Bool, binary: URL = CLI.binary,
        command: [String] = ["demo", "--headless"]
    ) async throws -> HeadlessDemo {
        let socket = socketName.map { ["--socket", directory.appendingPathComponent($0).path] } ?? []
        let name = "demo-\(UUID().uuidString.prefix(8))"
        let process = try ChildProcess.start(
            binary, command + socket + ["--seed", "\(seed)"] + arguments,
            environment: environment(in: directory).merging(extra) { $1 }, directory: directory,
            output: directory.appendingPathComponent("\(name).out"),
            error: directory.appendingPathComponent("\(name).err"))
        do {
            let first = try await Poll.until("the demo to print its socket path", lastSeen: { process.errorText }) {
                () -> String? in
                if let status = process.exited() {
                    throw Poll.Failure(description: "the demo exited with \(status): \(process.errorText)")
                }
                let text = process.outputText
                guard let end = text.firstIndex(of: "\n") else { return nil }
                return String(text[..<end])
            }
            return HeadlessDemo(directory: directory, socket: first, process: process, ownsDirectory: ownsDirectory)
        } catch {
            process.kill()
            throw error
        }
    }

    /// Ends the demo at once (SIGKILL) if it still runs, and removes its directory if it made it.
    func kill() {
        process.kill()
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Sends `signal` and waits for the demo to exit; returns its exit status.
    func stop(_ signal: Int32 = SIGTERM) async throws -> Int32 {
        process.send(signal)
        return try await process.waitForExit()
    }

    // MARK: Commands

    /// Runs `mischief` with `arguments` here, as a user would.
    func mischief(_ arguments: [String]) throws -> ChildProcess.Result {
        try Self.mischief(arguments, in: directory)
    }

    /// Starts `mischief watch --socket <this demo> --lines` with `extra` arguments, as a user would, its output and
    /// errors in `watch.out` and `watch.err` here.
    func startWatch(_ extra: [String] = []) throws -> ChildProcess.Running {
        try ChildProcess.start(
            CLI.binary, ["watch", "--socket", socket, "--lines"] + extra,
            environment: Self.environment(in: directory), directory: directory,
            output: directory.appendingPathComponent("watch.out"),
            error: directory.appendingPathComponent("watch.err"))
    }

    /// Runs `mischief` with `arguments` in `directory`, with the environment described above.
    static func mischief(_ arguments: [String], in directory: URL) throws -> ChildProcess.Result {
        try ChildProcess.run(CLI.binary, arguments, environment: environment(in: directory), directory: directory)
    }

    /// `GET /v1/<path>` with curl, parsed as JSON. Its deadline is a loaded machine's, not a latency goal: under
    /// AddressSanitizer beside a whole `swift test`, an answer once took longer than 5 s.
    func get(_ path: String) throws -> Any {
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        let result = try ChildProcess.run(
            curl, ["-sS", "--max-time", "30", "--unix-socket", socket, "http://localhost/v1/\(path)"],
            environment: Self.environment(in: directory))
        guard result.status == 0 else {
            throw Poll.Failure(
                description: "curl /v1/\(path) exited with \(result.status): \(result.error)\n\(diagnosis())")
        }
        return try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    }

    /// What the demo was doing when it did not answer: whether it runs, its threads (``threads()``), and the end of its
    /// standard error. A stall seen once on a loaded machine (curl waited 30 s for `GET /v1/seams/…` with 0 bytes
    /// back) could not be told from a stopped or starved process without it.
    func diagnosis() -> String {
        var lines = ["the demo (pid \(process.pid)): " + (process.exited().map { "exited with \($0)" } ?? "running")]
        lines += threads().map { "  \($0.id) \($0.name): \($0.state), in \($0.waitingIn), \($0.cpu)" }
        let errors = process.errorText.split(separator: "\n").suffix(20)
        lines.append("its last standard error:\n" + errors.joined(separator: "\n"))
        return lines.joined(separator: "\n")
    }

    /// Each thread of the demo as /proc shows it: its name, its state (`R`, `S`, `D`, `T`…), the kernel function it
    /// waits in, and the CPU it took (user and system clock ticks). Empty where there is no /proc.
    func threads() -> [(id: String, name: String, state: String, waitingIn: String, cpu: String)] {
        let pid = process.pid
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { task in
            func read(_ file: String) -> String {
                ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/\(file)", encoding: .utf8)) ?? "?")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            // stat: "tid (comm) state … utime stime …" (fields 3, 14 and 15); comm may hold spaces and parentheses.
            let fields = read("stat").split(separator: ")").last.map { $0.split(separator: " ") } ?? []
            let state = fields.first.map(String.init) ?? "?"
            let cpu = fields.count > 12 ? "\(fields[11])+\(fields[12]) ticks" : "?"
            return (task, read("comm"), state, read("wchan"), cpu)
        }
    }

    /// Seconds `curl` took from connecting to the end of the answer to `method /v1/<path>` (its start-up not
    /// included); throws unless the answer is 2xx.
    func time(_ method: String, _ path: String, body: String = "") throws -> Double {
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        var arguments = ["-sS", "--fail", "--max-time", "5", "-o", "/dev/null", "-w", "%{time_total}", "-X", method]
        if !body.isEmpty { arguments += ["-H", "Content-Type: text/plain", "--data-binary", body] }
        let result = try ChildProcess.run(
            curl, arguments + ["--unix-socket", socket, "http://localhost/v1/\(path)"],
            environment: Self.environment(in: directory))
        guard result.status == 0, let seconds = Double(result.output) else {
            throw Poll.Failure(
                description: "curl \(method) /v1/\(path) exited with \(result.status): \(result.error)\n\(diagnosis())")
        }
        return seconds
    }

    /// The seam `id` as `GET /v1/seams/{id}` shows it (its `seam` object).
    func seam(_ id: String) throws -> [String: Any] {
        let detail = try get("seams/\(id)") as? [String: Any]
        guard let seam = detail?["seam"] as? [String: Any] else {
            throw Poll.Failure(description: "no seam object in GET /v1/seams/\(id): \(String(describing: detail))")
        }
        return seam
    }

    /// The behaviour applied to seam `id`, nil when none is (the key is absent or null).
    func behaviour(of id: String) throws -> String? {
        try seam(id)["behaviour"] as? String
    }

    /// The last `count` events of the registry, as `GET /v1/changes?since=0` (everything) shows them.
    func events(_ count: Int = 50) throws -> [[String: Any]] {
        let delta = try get("changes?since=0") as? [String: Any]
        let changes = delta?["changes"] as? [String: Any]
        return Array((changes?["events"] as? [[String: Any]] ?? []).suffix(count))
    }

    // MARK: Directories

    /// The environment of everything run in `directory`: nothing of the user's, `directory` as the socket directory.
    static func environment(in directory: URL) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory.path,
            "LANG": "C.UTF-8", "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "MISCHIEF_SOCKET_DIR": directory.path,
        ]
    }

    /// A fresh private directory under /tmp with a short path (`FileManager`'s temporary directory may be long).
    static func makeDirectory() throws -> URL {
        var template = Array("/tmp/mischief-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Poll.Failure(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }
}
