import Foundation
import MischiefTestSupport
import Testing

/// `mischief apply … --ttl`: the target reverts the change by itself when the time is up, `list` shows the time
/// left, and a bad duration is a usage error.
@Suite(.oneAtATime) struct TTLCLITests {
    @Test func applyWithATTLShowsTheTimeLeftAndTheTargetRevertsItByItself() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }

        let lasting = try demo.mischief(["apply", "clock.now", "shift(+1d)", "--ttl", "10m", "--socket", demo.socket])
        #expect(lasting.status == 0, "\(lasting.error)")
        #expect(lasting.output == "clock.now: shift(1d) (reverts in 10m)\n")

        let table = try demo.mischief(["list", "--socket", demo.socket])
        let row = table.output.split(separator: "\n").first { $0.hasPrefix("  clock.now ") }.map(String.init)
        #expect(row?.contains("shift(1d)  (expires in ") == true, "\(table.output)")

        let json = try demo.mischief(["list", "--json", "--socket", demo.socket])
        let listings = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let seams = try #require(listings.first?["seams"] as? [[String: Any]])
        let clock = try #require(seams.first { $0["id"] as? String == "clock.now" })
        let layer = try #require((clock["layers"] as? [[String: Any]])?.last)
        #expect(layer["ttl"] as? Double == 600)
        let left = try #require(layer["expiresIn"] as? Double)
        #expect(left > 0 && left <= 600)

        // A short one runs out while nobody is attached: the target's own thread reverts it.
        let brief = try demo.mischief([
            "apply", "location.current", #"city("Paris")"#, "--ttl", "1s", "--socket", demo.socket,
        ])
        #expect(brief.status == 0, "\(brief.error)")
        let expired = try await Poll.until(
            "location.current to expire", lastSeen: { String(describing: try? demo.events(5)) }
        ) {
            try demo.events(50).first { ($0["message"] as? String)?.contains("expired after its ttl of 1s") == true }
        }
        #expect(expired["seam"] as? String == "location.current")
        #expect(try demo.behaviour(of: "location.current") == nil)
        #expect(try demo.behaviour(of: "clock.now") == "shift(1d)")  // its ttl has a while to go
    }

    @Test(arguments: [
        ("0s", "--ttl: a ttl must be more than 0s and at most 1d, not 0s"),
        ("2d", "--ttl: a ttl must be more than 0s and at most 1d, not 2d"),
        ("soon", "--ttl: expected a duration such as 30s, 10m or 1h, not 'soon'"),
    ])
    func aBadTTLIsAUsageError(_ ttl: String, _ message: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-ttl-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HeadlessDemo.mischief(["apply", "clock.now", "freeze", "--ttl", ttl], in: directory)
        #expect(result.status == 64)
        #expect(result.error.contains(message), "\(result.error)")
    }
}
