import Foundation
import Mischief
import MischiefCatalog
import MischiefNetwork
import MischiefTestSupport
import MischiefTesting
import Testing

/// A worked example: testing a view model the way an app's tests would, with its clock, location and network
/// changed for one test at a time, and its store a strict mock.
///
/// Each `.mischief` trait applies its changes to the test's own task tree, so these tests run in parallel even
/// though they change the same seams differently, and the expectations (`expect(…)`) are checked when the test
/// ends.
@Suite("Worked example: a weather view model")
struct WeatherViewModelTests {
    /// Lisbon's report as the store keeps it, fetched at `fetched`.
    static func saved(_ summary: String, _ celsius: Int, fetched: Date) -> WeatherReport {
        WeatherReport(place: "Lisbon, Portugal", summary: summary, celsius: celsius, fetched: fetched)
    }

    @Test(
        "a trait shifts the clock: a report saved just now reads as two hours old, so it is fetched again",
        .mischief(
            .spec("example.clock", "shift(+2h)"), .spec("example.net", Example.sunny), registry: Example.registry))
    func shiftedClock() async {
        let store = MockWeatherStore()
        // Saved now by the real clock; the test's clock runs two hours ahead of it.
        store.lastReportMock.when(.equal("Lisbon, Portugal")).returns(Self.saved("fog", 14, fetched: Date()))
        store.saveMock.returns(())
        let model = Example.model(store: store)

        model.load()
        #expect(model.headline == "Lisbon, Portugal · fog, 14 °C")
        #expect(model.updated == "updated 2 h ago")
        #expect(model.isStale)

        await model.refreshIfStale()
        #expect(model.headline == "Lisbon, Portugal · sunny, 21 °C")
        #expect(model.updated == "updated just now")
        expect(store.saveMock, .exactly(1))
    }

    @Test(
        "a spoofed location: the weather is asked for Tokyo and shown for Tokyo",
        .mischief(
            .spec("example.location", #"city("Tokyo")"#), .spec("example.net", Example.sunny),
            registry: Example.registry))
    func spoofedLocation() async {
        let store = MockWeatherStore()
        store.saveMock.returns(())
        let model = Example.model(store: store)
        expect(
            Example.network.seam, .exactly(1),
            where: .predicate("a request for Tokyo") { $0.url.query == "lat=35.6762&lon=139.6503" })

        await model.refresh()
        #expect(model.headline == "Tokyo, Japan · sunny, 21 °C")
        expect(store.saveMock, .exactly(1), where: .predicate("Tokyo's report") { $0.place == "Tokyo, Japan" })
    }

    @Test(
        "no location, in the typed form: the model says so, and asks neither the service nor the store",
        .mischief(Example.location.seam, .throwing(.unavailable)))
    func noLocation() async {
        let store = MockWeatherStore()  // strict, nothing stubbed: any call to the store fails the test
        let model = Example.model(store: store)
        expect(Example.network.seam, .never)

        await model.refresh()
        #expect(model.status == .failed("location unavailable"))
        #expect(model.report == nil)
    }

    @Test(
        "offline: the model shows the error over the last saved report, and saves nothing",
        .mischief("example.net", "offline", registry: Example.registry))
    func offline() async {
        let store = MockWeatherStore()
        let saved = Self.saved("fog", 14, fetched: Example.clock.date)
        store.lastReportMock.returns(saved)
        let model = Example.model(store: store)

        model.load()
        await model.refresh()
        #expect(model.status == .failed("offline (no connection)"))
        #expect(model.report == saved)
        expect(store.saveMock, .never)
        expect(Example.network.seam, .exactly(1))
    }

    @Test(
        "the strict mock: the model saves what it fetched, once, stamped with the clock's time",
        .mischief(
            .spec("example.clock", "freeze(2030-01-01T08:00:00Z)"), .spec("example.net", Example.sunny),
            registry: Example.registry))
    func savesWhatItFetched() async {
        let store = MockWeatherStore()
        store.saveMock.returns(())
        store.unitMock.returns(.fahrenheit)
        let model = Example.model(store: store)
        let eight = Example.newYear2030.addingTimeInterval(8 * 3600)

        await model.refresh()
        expect(store.saveMock, .exactly(1), where: .equal(Self.saved("sunny", 21, fetched: eight)))
        expect(Example.location.seam, calledBefore: Example.network.seam)
        #expect(model.headline == "Lisbon, Portugal · sunny, 70 °F")
        #expect(store.unitMock.getCount == 1)
        #expect(store.lastReportMock.callCount == 0)
    }

    @Test(
        "a store that cannot save: the weather is still shown, and the failure said",
        .mischief("example.net", Example.sunny, registry: Example.registry))
    func saveFails() async {
        struct DiskFull: Error, CustomStringConvertible {
            var description: String { "disk full" }
        }
        let store = MockWeatherStore()
        store.saveMock.throws(DiskFull())
        let model = Example.model(store: store)

        await model.refresh()
        #expect(model.headline == "Lisbon, Portugal · sunny, 21 °C")
        #expect(model.status == .failed("not saved: disk full"))
    }

    @Test("virtual time: the model refreshes every ten minutes, and a failure in between does not stop it", .mischief())
    func refreshesEveryTenMinutes() async throws {
        // Virtual time is applied to the example's registry, not to the test's scope: a clock's sleepers are woken by
        // the registry's timeline (`advance` moves that one), so a scoped `virtual` would stop the dates but not let
        // `advance` move them. That is why this test has a clock of its own, which no other test reads.
        //
        // `advance` here uses the clock's yield heuristic (the default): after resuming the loop's sleep it waits
        // until the loop sleeps again, or up to `settleYields` yields once it has returned. The loop sleeps again
        // after each refresh, and nothing in a refresh waits for real I/O (the network is stubbed), so the
        // heuristic's guess is never needed. With an executor-backed exact mode, switch `ChaosClock(id:)` for it in
        // `Example` and nothing else here changes.
        let clock = Example.pollingClock
        let network = stub(Example.network.seam)
        network.returns(sequence: [Example.answer("sunny", 21), .offline, Example.answer("rain", 12)])
        let store = MockWeatherStore()
        store.saveMock.returns(())
        let model = Example.model(store: store, clock: clock)

        try await Example.registry.withMischief([Change(clock.seam, .virtual(from: Example.newYear2030))]) {
            model.startRefreshing(every: .seconds(600))
            // The first refresh is done and the loop sleeps (within a minute, or the test fails saying so).
            try await Deadline.wait(for: "the refresh loop to sleep") { await clock.waitUntilSleeping(1) }
            #expect(model.headline == "Lisbon, Portugal · sunny, 21 °C")

            await clock.advance(by: .seconds(600))
            #expect(model.status == .failed("offline (no connection)"))
            #expect(model.updated == "updated 10 min ago")

            await eventually(advancing: clock, by: .seconds(60), within: .seconds(3600)) {
                model.headline == "Lisbon, Portugal · rain, 12 °C"
            }
            #expect(clock.date == Example.newYear2030.addingTimeInterval(1200))
            #expect(model.updated == "updated just now")
            await model.stopRefreshing()
        }
        expect(Example.network.seam, .exactly(3))
        expect(store.saveMock, .exactly(2))
    }
}
