import Foundation
import Mischief
import MischiefLiveTests
import MischiefTesting
import Testing
import Warehouse

/// Slow tests that run in parallel, each taking stock for `LIVE_SAMPLE_SECONDS` (3 by default). With
/// `MISCHIEF_SERVE=1` each is a scope a console lists and changes alone (`.liveTests`).
@Suite(.liveTests)
struct WarehouseTests {
    /// How many counts each test takes, 100 ms apart.
    static let rounds: Int = {
        let seconds = ProcessInfo.processInfo.environment["LIVE_SAMPLE_SECONDS"].flatMap(Double.init) ?? 3
        return max(1, Int(seconds * 10))
    }()

    init() throws { try Warehouse.registerSeams() }

    @Test func countsApples() async throws {
        let counts = try await Warehouse.takeStock(of: "apple", rounds: Self.rounds, every: .milliseconds(100))
        #expect(counts.allSatisfy { $0 == 50 })
    }

    @Test func countsPears() async throws {
        let counts = try await Warehouse.takeStock(of: "pear", rounds: Self.rounds, every: .milliseconds(100))
        #expect(counts.allSatisfy { $0 == 40 })
    }

    // A trait's layer: the console shows it in this test's scope, with the source `test: NAME`. Given the seam itself,
    // as a trait runs before the suite's `init` registers it.
    @Test(.mischief(.spec(Warehouse.shelf, #"return("B2")"#)))
    func shelvesPlums() async throws {
        let counts = try await Warehouse.takeStock(of: "plum", rounds: Self.rounds, every: .milliseconds(100))
        #expect(counts.allSatisfy { $0 == 40 })
        #expect(Warehouse.shelf("plum") == "B2")
    }
}
