import Mischief
import MischiefConsole
import Testing

/// Rates over whole seconds: data ten times a second no longer makes the Rate column flicker.
@Suite struct RateHistoryTests {
    typealias F = ConsoleFixtures

    @Test func framesTenTimesASecondMakeOneSamplePerSecond() throws {
        var state = ConsoleState()
        var data = F.data()
        let start = data.target.uptime
        var calls = data.seams[0].calls
        _ = Console.update(&state, .data(data))
        // A seam called twice a second, seen every 100 ms: one frame in five sees a call.
        for frame in 1...25 {
            data.target.uptime = start + .milliseconds(100 * frame)
            if frame % 5 == 0 { calls += 1 }
            data.seams[0].counters.calls = calls
            _ = Console.update(&state, .data(data))
        }
        let samples = try #require(state.rates[data.seams[0].id]?.samples)
        #expect(samples == [2, 2])
        #expect(state.rates[data.seams[0].id]?.latest == 2)
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
