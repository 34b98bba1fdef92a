import Foundation
import Mischief
import MischiefCatalog
import MischiefNetwork

/// The example app's seams, with ids of their own, registered in a registry the example owns: its traits name
/// seams there, and nothing another test target applies reaches them.
///
/// An app would use `ChaosClock.shared`, a `location.current` seam and `ChaosNetwork.shared` (`net.request`) in
/// `Registry.shared`; tests give them ids of their own so they never meet another suite's changes.
enum Example {
    /// Where specs name the seams below: `.mischief("example.net", "offline", registry: Example.registry)`.
    static var registry: Registry { seams.registry }
    /// The app's clock (`example.clock`): dates and sleeps.
    static var clock: ChaosClock { seams.clock }
    /// A clock for the one test that moves virtual time (`example.polling-clock`); see that test for why it has a
    /// clock of its own.
    static var pollingClock: ChaosClock { seams.pollingClock }
    /// Where the app thinks it is (`example.location`); really in Lisbon.
    static var location: ChaosLocation { seams.location }
    /// The weather service's requests (`example.net`, the app's `net.request`).
    static var network: ChaosNetwork { seams.network }

    /// A model over the example's seams and `store`.
    static func model(store: any WeatherStore, clock: ChaosClock = clock) -> WeatherViewModel {
        WeatherViewModel(clock: clock, location: location, network: network, store: store)
    }

    /// What the weather service answers, as a spec and as a response.
    static let sunny = #"respond(body: {"summary": "sunny", "celsius": 21})"#
    static func answer(_ summary: String, _ celsius: Int) -> NetworkResponse {
        .reply(status: 200, body: Data(#"{"summary": "\#(summary)", "celsius": \#(celsius)}"#.utf8))
    }

    /// 2030-01-01T00:00:00Z.
    static let newYear2030 = Date(timeIntervalSince1970: 1_893_456_000)

    /// Made once, on first use; the network family needs its registry when it is made, so they are made together.
    private static let seams = Seams()

    private struct Seams: Sendable {
        let registry = Registry(sessionSeed: 1)
        let clock = ChaosClock(id: "example.clock")
        let pollingClock = ChaosClock(id: "example.polling-clock")
        let location: ChaosLocation
        let network: ChaosNetwork

        init() {
            let clock = clock
            location = ChaosLocation(id: "example.location", now: { clock.peekDate() }) {
                Cities.named("Lisbon")!.coordinate(at: clock.peekDate())
            }
            network = ChaosNetwork(id: "example.net", registry: registry)
            try! registry.register(clock.seam, pollingClock.seam, location.seam, network.seam)
        }
    }
}
