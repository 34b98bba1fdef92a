import Foundation
import Mischief
import Testing

@testable import MischiefControl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where sockets live and the checks that keep them private and free of stale files.
@Suite(.timeLimit(.minutes(1))) struct ControlSocketTests {
    /// The error `start()` throws on `path`, as a ``ControlSocketError``.
    static func startFailure(on path: String) async -> ControlSocketError? {
        let server = ControlServer(registry: Registry(sessionSeed: 1), options: .init(name: "second", socketPath: path))
        do {
            try await server.start()
            await server.stop()
            return nil
        } catch {
            return error as? ControlSocketError
        }
    }

    /// Leaves a socket file at `path` that nobody listens on, as a process that died would.
    static func leaveStaleSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXFailure(call: "socket", code: errno) }
        defer { close(fd) }
        let bound = ControlSocket.withAddress(of: path) { bind(fd, $0, $1) }
        guard bound == 0 else { throw POSIXFailure(call: "bind", code: errno) }
    }

    // MARK: Paths

    @Test func theDefaultPathUsesTheSocketDirectoryOfTheEnvironment() {
        let explicit = ["MISCHIEF_SOCKET_DIR": "/srv/socks", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(
            ControlSocket.defaultPath(name: "orders", pid: 42, environment: explicit) == "/srv/socks/orders-42.sock")
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/1000", "MISCHIEF_SOCKET_DIR": ""]
        #expect(
            ControlSocket.defaultPath(name: "orders", pid: 42, environment: runtime)
                == "/run/user/1000/mischief/orders-42.sock")
        #expect(
            ControlSocket.defaultPath(name: "my app/v2", pid: 7, environment: [:])
                == "/tmp/mischief-\(getuid())/my-app-v2-7.sock")
        #expect(
            ControlSocket.defaultPath(name: "", pid: 7, environment: [:]) == "/tmp/mischief-\(getuid())/target-7.sock")
    }

    @Test func aPathLongerThanSunPathIsRefusedByStart() async throws {
        let long = "/tmp/" + String(repeating: "d", count: 96) + "/t.sock"
        #expect(long.utf8.count == 108)
        let failure = await Self.startFailure(on: long)
        #expect(failure == .pathTooLong(long, bytes: 108))
        #expect(failure?.description.contains("MISCHIEF_SOCKET_DIR") == true)
        #expect(throws: Never.self) { try ControlSocket.checkLength(String(long.dropLast())) }
    }

    // MARK: The directory

    @Test func aMissingDirectoryIsCreatedPrivate() throws {
        let parent = try SocketDirectory()
        defer { parent.remove() }
        let directory = parent.path + "/sockets"
        try ControlSocket.prepareDirectory(directory)
        #expect(mode(of: directory)?.type == S_IFDIR)
        #expect(mode(of: directory)?.permissions == 0o700)
        try ControlSocket.prepareDirectory(directory)  // and an existing private one is fine
    }

    @Test func anOpenDirectoryIsRefused() throws {
        let parent = try SocketDirectory()
        defer { parent.remove() }
        let directory = parent.path + "/open"
        #expect(mkdir(directory, 0o755) == 0)
        #expect(chmod(directory, 0o755) == 0)
        do {
            try ControlSocket.prepareDirectory(directory)
            Issue.record("a directory with mode 755 was accepted")
        } catch {
            guard case .directory(let path, let reason) = error else {
                Issue.record("expected a directory error, got \(error)")
                return
            }
            #expect(path == directory)
            #expect(reason.contains("its mode is 755; it must be 700"))
        }
        #expect(mode(of: directory)?.permissions == 0o755)  // refused, not changed
    }

    @Test func aFileOrALinkOrAMissingParentIsRefusedAsADirectory() throws {
        let parent = try SocketDirectory()
        defer { parent.remove() }
        let file = parent.path + "/file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let link = parent.path + "/link"
        #expect(symlink(parent.path, link) == 0)
        for path in [file, link, parent.path + "/missing/deeper"] {
            #expect(throws: ControlSocketError.self, "\(path)") { try ControlSocket.prepareDirectory(path) }
        }
        // Each says what is wrong: a link is a link, not "not a directory" (issue #28).
        let linkError = #expect(throws: ControlSocketError.self) { try ControlSocket.prepareDirectory(link) }
        #expect("\(linkError.map { "\($0)" } ?? "")".contains("is a symbolic link"))
        let fileError = #expect(throws: ControlSocketError.self) { try ControlSocket.prepareDirectory(file) }
        #expect("\(fileError.map { "\($0)" } ?? "")".contains("is not a directory"))
    }

    // MARK: The socket

    @Test func theServedSocketIsPrivateAndRemovedOnStop() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let target = try TestTarget(directory: directory)
        try await target.server.start()
        let served = mode(of: target.socketPath)
        await target.server.stop()
        #expect(served?.type == S_IFSOCK)
        #expect(served?.permissions == 0o600)
        #expect(!exists(target.socketPath))
    }

    @Test func aStaleSocketIsReplaced() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        try Self.leaveStaleSocket(at: directory.socketPath)
        #expect(mode(of: directory.socketPath)?.type == S_IFSOCK)
        let target = try TestTarget(directory: directory)
        try await target.server.start()
        let info = try? await target.client().target()
        await target.server.stop()
        #expect(info?.socket == directory.socketPath)
    }

    @Test func aLiveSocketIsNotTakenOver() async throws {
        try await withTarget { target in
            let failure = await Self.startFailure(on: target.socketPath)
            guard case .occupied(let path, let reason) = failure else {
                Issue.record("expected occupied, got \(String(describing: failure))")
                return
            }
            #expect(path == target.socketPath)
            #expect(reason == "another process is serving on it")
            // The first server is untouched.
            let info = try await target.client().target()
            #expect(info.name == "test")
        }
    }

    @Test func aRegularFileAtThePathIsNotRemoved() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        #expect(FileManager.default.createFile(atPath: directory.socketPath, contents: Data("mine".utf8)))
        let failure = await Self.startFailure(on: directory.socketPath)
        #expect(failure == .occupied(directory.socketPath, "it exists and is not a socket"))
        #expect(FileManager.default.contents(atPath: directory.socketPath) == Data("mine".utf8))
    }

    @Test func findListsLiveSocketsFirstWithNameAndPid() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        try Self.leaveStaleSocket(at: directory.path + "/dead-12.sock")
        let live = ControlServer(
            registry: Registry(sessionSeed: 1), options: .init(name: "x", socketPath: directory.path + "/live-34.sock"))
        try await live.start()
        let found = ControlSocket.find(in: URL(fileURLWithPath: directory.path))
        await live.stop()
        #expect(found.map(\.name) == ["live", "dead"])
        #expect(found.map(\.pid) == [34, 12])
        #expect(found.map(\.isLive) == [true, false])
    }

    /// A socket a killed target left behind goes, so `attach` stops listing it; one whose process is alive (bound,
    /// not listening yet: starting) stays, and so does one with no pid in its name.
    @Test func socketsOfDeadProcessesAreRemovedAndNoOthers() throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let dead = directory.path + "/demo-\(exited.processIdentifier).sock"
        let starting = directory.path + "/demo-\(getpid()).sock"
        let unnamed = directory.path + "/demo.sock"
        for path in [dead, starting, unnamed] { try Self.leaveStaleSocket(at: path) }
        #expect(ControlSocket.removeDead(in: URL(fileURLWithPath: directory.path)) == [dead])
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: starting) && FileManager.default.fileExists(atPath: unnamed))
    }
}

/// Binding problems are reported at once with the system's reason and the path.
@Suite(.timeLimit(.minutes(1))) struct ControlServerBindTests {
    @Test func aSocketInADirectoryThatCannotBeBoundFailsAtOnceWithTheReason() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let path = directory.path + "/missing/t.sock"
        let server = ControlServer(registry: Registry(sessionSeed: 1), options: .init(name: "t", socketPath: path))
        // The old server waited for a 5 s timeout and said "timeout": the system's reason is the proof it is at once.
        await #expect {
            try await server.start()
        } throws: { error in
            let text = "\(error)"
            return text.contains("No such file or directory") && text.contains(path)
        }
        await server.stop()
    }
}
