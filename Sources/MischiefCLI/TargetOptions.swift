import ArgumentParser
import Foundation
import Mischief
import MischiefControl

/// Exit codes of the commands that talk to a target.
enum TargetExit {
    /// The target refused (its message is printed).
    static let refused = ExitCode(1)
    /// No target was found, or it stopped answering.
    static let noTarget = ExitCode(3)
    /// `watch`: one of the target's guards tripped while it watched.
    static let guardTripped = ExitCode(4)
}

/// How a command finds its target: `--socket PATH`, a name, or the only live socket in the socket directory.
struct TargetOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "The target's control socket, or a target name (default: $MISCHIEF_SOCKET, else the only live socket in $MISCHIEF_SOCKET_DIR, $XDG_RUNTIME_DIR/mischief or /tmp/mischief-UID)."
    )
    var socket: String?

    /// With `--all-targets`, `--socket` may only name targets, not give a path.
    func validateForAllTargets(_ allTargets: Bool) throws {
        try Self.validate(socket: socket, allTargets: allTargets)
    }

    static func validate(socket: String?, allTargets: Bool) throws {
        if allTargets, let socket, socket.contains("/") || socket.hasSuffix(".sock") {
            throw ValidationError("--all-targets takes a target name with --socket, not a path ('\(socket)')")
        }
    }

    /// The socket path to use, or an exit: 3 when no target is found, 64 when several are and none was named.
    func resolve() throws -> String {
        try Self.resolve(socket ?? ProcessInfo.processInfo.environment["MISCHIEF_SOCKET"])
    }

    static func resolve(_ argument: String?) throws -> String {
        let directory = ControlSocket.directory()
        if let argument, argument.contains("/") || argument.hasSuffix(".sock") {
            return argument
        }
        let live = ControlSocket.find(in: directory).filter(\.isLive)
        let candidates = argument.map { name in live.filter { $0.name == name } } ?? live
        switch candidates.count {
        case 1:
            return candidates[0].path
        case 0:
            let what = argument.map { "no target named '\($0)' is serving" } ?? "no target is serving"
            printError(
                "\(what) in \(directory.path)\n  start one with `mischief demo --headless`, or name a socket with --socket PATH"
            )
            throw TargetExit.noTarget
        default:
            var message = "\(candidates.count) targets are serving; name one:"
            for found in candidates { message += "\n  \(found.path)" }
            printError(message)
            throw ExitCode.validationFailure
        }
    }
}

extension TargetOptions {
    /// A client for the target these options name, after a handshake that checks it answers and speaks this API.
    func connect() async throws -> ControlClient {
        let client = ControlClient.cli(socketPath: try resolve())
        try await talking { () async throws(ControlClientError) in _ = try await client.handshake() }
        return client
    }
}

/// Runs a client call, turning its errors into the commands' exit codes with the message on standard error.
func talking<T>(_ body: () async throws(ControlClientError) -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        printError(error)
        switch error {
        case .unreachable, .disconnected: throw TargetExit.noTarget
        default: throw TargetExit.refused
        }
    }
}

/// Prints `error: <message>` on standard error.
func printError(_ message: String) {
    var standardError = StandardError()
    // What a file or a target sent may hold controls: escaped, so an error moves no cursor.
    print("error: \(Registry.printable(message))", to: &standardError)
}
