import ArgumentParser
import Dispatch
import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import MischiefFiles

/// `mischief revert`: revert a seam, or everything.
struct RevertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Revert a seam of a running target, or everything with --all.")

    @Argument(help: "The seam to revert.")
    var seam: String?

    @Flag(name: .long, help: "Revert every change on every seam.")
    var all = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Revert the changes made from outside (by the CLI, a console) in the running tests this names (a number, a name or a pattern); their own traits' layers stay. With --all, on every seam.",
            valueName: "name|pattern"))
    var scope: String?

    @OptionGroup var target: TargetOptions

    @Flag(
        name: .customLong("all-targets"),
        help:
            "Revert on every live target (with --socket NAME, every target of that name), all at once; one row a target. Exits 1 if any refused."
    )
    var allTargets = false

    func validate() throws {
        guard (seam == nil) == all else { throw ValidationError("give a seam, or --all") }
        if scope != nil, allTargets {
            throw ValidationError("--scope names tests of one target; leave out --all-targets")
        }
        try target.validateForAllTargets(allTargets)
    }

    func run() async throws {
        var id: SeamID?
        if let seam {
            do { id = try SeamID(seam) } catch {
                printError(error)
                throw TargetExit.refused
            }
        }
        if allTargets {
            return try await AllTargets.run(named: target.socket) { [id] client async throws(ControlClientError) in
                try await Self.revert(id, with: client)
            }
        }
        let client = try await target.connect()
        if let scope {
            let result = try await talking { [id] () async throws(ControlClientError) in
                try await client.revert(id, inScopes: scope)
            }
            print(
                "reverted \(result.count) change\(result.count == 1 ? "" : "s") in "
                    + (result.scopes.isEmpty
                        ? "no running test" : result.scopes.map { "#\($0.id) \($0.name)" }.joined(separator: ", ")))
            return
        }
        print(try await talking { [id] () async throws(ControlClientError) in try await Self.revert(id, with: client) })
    }

    /// Reverts `id`, or everything when it is nil, on the target `client` talks to; says what it did.
    static func revert(_ id: SeamID?, with client: ControlClient) async throws(ControlClientError) -> String {
        guard let id else {
            let result = try await client.revertAll()
            return "reverted \(counted(result.reverted, "layer"))"
        }
        let detail = try await client.revert(id)
        return "\(detail.seam.id): \(detail.seam.behaviourText ?? "original") (\(detail.seam.status.rawValue))"
    }
}
