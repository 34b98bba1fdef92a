import Foundation
import Mischief
import MischiefCatalog
import Testing

@testable import MischiefDemo

/// The plain fetch `mischief demo --system` shows: a plain URLSession (no MischiefNetwork) against the demo's own
/// loopback server. Here without system seams: what it shows when the network answers, and when it refuses.
@Suite struct DemoPlainFetchTests {
    @Test func itFetchesTwoHundredFromItsOwnLoopbackServer() async {
        let fetch = DemoPlainFetch()
        defer { fetch.stop() }
        #expect(fetch.line == DemoPlainFetch.prefix + "waiting")
        await fetch.fetch()
        guard case .answered(let status, let milliseconds) = fetch.latest else {
            Issue.record("no answer: \(fetch.line)")
            return
        }
        #expect(status == 200)
        #expect(fetch.line == DemoPlainFetch.prefix + "200 OK in \(milliseconds) ms")
        // Each fetch is a new connection on a session of its own: the server answers every one.
        await fetch.fetch()
        #expect(fetch.line.hasPrefix(DemoPlainFetch.prefix + "200 OK in "), "\(fetch.line)")
    }

    @Test func aRefusedConnectionIsSaidSo() async {
        // Port 9 on loopback: nothing listens, so the connection is refused at once and nothing leaves the machine.
        let result = await DemoPlainFetch.fetch(URL(string: "http://127.0.0.1:9/plain")!)
        #expect(result == .failed("connection refused"))
        #expect(DemoPlainFetch.describe(result) == "failed: connection refused")
    }

    @Test func theScreenShowsTheLineOnlyOnceAsked() throws {
        let demo = try DemoTarget(registry: Registry(sessionSeed: 1), clock: ChaosClock(id: "clock.now"))
        let text = { demo.screen().lines.map(\.text) }
        #expect(!text().contains { $0.hasPrefix(DemoPlainFetch.prefix) })
        demo.showPlainFetch()
        #expect(text().contains(DemoPlainFetch.prefix + "waiting"))
    }
}
