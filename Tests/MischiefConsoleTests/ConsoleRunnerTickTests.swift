import Foundation
import Testing

@testable import MischiefConsole

/// The periodic loads fall on whole multiples of the refresh period in wall-clock time, so the seconds the
/// console shows turn when the wall clock's do and the rate does not drift.
@Suite("ConsoleRunner: when loads fall")
struct ConsoleRunnerTickTests {
    /// The delay as whole microseconds, which is all a sleep can honour.
    func delay(_ seconds: Double, _ period: Duration) -> Int64 {
        let delay = ConsoleRunner.delay(after: Date(timeIntervalSince1970: seconds), toNextMultipleOf: period)
        return Int64((Double(delay.components.seconds) * 1e6 + Double(delay.components.attoseconds) * 1e-12).rounded())
    }

    @Test func aLoadFallsOnTheNextQuarterSecond() {
        #expect(delay(1_764_000_000.1, .milliseconds(250)) == 150_000)
        #expect(delay(1_764_000_000.9, .milliseconds(250)) == 100_000)
        #expect(delay(1_764_000_000.75, .milliseconds(250)) == 250_000)  // on a multiple: a whole period
    }

    @Test func aSecondsTurnIsAlwaysALoad() {
        // Whatever the phase a load starts at, the loads that follow it reach the next whole second exactly.
        for start in stride(from: 0.0, to: 1.0, by: 0.037) {
            var now = 1_764_000_000 + start
            while now.rounded(.down) == 1_764_000_000 { now += Double(delay(now, .milliseconds(250))) / 1e6 }
            #expect(abs(now - 1_764_000_001) < 1e-5, "from +\(start) s the loads reach \(now)")
        }
    }

    @Test func periodsThatDoNotDivideASecondAndDatesBefore1970() {
        #expect(delay(10.6, .milliseconds(300)) == 200_000)  // 10.6 = 35 × 0.3 + 0.1
        #expect(delay(-0.1, .milliseconds(250)) == 100_000)
        #expect(delay(5, .zero) == 0)
    }
}
