import Foundation
import Mischief
import MischiefTestSupport
import Testing

/// Recording a session as a user would: `MISCHIEF_RECORD` on a demo that is then killed with SIGKILL, and
/// `mischief record` from a serving demo; both read back as a recording with each change's call number and seed.
@Suite(.oneAtATime) struct RecordingEndToEndTests {
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("mischief-recording-\(UUID().uuidString).jsonl")
    }

    @Test func aRecordingToAFileSurvivesKillDashNine() async throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let demo = try await HeadlessDemo.start(environment: ["MISCHIEF_RECORD": file.path])
        defer { demo.kill() }
        for (seam, spec, extra) in [
            ("clock.now", "shift(+1d)", ["--ttl", "10m"]), ("location.current", #"city("Tokyo")"#, ["--seed", "7"]),
        ] {
            let applied = try demo.mischief(["apply", "--socket", demo.socket, seam, spec] + extra)
            #expect(applied.status == 0, "\(applied.error)")
        }
        demo.process.kill()  // SIGKILL, and reaped: nothing is flushed or closed on the way out
        let recording = try Recording(jsonLines: try String(contentsOf: file, encoding: .utf8))
        #expect(recording.header.sessionSeed == 11)
        let applied = recording.entries.filter { $0.kind == .applied }
        #expect(applied.map(\.seam) == ["clock.now", "location.current"])
        #expect(applied.first?.spec == "shift(1d)" && applied.first?.ttl == 600)
        // A seed sent to a target is derived with its label (demo#0, alone in its directory): the recording keeps
        // the seed the change was applied with, which a replay gives as it is.
        #expect(applied.last?.seed == SeededGenerator.seed(7, for: "demo#0"))
        #expect(applied.allSatisfy { $0.call != nil }, "each change has its seam's call number")
        #expect(recording.entries.contains { $0.kind == .registered && $0.seam == "clock.now" })
    }

    /// `MISCHIEF_RECORD` naming a FIFO nobody reads and `MISCHIEF_REPLAY` naming `/dev/zero`: the demo starts at
    /// once, says why it neither records nor replays (not a regular file, not a matter of permission), and serves.
    @Test func aFIFOToRecordToAndADeviceToReplayNeitherBlockNorSwellTheDemo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-fifo-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("session.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let demo = try await HeadlessDemo.start(environment: ["MISCHIEF_RECORD": fifo, "MISCHIEF_REPLAY": "/dev/zero"])
        defer { demo.kill() }
        let said = try await Poll.until(
            "why the demo neither records nor replays", lastSeen: { demo.process.errorText }
        ) { () -> String? in
            let text = demo.process.errorText
            return text.contains("a FIFO, not a regular file; not recording")
                && text.contains("/dev/zero: cannot read it: it is a device, not a regular file; not replaying")
                ? text : nil
        }
        #expect(!said.lowercased().contains("permission"), "\(said)")
        let list = try demo.mischief(["list", "--socket", demo.socket])
        #expect(list.status == 0, "\(list.error)")
    }

    @Test func mischiefRecordSavesTheServersRecording() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let applied = try demo.mischief(["apply", "--socket", demo.socket, "net.request", "offline", "--seed", "3"])
        #expect(applied.status == 0, "\(applied.error)")
        let file = demo.directory.appendingPathComponent("session.jsonl")
        let saved = try demo.mischief(["record", "--socket", demo.socket, file.path])
        #expect(saved.status == 0, "\(saved.error)")
        #expect(saved.output.hasPrefix("recorded "), "\(saved.output)")
        let recording = try Recording(jsonLines: try String(contentsOf: file, encoding: .utf8))
        let change = recording.entries.last { $0.kind == .applied }
        #expect(change?.seam == "net.request" && change?.seed == SeededGenerator.seed(3, for: "demo#0"))
        #expect(recording.header.seams.contains { $0.id == "clock.now" && $0.actions.contains("shift") })
        // jq-style reading: every line is one JSON object.
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }
}

