import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to completion with `posix_spawn`, for programs that leave a daemon behind (tmux).
///
/// Foundation's `Process` learns that a child exited when every holder of a socket it hands the child is gone, so
/// `waitUntilExit()` hangs while a daemon forked by the child lives on; and the child inherits the signal mask of
/// the spawning thread, which on a Dispatch worker blocks SIGTERM and SIGHUP (a tmux server started that way ignores
/// `kill-server`). Here the child gets no descriptors but stdin, stdout and stderr, an empty signal mask and default
/// signal handlers, and its exit is awaited with `waitpid`.
public enum ChildProcess {
    /// How a program ended and what it printed.
    public struct Result {
        public let status: Int32
        public let output: String
        public let error: String

        public init(status: Int32, output: String, error: String) {
            self.status = status
            self.output = output
            self.error = error
        }
    }

    /// Runs `executable` with `arguments` and exactly `environment` (in `directory`, else this process's), its
    /// output going to temporary files.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], directory: URL? = nil
    ) throws -> Result {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-child-\(UUID().uuidString)")
        let outputPath = base.path + ".out"
        let errorPath = base.path + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        let pid = try spawn(
            executable, arguments, environment: environment, directory: directory, output: outputPath,
            error: errorPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw Poll.Failure(description: "waiting for \(executable.path): \(String(cString: strerror(errno)))")
            }
        }
        return Result(
            status: exitStatus(status), output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            error: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }

    /// A program started with ``start(_:_:environment:directory:output:error:)``: signals, its exit, its output.
    public final class Running {
        public let pid: pid_t
        /// The files its standard output and standard error go to.
        public let output: URL
        public let error: URL
        /// Its exit status once reaped (128 + the signal when a signal ended it).
        public private(set) var status: Int32?

        init(pid: pid_t, output: URL, error: URL) {
            self.pid = pid
            self.output = output
            self.error = error
        }

        /// What it has written to standard output so far.
        public var outputText: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        /// What it has written to standard error so far.
        public var errorText: String { (try? String(contentsOf: error, encoding: .utf8)) ?? "" }

        /// Sends `signal` to it, unless it has been reaped (its pid may belong to another process by now).
        public func send(_ signal: Int32) {
            guard status == nil else { return }
            _ = signalProcess(pid, signal)
        }

        /// Its exit status once it has exited, reaping it; nil while it runs.
        public func exited() -> Int32? {
            if let status { return status }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
            status = exitStatus(raw)
            return status
        }

        /// Waits (polling, up to `timeout`) until it exits, and returns its exit status.
        public func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
            try await Poll.until("pid \(pid) to exit", timeout: timeout, lastSeen: { self.errorText }) { self.exited() }
        }

        /// Kills it with SIGKILL and reaps it, if it still runs: for `defer`, so nothing outlives a failed test.
        public func kill() {
            guard status == nil, signalProcess(pid, SIGKILL) == 0 else { return }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            status = exitStatus(raw)
        }
    }

    /// Starts `executable` in the background, its standard output and error going to the files `output` and `error`
    /// (the same file for both: as `>FILE 2>&1`).
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String], directory: URL? = nil, output: URL,
        error: URL
    ) throws -> Running {
        let pid = try spawn(
            executable, arguments, environment: environment, directory: directory, output: output.path,
            error: error.path)
        return Running(pid: pid, output: output, error: error)
    }

    /// `posix_spawn` with stdin from /dev/null, stdout and stderr to files, no other descriptors, an empty signal
    /// mask and default signal handlers.
    private static func spawn(
        _ executable: URL, _ arguments: [String], environment: [String: String], directory: URL?, output: String,
        error: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if error == output {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)  // `2>&1`: both in one file, in the order written
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        closeInheritedDescriptors(&actions)
        if let directory { try changeDirectory(&actions, to: directory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        #if canImport(Darwin)
            flags |= POSIX_SPAWN_CLOEXEC_DEFAULT
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        // The sanitizers' settings reach children too (Scripts/sanitize-address.sh), whatever else is exact.
        let sanitizers = ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
        let envp = environment.merging(sanitizers) { mine, _ in mine }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw Poll.Failure(description: "cannot start \(executable.path): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// WIFEXITED / WEXITSTATUS, which Swift does not import: the exit status, or 128 + the signal that ended it.
    private static func exitStatus(_ status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
    }

    /// Makes the child start in `directory` (glibc's `posix_spawn_file_actions_addchdir_np`, looked up as Swift does
    /// not import GNU extensions).
    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to directory: URL) throws {
        #if os(Linux)
            typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>
            typealias AddChdir = @convention(c) (Actions, UnsafePointer<CChar>) -> Int32
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
                throw Poll.Failure(description: "this libc cannot start a child in another directory")
            }
            _ = unsafeBitCast(symbol, to: AddChdir.self)(&actions, directory.path)
        #else
            throw Poll.Failure(description: "starting a child in another directory is only done on Linux")
        #endif
    }

    /// Makes the child close every descriptor from 3 on, also those other threads open meanwhile without
    /// close-on-exec (glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift does not import as it is a GNU
    /// extension; else the descriptors open now).
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        #if os(Linux)
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
                _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
                return
            }
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap(Int32.init) where descriptor >= 3 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        #endif
    }
}

/// `kill(2)`, for the methods of `ChildProcess.Running`, whose own `kill()` hides it.
private func signalProcess(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }
