import Foundation

/// What the upstream answers on `/price`: decoded through the `model.quote.decode` seam, so `randomize`, `nulls`
/// and `extremes` reach it.
struct Quote: Codable, Sendable {
    var symbol: String
    var price: Double
    var currency: String
}

/// A bearer token as a JWT library would check it: with `Date()`, which only `system.clock` reaches.
struct LibraryToken: Sendable {
    let expires: Date

    /// What the library says of it now (its own `Date()`, not the service's clock).
    var isExpired: Bool { Date() >= expires }
}

/// The service's own session: its expiry read from the catalogue clock (`clock.now`), as code written for Mischief
/// reads time.
struct Session: Sendable {
    let expires: Date
}
