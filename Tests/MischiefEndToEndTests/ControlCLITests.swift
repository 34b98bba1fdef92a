import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The scriptable commands (`list`, `apply`, `revert`, `watch`) against a `mischief demo --headless` of each test's
/// own, checked with the commands' output and exit statuses and, independently, with curl on the socket.
@Suite(.oneAtATime) struct ControlCLITests {
    @Test func listShowsTheTargetAndItsSeams() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }

        let table = try demo.mischief(["list", "--socket", demo.socket])
        #expect(table.status == 0, "\(table.error)")
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("demo (pid \(demo.process.pid), seed 11) \(demo.socket)") == true)
        #expect(lines.contains { $0.hasPrefix("  clock.now ") && $0.contains("never applied") }, "\(table.output)")

        let json = try demo.mischief(["list", "--json", "--socket", demo.socket])
        #expect(json.status == 0, "\(json.error)")
        let listings = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(listings.count == 1)
        let target = try #require(listings.first?["target"] as? [String: Any])
        #expect(target["name"] as? String == "demo")
        #expect(target["socket"] as? String == demo.socket)
        let seams = try #require(listings.first?["seams"] as? [[String: Any]])
        let ids = seams.compactMap { $0["id"] as? String }
        #expect(ids.contains("clock.now") && ids.contains("location.current"), "\(ids)")

        // Without --socket, the only live socket in the socket directory.
        let found = try demo.mischief(["list"])
        #expect(found.status == 0, "\(found.error)")
        #expect(found.output.split(separator: "\n").first.map(String.init) == lines.first)
    }

    @Test func releaseLetsHeldCallsGo() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        // The demo is not paused: nothing is held, and the command says so.
        let none = try demo.mischief(["release", "clock.now", "--socket", demo.socket])
        #expect(none.status == 0, "\(none.error)")
        #expect(none.output == "clock.now: released 0 held calls\n")
        let unknown = try demo.mischief(["release", "clock.nwo", "--socket", demo.socket])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("clock.nwo"))
    }

    @Test func resetZeroesASeamsCountersOrEverySeams() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let one = try demo.mischief(["reset", "clock.now", "--socket", demo.socket])
        #expect(one.status == 0, "\(one.error)")
        #expect(one.output.hasPrefix("clock.now: counters reset (were "), "\(one.output)")
        let all = try demo.mischief(["reset", "--all", "--socket", demo.socket])
        #expect(all.status == 0, "\(all.error)")
        #expect(all.output.hasPrefix("counters reset on every seam ("), "\(all.output)")
        let unknown = try demo.mischief(["reset", "clock.nwo", "--socket", demo.socket])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("clock.nwo"))
        let neither = try demo.mischief(["reset", "--socket", demo.socket])
        #expect(neither.status == 64)
        #expect(neither.error.contains("--all"))
    }

    @Test func crashIsRefusedUnlessTheDemoAllowsIt() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let refused = try demo.mischief(["apply", "clock.now", "crash(\"boom\")", "--socket", demo.socket])
        #expect(refused.status != 0)
        #expect(refused.error.contains("MISCHIEF_ALLOW_CRASH=1"), "\(refused.error)")
    }

    /// Allowed, a crash ends the demo with status 86 and its message, and its socket is gone (exit handlers ran).
    @Test func anAllowedCrashEndsTheDemoWithItsStatus() async throws {
        let demo = try await HeadlessDemo.start(arguments: ["--allow-crash"])
        defer { demo.kill() }
        // The demo calls clock.now all the time, so it may end before it answers: then the CLI says the target went
        // away (status 3).
        let applied = try demo.mischief(["apply", "clock.now", "crash(\"e2e\")", "--socket", demo.socket])
        #expect(applied.status == 0 || applied.status == 3, "\(applied.error)")
        let status = try await Poll.until("the demo to end", lastSeen: { demo.process.errorText }) {
            demo.process.exited()
        }
        #expect(status == 86)
        #expect(demo.process.errorText.contains("crash(\"e2e\") on clock.now"), "\(demo.process.errorText)")
        #expect(!FileManager.default.fileExists(atPath: demo.socket))
    }

    @Test func applyAndRevertChangeTheTarget() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }

        let applied = try demo.mischief(["apply", "clock.now", "shift(+1d)", "--socket", demo.socket])
        #expect(applied.status == 0, "\(applied.error)")
        #expect(applied.output == "clock.now: shift(1d)\n")
        #expect(try demo.behaviour(of: "clock.now") == "shift(1d)")
        #expect(try demo.seam("clock.now")["status"] as? String == "active")

        let reverted = try demo.mischief(["revert", "clock.now", "--socket", demo.socket])
        #expect(reverted.status == 0, "\(reverted.error)")
        #expect(reverted.output == "clock.now: original (reverted)\n")
        #expect(try demo.behaviour(of: "clock.now") == nil)

        // revert --all takes back every change, whoever made it.
        #expect(try demo.mischief(["apply", "clock.now", "shift(-2h)", "--socket", demo.socket]).status == 0)
        #expect(
            try demo.mischief(["apply", "location.current", #"city("Paris")"#, "--socket", demo.socket]).status == 0)
        #expect(try demo.behaviour(of: "location.current") == #"city("Paris")"#)
        let all = try demo.mischief(["revert", "--all", "--socket", demo.socket])
        #expect(all.status == 0, "\(all.error)")
        #expect(all.output == "reverted 2 layers\n")
        #expect(try demo.behaviour(of: "clock.now") == nil)
        #expect(try demo.behaviour(of: "location.current") == nil)
    }

    @Test func refusedChangesExitOneAndSayWhy() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }

        let bad = try demo.mischief(["apply", "clock.now", "shift(+1d", "--socket", demo.socket])
        #expect(bad.status == 1)
        #expect(bad.output == "")
        #expect(
            bad.error == """
                error: clock.now: expected ')' to close the arguments of 'shift'
                  shift(+1d
                           ^

                """)

        let unknown = try demo.mischief(["apply", "clock.nwo", "shift(+1d)", "--socket", demo.socket])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no seam 'clock.nwo' is registered; did you mean 'clock.now'?"))
        #expect(try demo.mischief(["revert", "clock.nwo", "--socket", demo.socket]).status == 1)

        // Nothing was applied by the refused requests.
        #expect(try demo.behaviour(of: "clock.now") == nil)
        #expect(try demo.seam("clock.now")["status"] as? String == "never applied")
    }

    @Test func applyProfileDefinesAndAppliesTheFilesProfiles() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        // A name with a space: it travels in the URL path (/v1/profiles/Next%20week%20in%20Paris/apply).
        let file = demo.directory.appendingPathComponent("paris.yaml")
        try Data(
            """
            - name: Next week in Paris
              description: A week ahead, in Paris
              entries:
                clock.now: shift(+7d)
                location.current: city("Paris")

            """.utf8
        ).write(to: file)

        let result = try demo.mischief(["apply", "--profile", file.path, "--socket", demo.socket])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "applied profile Next week in Paris (2 entries)\n")
        let profiles = try #require(try demo.get("profiles") as? [[String: Any]])
        let paris = try #require(profiles.first { $0["name"] as? String == "Next week in Paris" })
        #expect(paris["isOn"] as? Bool == true)
        #expect(try demo.behaviour(of: "clock.now") == "shift(1w)")
        #expect(try demo.behaviour(of: "location.current") == #"city("Paris")"#)

        // A broken file is refused whole, with the place of the problem.
        let broken = demo.directory.appendingPathComponent("broken.yaml")
        try Data("- name: Broken\n  entries:\n    clock.now: shift(+2x)\n".utf8).write(to: broken)
        let refused = try demo.mischief(["apply", "--profile", broken.path, "--socket", demo.socket])
        #expect(refused.status == 1)
        #expect(refused.error.contains("3:"), "\(refused.error)")
        #expect(refused.error.contains("invalid duration unit 'x'"), "\(refused.error)")
        #expect(try demo.behaviour(of: "clock.now") == "shift(1w)")
    }

    @Test func applyHoldRevertsWhenTheCommandEnds() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let hold = try ChildProcess.start(
            CLI.binary, ["apply", "--hold", "clock.now", "shift(+3d)", "--socket", demo.socket],
            environment: HeadlessDemo.environment(in: demo.directory), directory: demo.directory,
            output: demo.directory.appendingPathComponent("hold.out"),
            error: demo.directory.appendingPathComponent("hold.err"))
        defer { hold.kill() }

        // Its output comes through the pipe while it holds, not only when it ends.
        _ = try await Poll.until("apply --hold to say it holds", lastSeen: { hold.outputText + hold.errorText }) {
            hold.outputText.contains("holding until") ? true : nil
        }
        #expect(hold.outputText == "clock.now: shift(3d)\nholding until Ctrl-C or SIGTERM\n")
        #expect(try demo.behaviour(of: "clock.now") == "shift(3d)")

        hold.send(SIGINT)
        #expect(try await hold.waitForExit() == 128 + SIGINT)
        #expect(try demo.behaviour(of: "clock.now") == nil)
        #expect(try demo.seam("clock.now")["status"] as? String == "reverted")
    }

    @Test func watchPrintsALineForEachChange() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let watch = try demo.startWatch()
        defer { watch.kill() }

        _ = try await Poll.until("watch to print clock.now's calls", lastSeen: { watch.outputText + watch.errorText }) {
            watch.outputText.contains(" clock.now calls=") ? true : nil
        }
        // It follows the target as it changes: the apply, then the seam's new state.
        #expect(try demo.mischief(["apply", "clock.now", "shift(+1d)", "--socket", demo.socket]).status == 0)
        _ = try await Poll.until("watch to show the shift", lastSeen: { watch.outputText }) { () -> Bool? in
            let lines = watch.outputText.split(separator: "\n")
            let event = lines.contains { $0.contains(" applied clock.now shift(1d) [mischief CLI]") }
            let counters = lines.contains { $0.contains(" clock.now calls=") && $0.hasSuffix(" active shift(1d)") }
            return event && counters ? true : nil
        }
        watch.send(SIGTERM)
        #expect(try await watch.waitForExit() == 128 + SIGTERM)
    }

    /// `list --json` and `watch --json` are read by scripts: each object (each line of watch) says which version of its
    /// shape it is, and keeps the fields a script reads of a seam.
    @Test func listAndWatchJSONCarryASchemaVersionAndTheSeamsFields() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let watch = try demo.startWatch(["--json"])
        defer { watch.kill() }
        /// Watch's whole lines so far, each a JSON object.
        func lines() throws -> [[String: Any]] {
            let text = watch.outputText
            let whole = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
            return try whole.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
        }
        _ = try await Poll.until("watch --json to print the seams", lastSeen: { watch.outputText + watch.errorText }) {
            try lines().contains { $0["seams"] != nil } ? true : nil
        }
        #expect(try demo.mischief(["apply", "clock.now", "shift(+1d)", "--socket", demo.socket]).status == 0)
        /// A seam's fields a script reads, checked on clock.now once the shift is applied.
        func expectFields(_ seam: [String: Any], _ origin: String) {
            for key in ["id", "calls", "errors", "layers"] { #expect(seam[key] != nil, "\(origin): \(key) in \(seam)") }
            #expect(seam["behaviour"] as? String == "shift(1d)", "\(origin): \(seam)")
            #expect((seam["layers"] as? [Any])?.isEmpty == false, "\(origin): \(seam)")
        }

        let json = try demo.mischief(["list", "--json", "--socket", demo.socket])
        #expect(json.status == 0, "\(json.error)")
        let listings = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(listings.map { $0["schema"] as? Int } == [1])
        let seams = try #require(listings.first?["seams"] as? [[String: Any]])
        expectFields(try #require(seams.first { $0["id"] as? String == "clock.now" }), "list")

        let shifted = try await Poll.until("watch --json to show the shift", lastSeen: { watch.outputText }) {
            () -> [String: Any]? in
            let all = try lines()
            guard all.contains(where: { ($0["event"] as? [String: Any])?["kind"] as? String == "applied" }) else {
                return nil
            }
            return all.flatMap { ($0["seams"] as? [[String: Any]]) ?? [] }.last {
                $0["id"] as? String == "clock.now" && $0["behaviour"] as? String == "shift(1d)"
            }
        }
        expectFields(shifted, "watch")
        let all = try lines()
        #expect(all.allSatisfy { $0["schema"] as? Int == 1 }, "\(watch.outputText)")
        watch.send(SIGTERM)
        #expect(try await watch.waitForExit() == 128 + SIGTERM)
    }

    /// `mischief watch` outlives its target's events stream (the target stopped, killed or restarted): it says so in
    /// one line, tries again every second, and goes on with the target when it is back (issue #28: it exited).
    @Test func watchAttachesAgainWhenTheTargetComesBack() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let watch = try demo.startWatch()
        defer { watch.kill() }
        /// Waits until `condition` holds, failing at once if watch has exited.
        func waitFor(_ what: String, _ condition: @escaping () -> Bool) async throws {
            _ = try await Poll.until(what, lastSeen: { watch.outputText + "\n--- stderr:\n" + watch.errorText }) {
                () -> Bool? in
                if let status = watch.exited() {
                    throw Poll.Failure(description: "watch exited with \(status): \(watch.errorText)")
                }
                return condition() ? true : nil
            }
        }
        try await waitFor("watch to print clock.now's calls") { watch.outputText.contains(" clock.now calls=") }

        _ = try await demo.stop(SIGKILL)
        try await waitFor("watch to say it tries again") { watch.errorText.contains("trying again every 1s") }
        #expect(watch.errorText.split(separator: "\n").count == 1, "one line: \(watch.errorText)")

        let again = try await HeadlessDemo.start(in: demo.directory)
        defer { again.kill() }
        let before = watch.outputText.count
        try await waitFor("watch to follow the new target") {
            watch.errorText.contains("attached again to demo pid \(again.process.pid)")
                && watch.outputText.dropFirst(before).contains(" clock.now calls=")
        }
        #expect(try again.mischief(["apply", "clock.now", "shift(+1d)", "--socket", again.socket]).status == 0)
        try await waitFor("watch to show the shift on the new target") {
            watch.outputText.contains(" applied clock.now shift(1d) [mischief CLI]")
        }
        watch.send(SIGTERM)
        #expect(try await watch.waitForExit() == 128 + SIGTERM)
    }

    /// Told to (`--exit-when-gone`), watch ends with status 3 when the target goes away, for scripts.
    @Test func watchExitsThreeWhenTheTargetGoesAwayIfTold() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let watch = try demo.startWatch(["--exit-when-gone"])
        defer { watch.kill() }
        _ = try await Poll.until("watch to print clock.now's calls", lastSeen: { watch.outputText + watch.errorText }) {
            watch.outputText.contains(" clock.now calls=") ? true : nil
        }
        _ = try await demo.stop(SIGKILL)
        #expect(try await watch.waitForExit() == 3)
    }

    @Test func withoutATargetTheCommandsExitThree() throws {
        let directory = try HeadlessDemo.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [["list"], ["apply", "clock.now", "shift(+1d)"], ["revert", "--all"]] {
            let result = try HeadlessDemo.mischief(arguments, in: directory)
            #expect(result.status == 3, "mischief \(arguments.joined(separator: " "))")
            #expect(result.error.hasPrefix("error: no target is serving in \(directory.path)\n"), "\(result.error)")
        }
        let gone = try HeadlessDemo.mischief(["list", "--socket", directory.path + "/gone.sock"], in: directory)
        #expect(gone.status == 3)
        #expect(gone.error.contains("no target answers on \(directory.path)/gone.sock"), "\(gone.error)")
        let usage = try HeadlessDemo.mischief(["apply"], in: directory)
        #expect(usage.status == 64)
        #expect(usage.error.contains("give a seam and a spec"), "\(usage.error)")
    }

    /// Stopped as soon as it has printed its socket path, as a script would stop it.
    @Test func headlessDemoRemovesItsSocketOnSIGTERM() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        #expect(FileManager.default.fileExists(atPath: demo.socket))
        #expect(try await demo.stop(SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: demo.socket))
    }

    /// A broken profile file is reported at its own path, line and column, not the target's `request body`.
    @Test func aBrokenProfileFileIsNamedByItsPath() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let profiles = demo.directory.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        let yaml = "name: Bad\nentries:\n  clock.now: shift(+1d)\n  location.current: nowhere(at all\n"
        try yaml.write(to: profiles.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let result = try demo.mischief(["apply", "--profile", "profiles/bad.yaml", "--socket", demo.socket])
        #expect(result.status == 1)
        #expect(result.error.contains("profiles/bad.yaml:4:"), "\(result.error)")
        #expect(!result.error.contains("request body"), "\(result.error)")
    }
}
