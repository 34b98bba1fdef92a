import ArgumentParser
import Dispatch
import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import MischiefFiles

/// `mischief apply`: change a seam, or apply profiles from a file.
struct ApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a spec to a seam of a running target, or the profiles in a file.",
        discussion: """
            The change lasts until it is reverted (`mischief revert`), like a failpoint set over HTTP. With --hold \
            it belongs to a session instead and is reverted when the command ends (Ctrl-C, SIGTERM). Exits 1 \
            when the target refuses (the reason is printed), 3 when no target is found.
            """)

    @Argument(help: "The seam, such as clock.now.")
    var seam: String?

    @Argument(help: "The spec, such as 'shift(+1d)'.")
    var spec: String?

    @Option(name: .long, help: "A profile file (YAML): define its profiles on the target and apply them.")
    var profile: String?

    @Flag(name: .long, help: "Leave the change in place after the command ends (the default).")
    var keep = false

    @Flag(name: .long, help: "Hold the change only while the command runs; it is reverted when the command ends.")
    var hold = false

    @OptionGroup var target: TargetOptions

    func validate() throws {
        if profile == nil, seam == nil || spec == nil {
            throw ValidationError("give a seam and a spec (mischief apply clock.now 'shift(+1d)'), or --profile FILE")
        }
        if profile != nil, seam != nil { throw ValidationError("give either a seam and a spec, or --profile FILE") }
        if keep, hold { throw ValidationError("--keep and --hold contradict each other") }
    }

    func run() async throws {
        var client = ControlClient(socketPath: try target.resolve())
        try await talking { () async throws(ControlClientError) in _ = try await client.handshake() }
        if hold {
            let session = try await talking { () async throws(ControlClientError) in
                try await client.openSession(SessionRequest(name: "mischief apply --hold"))
            }
            client.session = session.id
        }
        if let profile {
            let text: String
            do { text = try String(contentsOfFile: profile, encoding: .utf8) } catch {
                printError("cannot read \(profile): \(error.localizedDescription)")
                throw TargetExit.refused
            }
            let defined = try await talking { () async throws(ControlClientError) in
                try await client.define(profiles: text)
            }
            for row in defined {
                _ = try await talking { () async throws(ControlClientError) in try await client.profile(row.profile.name, .apply) }
                let count = row.profile.entries.count
                print("applied profile \(row.profile.name) (\(count) entr\(count == 1 ? "y" : "ies"))")
            }
        } else if let seam, let spec {
            let id: SeamID
            do { id = try SeamID(seam) } catch {
                printError(error)
                throw TargetExit.refused
            }
            let detail = try await talking { () async throws(ControlClientError) in try await client.apply(spec, to: id) }
            print("\(detail.seam.id): \(detail.seam.behaviour ?? "original")")
        }
        guard hold, let session = client.session else { return }
        let signals = try SignalCatcher.install()
        print("holding until Ctrl-C or SIGTERM")
        // Into a pipe, stdout is buffered until exit: a script waiting for this line would wait for ever.
        fflush(nil)
        let stream = client.events()
        let holder = Task { for try await _ in stream {} }
        let signal = await signals.next()
        holder.cancel()
        _ = try? await client.endSession(session)
        throw ExitCode(128 + signal)
    }
}
