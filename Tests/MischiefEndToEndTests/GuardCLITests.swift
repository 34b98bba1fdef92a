import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mischief guard` against a `mischief demo --headless` of each test's own: a guard on the demo's own error counts
/// trips on the target's housekeeping thread, reverts the chaos, and `mischief watch` exits 4 with the figures.
/// Waits are polls on what the programs print, never fixed sleeps.
@Suite(.oneAtATime) struct GuardCLITests {
    @Test func aGuardTripsRevertsAndWatchExitsFour() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let watch = try demo.startWatch()
        defer { watch.kill() }
        _ = try await Poll.until("watch to follow the target", lastSeen: { watch.outputText + watch.errorText }) {
            watch.outputText.contains(" clock.now calls=") ? true : nil
        }

        let added = try demo.mischief([
            "guard", "add", "errors(location.current) > 50% over 5s", "--socket", demo.socket,
        ])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output == "guard 1 added: errors(location.current) > 50% over 5s reverts everything (armed)\n")
        // The demo asks where it is five times a second: with every call failing, the guard trips.
        #expect(try demo.mischief(["apply", "location.current", "unavailable", "--socket", demo.socket]).status == 0)

        #expect(try await watch.waitForExit(timeout: .seconds(20)) == 4)
        let trip = watch.outputText.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            trip.contains(" guard-tripped location.current guard 1 tripped (errors(location.current) > 50% over 5s): "),
            "\(watch.outputText)")
        #expect(
            trip.contains(" calls threw (") && trip.contains("; reverted everything (1 layer) [mischief CLI]"),
            "\(trip)")
        #expect(watch.errorText == "error: a guard tripped; watch exits 4\n")
        #expect(try demo.behaviour(of: "location.current") == nil)

        let list = try demo.mischief(["guard", "list", "--socket", demo.socket])
        #expect(list.status == 0, "\(list.error)")
        let lines = list.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(list.output)")
        #expect(lines.dropFirst().first?.hasPrefix("  GUARD  STATE     CONDITION") == true)
        #expect(
            lines.dropFirst(2).first?.hasPrefix("  1      tripped   errors(location.current) > 50% over 5s") == true)
        #expect(lines.last?.contains("calls threw (") == true && lines.last?.contains("tripped at uptime ") == true)

        let json = try demo.mischief(["guard", "list", "--json", "--socket", demo.socket])
        let guards = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(guards.first?["state"] as? String == "tripped")
        #expect((guards.first?["reason"] as? String)?.contains("more than 50%") == true)

        let listing = try demo.mischief(["list", "--json", "--socket", demo.socket])
        let targets = try #require(
            try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]])
        #expect(
            (targets.first?["guards"] as? [[String: Any]])?.first?["when"] as? String
                == "errors(location.current) > 50% over 5s")
        let table = try demo.mischief(["list", "--socket", demo.socket])
        #expect(table.output.contains("\n  1      tripped   errors(location.current) > 50% over 5s"), "\(table.output)")

        let rearmed = try demo.mischief(["guard", "rearm", "1", "--socket", demo.socket])
        #expect(
            rearmed.output == "guard 1 armed again: errors(location.current) > 50% over 5s reverts everything (armed)\n"
        )
        let removed = try demo.mischief(["guard", "remove", "1", "--socket", demo.socket])
        #expect(removed.output == "guard 1 removed: errors(location.current) > 50% over 5s reverts everything\n")
        let again = try demo.mischief(["guard", "remove", "1", "--socket", demo.socket])
        #expect(again.status == 1)
        #expect(again.error.hasPrefix("error: no guard 1"), "\(again.error)")
        #expect(try demo.mischief(["guard", "--socket", demo.socket]).output.hasSuffix("\n  no guards\n"))
    }

    /// The demo's weather requests go through `net.request`; with every one failing (`offline`), the guards the
    /// README teaches trip within their windows, and `list --json` counts each failed request as an error.
    @Test func networkGuardsTripWhenEveryRequestFails() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        for condition in ["errors(net.request) > 50% over 10s", "no-success(net.request) for 10s"] {
            let added = try demo.mischief(["guard", "add", condition, "--socket", demo.socket])
            #expect(added.status == 0, "\(added.error)")
        }
        func counted() throws -> (calls: Int, errors: Int, offline: Bool)? {
            let listing = try demo.mischief(["list", "--json", "--socket", demo.socket])
            let targets = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]]
            let seams = targets?.first?["seams"] as? [[String: Any]] ?? []
            guard let seam = seams.first(where: { $0["id"] as? String == "net.request" }),
                let calls = seam["calls"] as? Int, let errors = seam["errors"] as? Int
            else { return nil }
            return (calls, errors, seam["behaviour"] as? String == "offline" && seam["layers"] != nil)
        }
        // The baseline works: the weather comes from the demo's loopback server, so requests counted before any
        // chaos are no errors (a closed port made 8 of 9 errors, and a guard tripped without chaos).
        let before = try await Poll.until(
            "requests counted on net.request with nothing applied", timeout: .seconds(20),
            interval: .milliseconds(500), lastSeen: { demo.process.errorText }
        ) { () -> (calls: Int, errors: Int, offline: Bool)? in
            guard let now = try counted(), now.calls >= 1 else { return nil }
            return now
        }
        #expect(before.errors == 0, "no errors without chaos: \(before)")
        #expect(try demo.mischief(["apply", "net.request", "offline", "--socket", demo.socket]).status == 0)

        // Before the guards revert it: every request counted since, an error (but one in flight at the apply).
        let failing = try await Poll.until(
            "failed requests counted on net.request", timeout: .seconds(20), interval: .milliseconds(500),
            lastSeen: { demo.process.errorText }
        ) { () -> (calls: Int, errors: Int, offline: Bool)? in
            guard let now = try counted(), now.offline, now.calls - before.calls >= 3 else { return nil }
            return now
        }
        #expect(
            failing.errors - before.errors >= failing.calls - before.calls - 1 && failing.errors - before.errors >= 2,
            "every request failed: \(before) then \(failing)")

        let tripped = try await Poll.until(
            "a network guard to trip", timeout: .seconds(40), interval: .milliseconds(500),
            lastSeen: { demo.process.errorText }
        ) { () -> [String]? in
            let json = try demo.mischief(["guard", "list", "--json", "--socket", demo.socket])
            let guards = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]] ?? []
            let states = guards.compactMap { $0["state"] as? String }
            return states.contains("tripped") ? states : nil
        }
        #expect(tripped.contains("tripped"), "\(tripped)")
        #expect(try demo.behaviour(of: "net.request") == nil, "the tripped guard reverted offline")
    }

    @Test func aGuardForAProfileNamesItAndAnUnknownProfileIsRefused() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let added = try demo.mischief([
            "guard", "add", "no-success(net.request) for 30s", "--profile", "Flaky network", "--socket", demo.socket,
        ])
        #expect(
            added.output == "guard 1 added: no-success(net.request) for 30s reverts profile Flaky network (armed)\n")
        let unknown = try demo.mischief([
            "guard", "add", "no-success(net.request) for 30s", "--profile", "Nope", "--socket", demo.socket,
        ])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("Nope"), "\(unknown.error)")
        let seam = try demo.mischief(["guard", "add", "check(clock.now)", "--socket", demo.socket])
        #expect(seam.status == 1)
        #expect(seam.error.contains("returns Bool"), "\(seam.error)")
    }

    @Test func aConditionThatDoesNotParseIsAUsageErrorWithTheColumn() throws {
        let directory = try HeadlessDemo.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HeadlessDemo.mischief(["guard", "add", "errors(net.request) > 50% for 10s"], in: directory)
        #expect(result.status == 64)
        let caret = String(repeating: " ", count: 2 + 26) + "^"  // under column 27, 'for'
        #expect(
            result.error.contains("expected 'over', found 'for'\n  errors(net.request) > 50% for 10s\n\(caret)\n"),
            "\(result.error)")
    }
}
