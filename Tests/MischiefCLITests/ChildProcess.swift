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
enum ChildProcess {
    /// How a program ended and what it printed.
    struct Result {
        let status: Int32
        let output: String
        let error: String
    }

    /// Runs `executable` with `arguments` and exactly `environment`, its output going to temporary files.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> Result {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-child-\(UUID().uuidString)")
        let outputPath = base.path + ".out"
        let errorPath = base.path + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        closeInheritedDescriptors(&actions)

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
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw Poll.Failure(description: "cannot start \(executable.path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw Poll.Failure(description: "waiting for \(executable.path): \(String(cString: strerror(errno)))")
            }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
        return Result(
            status: exitStatus, output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            error: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
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
