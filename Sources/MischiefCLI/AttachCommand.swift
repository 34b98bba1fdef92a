import ArgumentParser
import Dispatch
import Foundation
import Mischief
import MischiefAttach
import MischiefConsole
import MischiefControl
import MischiefFiles

/// `mischief attach`: the console, over a running target's control socket.
struct AttachCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach the console to a running target through its control socket.",
        discussion: """
            With no argument it lists the live sockets it finds and attaches when there is exactly one. The \
            console holds a session: what it changes is reverted when it quits or is killed (unless --keep). A \
            lost connection shows in the header; the console reconnects when the target is back, and attaches by itself to \
            a restart of the same program at that socket path (press a to apply again what it had applied there).
            """)

    @Argument(help: "The target's socket path, or its name (default: the only live target).")
    var socket: String?

    @Option(
        name: .customLong("socket"),
        help: "The target's socket path, or its name, as every other command takes it (same as the argument).")
    var socketOption: String?

    @OptionGroup var console: ConsoleOptions

    func validate() throws {
        if let socket, let socketOption, socket != socketOption {
            throw ValidationError("give the socket once: '\(socket)' or --socket '\(socketOption)'")
        }
    }

    func run() async throws {
        let explicit = socket ?? socketOption ?? ProcessInfo.processInfo.environment["MISCHIEF_SOCKET"]
        if explicit == nil { Self.listSockets() }
        let path = try TargetOptions.resolve(explicit)
        let name = ControlSocket.find(in: URL(fileURLWithPath: (path as NSString).deletingLastPathComponent))
            .first { $0.path == path }?.name
        let client = ControlClient.cli(socketPath: path)
        // A target that does not answer now is an error, as for every command, before the screen is taken; "lost"
        // in the header is for a target that goes away later.
        _ = try await talking { () async throws(ControlClientError) in try await client.handshake() }

        // The user's profile files are checked against the target's seams and defined there, with hot keys after
        // the target's own; what is wrong is shown in the console, located in its file.
        let presets = (try? await client.profiles()) ?? []
        let seams = (try? await client.delta(since: 0).registry.seams) ?? []
        var (setup, files) = console.prepare(attachedTo: seams, profiles: presets)
        if !files.isEmpty {
            do { try await client.define(profiles: ProfileFile.yaml(files)) } catch {
                setup.messages.append("profiles not sent to \(name ?? "the target"): \(error)")
            }
        }

        let user = ProcessInfo.processInfo.environment["USER"].map { " \($0)" } ?? ""
        let controller = RemoteController(
            sessionName: "console\(user) pid \(getpid())", keep: console.keep, saveDirectory: setup.saveDirectory
        ) {
            if FileManager.default.fileExists(atPath: path) || explicit != nil { return path }
            // The target restarted under a new pid: follow it when exactly one of that name is serving.
            let live = ControlSocket.find(in: ControlSocket.directory()).filter { $0.isLive && $0.name == name }
            return live.count == 1 ? live[0].path : path
        }
        let exit: ConsoleRunner.Exit
        do {
            exit = try await console.run(controller: controller, setup: setup)
        } catch {
            await controller.close()
            throw error
        }
        await controller.close()
        if case .signal(let signal) = exit { throw ExitCode(signal.exitStatus) }
    }

    static func listSockets() {
        ControlSocket.removeDead(in: ControlSocket.directory())
        let found = ControlSocket.find(in: ControlSocket.directory())
        guard !found.isEmpty else { return }
        var standardError = StandardError()
        for socket in found {
            print("\(socket.isLive ? "live " : "stale") \(socket.path)", to: &standardError)
        }
    }
}
