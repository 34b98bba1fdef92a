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

    @OptionGroup var target: TargetOptions

    func validate() throws {
        guard (seam == nil) == all else { throw ValidationError("give a seam, or --all") }
    }

    func run() async throws {
        let client = ControlClient(socketPath: try target.resolve())
        try await talking { () async throws(ControlClientError) in _ = try await client.handshake() }
        if all {
            let result = try await talking { () async throws(ControlClientError) in try await client.revertAll() }
            print("reverted \(result.reverted) entr\(result.reverted == 1 ? "y" : "ies")")
        } else if let seam {
            let id: SeamID
            do { id = try SeamID(seam) } catch {
                printError(error)
                throw TargetExit.refused
            }
            let detail = try await talking { () async throws(ControlClientError) in try await client.revert(id) }
            print("\(detail.seam.id): \(detail.seam.behaviour ?? "original") (\(detail.seam.status.rawValue))")
        }
    }
}
