import ArgumentParser
import Mischief
import MischiefControl

/// `mischief release`: let the calls a `pause` holds on a seam go on.
struct ReleaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Release the calls a pause holds on a seam of a running target.")

    @Argument(help: "The seam whose held calls to release.")
    var seam: String

    @OptionGroup var target: TargetOptions

    func run() async throws {
        let id: SeamID
        do { id = try SeamID(seam) } catch {
            printError(error)
            throw TargetExit.refused
        }
        let client = try await target.connect()
        let result = try await talking { () async throws(ControlClientError) in try await client.release(id) }
        print("\(result.seam): released \(result.released) held call\(result.released == 1 ? "" : "s")")
    }
}
