import ArgumentParser
import Foundation
import Mischief
import MischiefControl

/// `mischief guard`: list, add, remove and re-arm a running target's guards.
struct GuardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guard",
        abstract: "List, add, remove or re-arm the guards of a running target: checks that revert chaos.",
        discussion: """
            A guard is a condition the target checks on its own counters about once a second: \
            'errors(SEAM) > P% over DURATION [min N]', 'no-success(SEAM) for DURATION', or 'check(SEAM) [fails N \
            times]' on a health-check seam the target registers. When it holds, the target reverts what the guard \
            covers at once (everything, or one profile), logs the trip with its figures, and the guard stays \
            tripped until re-armed. `mischief watch` exits 4 when a guard trips while it watches. Exits 1 when the \
            target refuses, 3 when no target is found.
            """,
        subcommands: [List.self, Add.self, Remove.self, Rearm.self],
        defaultSubcommand: List.self)

    /// `mischief guard list`: every guard with its state.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the guards: watching, armed (nothing to guard yet) or tripped, with the figures.")

        @Flag(name: .long, help: "Print JSON: the guards as GET /v1/guards gives them.")
        var json = false

        @OptionGroup var target: TargetOptions

        func run() async throws {
            let client = ControlClient.cli(socketPath: try target.resolve())
            let info = try await talking { () async throws(ControlClientError) in try await client.handshake() }
            let guards = try await talking { () async throws(ControlClientError) in try await client.guards() }
            if json {
                print(try GuardTable.json(guards))
            } else {
                print("\(info.name) (pid \(info.pid))")
                print(GuardTable.lines(guards).joined(separator: "\n"))
            }
        }
    }

    /// `mischief guard add`: a new guard.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a guard; it reverts everything, or the profile named with --profile, when it trips.",
            discussion: """
                Examples: 'errors(net.request) > 50% over 10s', 'errors(api.user) > 20% over 1m min 50', \
                'no-success(api.checkout) for 30s', 'check(health.db) fails 3 times'. Durations are spec durations \
                (500ms, 10s, 1m), at most 1d.
                """)

        @Argument(help: "The condition, such as 'errors(net.request) > 50% over 10s'.")
        var condition: String

        @Option(name: .long, help: "Revert only this profile (defined on the target) when the guard trips.")
        var profile: String?

        @OptionGroup var target: TargetOptions

        func validate() throws {
            do throws(SpecError) {
                _ = try Guard.Condition(parsing: condition)
            } catch {
                throw ValidationError("the condition does not parse: \(error)")
            }
        }

        func run() async throws {
            let client = try await target.connect()
            let added = try await talking { () async throws(ControlClientError) in
                try await client.addGuard(condition, profile: profile)
            }
            print("guard \(added.id) added: \(added.definition) (\(added.stateName))")
        }
    }

    /// `mischief guard remove`: take a guard away.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a guard.")

        @Argument(help: "The guard's id, as `mischief guard list` shows it.")
        var id: Int

        @OptionGroup var target: TargetOptions

        func run() async throws {
            let client = try await target.connect()
            let removed = try await talking { () async throws(ControlClientError) in try await client.removeGuard(id) }
            print("guard \(removed.id) removed: \(removed.definition)")
        }
    }

    /// `mischief guard rearm`: watch again after a trip.
    struct Rearm: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Arm a tripped guard again (its window starts afresh); what it reverted stays reverted.")

        @Argument(help: "The guard's id, as `mischief guard list` shows it.")
        var id: Int

        @OptionGroup var target: TargetOptions

        func run() async throws {
            let client = try await target.connect()
            let armed = try await talking { () async throws(ControlClientError) in try await client.rearmGuard(id) }
            print("guard \(armed.id) armed again: \(armed.definition) (\(armed.stateName))")
        }
    }
}
