import Mischief
import Testing

@testable import MischiefConsole

/// Rates over whole seconds: data ten times a second no longer makes the Rate column flicker.
@Suite struct RateHistoryTests {
    typealias F = ConsoleFixtures

    @Test func framesTenTimesASecondMakeOneSamplePerSecond() throws {
        var state = ConsoleState()
        var data = F.data()
        let start = data.target.uptime
        var calls = data.seams[0].calls
        state.show(data)
        // A seam called twice a second, seen every 100 ms: one frame in five sees a call.
        for frame in 1...25 {
            data.target.uptime = start + .milliseconds(100 * frame)
            if frame % 5 == 0 { calls += 1 }
            data.seams[0].counters.calls = calls
            state.show(data)
        }
        let samples = try #require(state.rates[data.seams[0].id]?.samples)
        #expect(samples == [2, 2])
        #expect(state.rates[data.seams[0].id]?.latest == 2)
    }

    @Test func theDetailShowsTheRateOfTheWindowsTheRowShows() throws {
        // A seam called every two seconds (the demo's weather requests): windows of 1/s and 0/s in turn.
        var history = RateHistory()
        for second in 0..<8 { history.record(calls: second % 2 == 0 ? 1 : 0, over: .seconds(1)) }
        #expect(history.latest == 0)
        #expect(history.mean(ofLast: 6) == 0.5)
        #expect(RateHistory().mean(ofLast: 6) == nil)

        var state = ConsoleState()
        var data = F.data()
        let start = data.target.uptime
        state.show(data)
        for second in 1...8 {
            data.target.uptime = start + .seconds(second)
            if second % 2 == 0 { data.seams[0].counters.calls += 1 }
            state.show(data)
        }
        let detail = DetailView.fixedLines(of: data.seams[0], in: state).map { $0.map(\.text).joined() }
        #expect(detail.contains { $0.contains("rate 0.5/s") }, "\(detail)")
    }

    @Test func aWindowLongerThanASecondIsAveragedOverItsLength() {
        var history = RateHistory()
        history.record(calls: 3, over: .milliseconds(600))
        #expect(history.samples.isEmpty)
        history.record(calls: 3, over: .milliseconds(900))
        #expect(history.samples == [4])  // 6 calls in 1.5 s
        history.record(calls: 5, over: .zero)
        #expect(history.samples == [4])
    }
}
