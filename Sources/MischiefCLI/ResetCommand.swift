import ArgumentParser
import Mischief
import MischiefControl

/// `mischief reset`: set a seam's counters (calls, chaos calls, errors) back to zero, or every seam's.
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Reset the counters (calls, chaos calls, errors) of a seam, or of every seam, of a running target.",
        discussion: """
            Calls in flight and calls held by a pause are live and stay. The target's event log records the reset.
            """)

    @Argument(help: "The seam whose counters to reset.")
    var seam: String?

    @Flag(name: .long, help: "Reset every seam's counters.")
    var all = false

    @OptionGroup var target: TargetOptions

    func validate() throws {
        if all == (seam != nil) { throw ValidationError("name a seam to reset, or give --all") }
    }

    func run() async throws {
        var id: SeamID?
        if let seam {
            do { id = try SeamID(seam) } catch {
                printError(error)
                throw TargetExit.refused
            }
        }
        let client = try await target.connect()
        if let id {
            let result = try await talking { () async throws(ControlClientError) in try await client.resetCounters(id) }
            let before = result.before
            print(
                "\(result.seam): counters reset (were \(counted(before.calls, "call")), "
                    + "\(counted(before.chaosCalls, "chaos call")), \(counted(before.errors, "error")))")
        } else {
            let result = try await talking { () async throws(ControlClientError) in try await client.resetAllCounters()
            }
            print("counters reset on every seam (\(result.reset) had counts)")
        }
    }
}

/// `1 call`, `2 calls`: a count and its noun, plural unless it is one.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