/// `mischief replay` as a user runs it: a session recorded on one demo, killed, replayed on a fresh one, which ends
/// in the same state; a recording changed by hand is refused at its line, and one whose seam is gone diverges.
@Suite(.oneAtATime) struct ReplayEndToEndTests {
    /// Each seam's behaviour, as `mischief list --json` shows it.
    static func behaviours(_ demo: HeadlessDemo) throws -> [String: String] {
        let list = try demo.mischief(["list", "--socket", demo.socket, "--json"])
        let listings = try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]]
        var behaviours: [String: String] = [:]
        for seam in (listings?.first?["seams"] as? [[String: Any]]) ?? [] {
            if let id = seam["id"] as? String, let behaviour = seam["behaviour"] as? String {
                behaviours[id] = behaviour
            }
        }
        return behaviours
    }

    @Test func aSessionReplayedOnAFreshDemoEndsInTheSameState() async throws {
        let file = RecordingEndToEndTests.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let first = try await HeadlessDemo.start(environment: ["MISCHIEF_RECORD": file.path])
        for (seam, spec, extra) in [
            ("l10n.string", "accents", [String]()), ("l10n.string", #"50%return("x")"#, ["--seed", "5"]),
            ("location.current", #"city("Tokyo")"#, []), ("clock.now", "shift(+1d)", ["--ttl", "1h"]),
        ] {
            let applied = try first.mischief(["apply", "--socket", first.socket, seam, spec] + extra)
            #expect(applied.status == 0, "\(applied.error)")
        }
        let recorded = try Self.behaviours(first)
        first.kill()

        let dry = try HeadlessDemo.mischief(["replay", "--dry-run", file.path], in: file.deletingLastPathComponent())
        #expect(dry.status == 0, "\(dry.error)")
        #expect(dry.output.contains("l10n.string") && dry.output.contains("clock.now"), "\(dry.output)")

        let second = try await HeadlessDemo.start()
        defer { second.kill() }
        let replayed = try second.mischief(["replay", "--socket", second.socket, file.path])
        #expect(replayed.status == 0, "\(replayed.output)\(replayed.error)")
        #expect(try Self.behaviours(second) == recorded, "the final state, seam by seam")
    }

    @Test func aRecordingEditedBadlyIsRefusedAtItsLineAndNothingIsApplied() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let applied = try demo.mischief(["apply", "--socket", demo.socket, "location.current", #"city("Tokyo")"#])
        #expect(applied.status == 0, "\(applied.error)")
        let file = demo.directory.appendingPathComponent("session.jsonl")
        #expect(try demo.mischief(["record", "--socket", demo.socket, file.path]).status == 0)
        _ = try demo.mischief(["revert", "--socket", demo.socket, "--all"])
        var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let change = try #require(lines.firstIndex { $0.contains("\"applied\"") })

        var broken = lines
        broken[change] = String(broken[change].dropLast(5))  // cut, not at the end: an error, not a kill
        try (broken.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let refused = try demo.mischief(["replay", "--socket", demo.socket, file.path])
        #expect(refused.status == 1)
        #expect(refused.error.contains("line \(change + 1)"), "\(refused.error)")
        #expect(try Self.behaviours(demo)["location.current"] == nil, "nothing applied")

        lines[change] = lines[change].replacingOccurrences(of: "location.current", with: "location.gone")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let diverged = try demo.mischief(["replay", "--socket", demo.socket, file.path])
        #expect(diverged.status == 1)
        #expect(diverged.error.contains("location.gone"), "\(diverged.error)")
        #expect(try Self.behaviours(demo)["location.current"] == nil, "nothing applied")
    }
}

/// `W` in `mischief demo` in tmux: the session's recording is written where the console says, and it replays on a
/// fresh headless demo to the same state.
@Suite(.oneAtATime) struct ConsoleRecordingEndToEndTests {
    @Test func wWritesTheConsolesSessionAndItReplaysOnAFreshDemo() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let console = try await ConsoleInTmux.start(
            seed: 6, width: 120, height: 40, environment: "XDG_STATE_HOME=\(ConsoleInTmux.quoted(state.path))")
        defer { console.stop() }
        let tmux = console.tmux
        let session = console.session
        for (key, name, seams) in [("1", "Tomorrow", "shift(1d)"), ("2", "Tokyo", "city(\"Tokyo\")")] {
            try tmux.send(session, keys: key)
            _ = try await tmux.wait(for: "preset \(key) on and its seams shown", in: session) { text in
                DemoScreen(text).profile(Int(key)!, name) == true && text.contains(seams) ? true : nil
            }
        }
        // The demo app has asked for its location and the weather there since Tokyo went on: the decisions of those
        // calls are in the recording.
        _ = try await tmux.wait(for: "the demo app in Tokyo, in the rain", in: session) { text in
            text.contains("Tokyo, Japan") && text.contains("Light rain") ? true : nil
        }
        try tmux.send(session, keys: "W")
        _ = try await tmux.wait(for: "the recording saved", in: session) { text in
            text.contains("recording mischief-demo-") ? true : nil
        }
        // The one file in the state directory (the status line may cut a long path).
        let directory = state.appendingPathComponent("mischief/recordings")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 1 && files[0].hasPrefix("mischief-demo-") && files[0].hasSuffix(".jsonl"), "\(files)")
        let path = directory.appendingPathComponent(try #require(files.first)).path
        let recording = try Recording(jsonLines: try String(contentsOfFile: path, encoding: .utf8))
        let applied = recording.entries.filter { $0.kind == .applied }
        #expect(
            applied.contains { $0.seam == "clock.now" && $0.spec == "shift(1d)" && $0.source == "profile Tomorrow" })

        let tokyo = recording.decisions.filter { $0.seam == "location.current" && $0.outcome == .returned }
        #expect(!tokyo.isEmpty, "each chaos call's decision is recorded: \(recording.decisions.count) in all")

        let fresh = try await HeadlessDemo.start(seed: 6)
        defer { fresh.kill() }
        let replayed = try fresh.mischief(["replay", "--socket", fresh.socket, path])
        #expect(replayed.status == 0, "\(replayed.output)\(replayed.error)")
        #expect(
            replayed.output.contains("decisions: all matched"), "checked decision by decision: \(replayed.output)")
        let behaviours = try ReplayEndToEndTests.behaviours(fresh)
        #expect(behaviours["clock.now"] == "shift(1d)" && behaviours["location.current"] == #"city("Tokyo")"#)

        // One decision edited by hand (the weather request's answer, which the profile's `respond` decides alone):
        // the replay names it, with both answers, as the first divergence.
        var edited = recording
        let index = try #require(
            edited.decisions.firstIndex { $0.seam == "net.request" && $0.outcome == .returned && $0.live == nil },
            "\(recording.decisions.filter { $0.seam == "net.request" })")
        let original = try #require(edited.decisions[index].value)
        #expect(original.hasPrefix("200, "), "\(original)")
        edited.decisions[index].value = "503" + original.dropFirst(3)
        let editedFile = state.appendingPathComponent("edited.jsonl")
        try edited.jsonLines.write(to: editedFile, atomically: true, encoding: .utf8)
        let other = try await HeadlessDemo.start(seed: 6)
        defer { other.kill() }
        let diverged = try other.mischief(["replay", "--socket", other.socket, editedFile.path])
        #expect(diverged.status == 1, "\(diverged.output)")
        #expect(diverged.error.contains("diverged at a decision"), "\(diverged.error)")
        #expect(diverged.error.contains("net.request"), "\(diverged.error)")
        #expect(
            diverged.error.contains("returned 503, ") && diverged.error.contains("returned 200, "),
            "both values: \(diverged.error)")
    }

    /// A richer session, as the issue asks: presets, a spec typed in the palette with a TTL and a seed of the session,
    /// a guard that trips, an advance of virtual time; replayed on a fresh headless demo decision by decision.
    @Test func aSessionWithATypedSpecAGuardTripAndATimeAdvanceReplaysDecisionByDecision() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let profiles = state.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        try """
        - name: Outage
          description: The weather service is down until the guard sees its errors
          key: 9
          guards:
            - errors(net.request) > 30% over 60s min 2
          entries:
            net.request: offline
        """.write(to: profiles.appendingPathComponent("outage.yaml"), atomically: true, encoding: .utf8)
        let console = try await ConsoleInTmux.start(
            seed: 6, width: 120, height: 40, options: "--profiles \(ConsoleInTmux.quoted(profiles.path))",
            environment: "XDG_STATE_HOME=\(ConsoleInTmux.quoted(state.path))")
        defer { console.stop() }
        let tmux = console.tmux
        let session = console.session

        try tmux.send(session, keys: "2")
        _ = try await tmux.wait(for: "Tokyo on, the demo app there", in: session) { text in
            DemoScreen(text).profile(2, "Tokyo") == true && text.contains("Tokyo, Japan") ? true : nil
        }
        try tmux.send(session, keys: "9")
        _ = try await tmux.wait(for: "the outage on, then its guard tripped", in: session, timeout: .seconds(90)) {
            text in
            DemoScreen(text).profile(9, "Outage") == false && text.contains("guard") ? true : nil
        }
        try tmux.send(session, keys: ":")
        try tmux.send(session, keys: "-l", #"apply l10n.string 50%return("x") ttl 10m"#)
        try tmux.send(session, keys: "Enter")
        _ = try await tmux.wait(for: "the typed spec applied", in: session) { text in
            text.contains(#"50%return("x")"#) ? true : nil
        }
        // Calls of the strings seam under the typed spec, some answered and (with the session's seed, from the 4th)
        // some passed on.
        _ = try await tmux.wait(for: "strings called under the typed spec", in: session) { text -> Bool? in
            guard let match = text.firstMatch(of: /Localised strings +50%return\("x"\) +\d+ +(\d+)/) else { return nil }
            return Int(match.1).map { $0 >= 8 } == true ? true : nil
        }
        try tmux.send(session, keys: "8")
        _ = try await tmux.wait(for: "virtual time on", in: session) { text in
            DemoScreen(text).profile(8, "Frozen time") == true ? true : nil
        }
        try tmux.send(session, keys: "]")
        _ = try await tmux.wait(for: "an hour advanced", in: session) { text in
            text.contains("moved forward by 1h") ? true : nil
        }
        try tmux.send(session, keys: "W")
        _ = try await tmux.wait(for: "the recording saved", in: session) { text in
            text.contains("recording mischief-demo-") ? true : nil
        }
        let directory = state.appendingPathComponent("mischief/recordings")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first)
        let path = directory.appendingPathComponent(file).path
        let recording = try Recording(jsonLines: try String(contentsOfFile: path, encoding: .utf8))
        let kinds = recording.entries.map(\.kind)
        #expect(kinds.contains(.applied) && kinds.contains(.reverted), "\(kinds)")
        #expect(recording.entries.contains { $0.advanced == 3600 }, "the advance is recorded")
        #expect(recording.entries.contains { $0.kind == .applied && $0.spec == #"50%return("x")"# }, "the typed spec")
        #expect(
            recording.entries.contains { $0.kind == .report && $0.seam == "l10n.string" && $0.ttl == 600 },
            "its TTL, set as the console sets it, which a replay sets again")
        #expect(
            recording.entries.contains { $0.kind == .reverted && $0.seam == "net.request" },
            "the guard's trip reverted the outage")
        let strings = recording.decisions.filter { $0.seam == "l10n.string" }
        #expect(strings.contains { $0.outcome == .returned } && strings.contains { $0.outcome == .passed })
        #expect(recording.decisions.contains { $0.seam == "net.request" && $0.value == "offline" })

        let fresh = try await HeadlessDemo.start(seed: 6)
        defer { fresh.kill() }
        let replayed = try fresh.mischief(["replay", "--socket", fresh.socket, path])
        #expect(replayed.status == 0, "\(replayed.output)\(replayed.error)")
        #expect(replayed.output.contains("decisions: all matched"), "\(replayed.output)")
    }
}
