import Foundation
import Mischief
import Synchronization

/// The `location.*` family: where the target thinks it is.
///
/// Linux has no CoreLocation, so the seam *is* how a target asks "where am I": it supplies the original (a fix
/// from its own configuration, a GPS daemon, an IP lookup) and routes every question through ``current()``.
///
/// ```swift
/// let location = ChaosLocation { Cities.named("Lisbon")!.coordinate(at: ChaosClock.shared.date) }
/// try Registry.shared.register(location.seam)
///
/// try Registry.shared.apply(spec: #"city("Tokyo") + jitter(30)"#, to: "location.current")
/// let here = try location.current()          // within 30 m of Tokyo's centre
/// ```
///
/// Actions: `coordinate(lat, lon)`, `city("Name")` from ``Cities``, `random-city(seed: N)`,
/// `route(path: "walk.gpx", speed: 1.4, loop)` played back on the chaos clock (virtual time moves it too),
/// `jitter(metres)` (composes with the others: `city("Oslo") + jitter(50)`) and `unavailable`.
public final class ChaosLocation: Sendable {
    /// The seam the target's "where am I" goes through.
    public let seam: Seam<Void, Coordinate, LocationError>

    /// Declares the location seam.
    ///
    /// `original` has no default, so a trailing closure is always the original (`ChaosLocation { … }`) and
    /// never the clock; a target that does not know where it is throws ``LocationError/unavailable`` from it.
    ///
    /// - Parameters:
    ///   - id: The seam's id.
    ///   - now: The chaos clock's time, read without counting; routes and fix timestamps follow it.
    ///   - original: Where the target really is.
    public init(
        id: SeamID = "location.current",
        now: @escaping @Sendable () -> Date = { ChaosClock.shared.peekDate() },
        original: @escaping @Sendable () throws(LocationError) -> Coordinate
    ) {
        seam = Seam(
            id, title: "Current location", category: "Location",
            summary: "Where the target thinks it is (latitude, longitude, accuracy, course, speed)",
            makeError: { LocationError(message: $0) },
            actions: ChaosLocation.actions(now: now),
            original: { () throws(LocationError) in try original() })
    }

    /// Where the target is, as the seam says (one counted call).
    public func current() throws(LocationError) -> Coordinate {
        try seam(())
    }

    // MARK: Actions

    typealias Action = SeamAction<Void, Coordinate, LocationError>

    static func actions(now: @escaping @Sendable () -> Date) -> [Action] {
        [
            .produce(
                ActionSignature(
                    "coordinate", summary: "a fixed position",
                    parameters: [
                        .init("lat", .number, step: .number(0.01), summary: "latitude in degrees, −90…90"),
                        .init("lon", .number, summary: "longitude in degrees, −180…180"),
                    ], composes: true)
            ) { (action, context) throws(SpecError) in
                let latitude = action.number("lat")!, longitude = action.number("lon")!
                guard (-90...90).contains(latitude) else {
                    throw context.error("latitude must be between -90 and 90", argument: "lat", of: action)
                }
                guard (-180...180).contains(longitude) else {
                    throw context.error("longitude must be between -180 and 180", argument: "lon", of: action)
                }
                return .closure { _ in
                    Coordinate(latitude: latitude, longitude: longitude, horizontalAccuracy: 5, timestamp: now())
                }
            },
            .produce(
                ActionSignature(
                    "city", summary: "the centre of a city from the built-in list",
                    parameters: [
                        .init(
                            "name", .string, summary: "e.g. \"São Paulo\"; case and accents are ignored",
                            suggestions: Cities.all.map(\.name))
                    ],
                    composes: true)
            ) { (action, context) throws(SpecError) in
                let name = action.string("name")!
                guard let city = Cities.named(name) else {
                    let hint = Cities.suggestion(for: name).map { "; did you mean \"\($0)\"?" } ?? ""
                    throw context.error("no city named \"\(name)\" in the list\(hint)", argument: "name", of: action)
                }
                return .closure { _ in city.coordinate(at: now()) }
            },
            .produce(
                ActionSignature(
                    "random-city", summary: "a city chosen by a seed: the same seed, the same city",
                    parameters: [
                        .init(
                            "seed", .integer, default: .null, step: .integer(1),
                            summary: "the seed; default: the profile's or session's")
                    ],
                    composes: true)
            ) { action, context in
                let seed = action.integer("seed").map { UInt64(bitPattern: Int64($0)) } ?? context.randomSeed
                let city = Cities.random(seed: seed)
                return .closure { _ in city.coordinate(at: now()) }
            },
            .produce(
                ActionSignature(
                    "route", summary: "travels along a GPX track or route, on the chaos clock",
                    parameters: [
                        .init("path", .string, summary: "a GPX 1.1 file"),
                        .init(
                            "speed", .number, default: .null, step: .number(1),
                            summary: "metres per second where the track has no timestamps"),
                        .init("loop", .flag, summary: "start over at the end"),
                    ], composes: true)
            ) { (action, context) throws(SpecError) in
                let path = action.string("path")!
                let bytes = try context.readFile(path, limit: GPXTrack.maxBytes, argument: "path", of: action)
                let route: Route
                do throws(GPXError) {
                    let track = try GPXTrack.parse(bytes, file: path)
                    route = try Route(track: track, speed: action.number("speed"), loop: action.flag("loop"))
                } catch {
                    throw context.error(error.description, argument: "path", of: action)
                }
                let start = now()
                return .closure { _ in
                    let time = now()
                    let elapsed = Duration.milliseconds(Int64((time.timeIntervalSince(start) * 1000).rounded()))
                    return route.position(at: elapsed, now: time)
                }
            },
            .transform(
                ActionSignature(
                    "jitter", summary: "GPS noise: each fix moves up to this far, reproducibly",
                    parameters: [
                        .init("metres", .number, step: .number(10), summary: "the largest displacement"),
                        .init(
                            "seed", .integer, default: .null, summary: "the seed; default: the profile's or session's"),
                    ], composes: true)
            ) { action, context in
                let seed = action.integer("seed").map { UInt64(bitPattern: Int64($0)) } ?? context.randomSeed
                let jitter = Jitter(metres: action.number("metres")!, seed: seed)
                let calls = Atomic<Int>(0)
                return { coordinate in
                    jitter.apply(to: coordinate, callIndex: calls.add(1, ordering: .relaxed).oldValue)
                }
            },
            .produce(ActionSignature("unavailable", summary: "throws \"location unavailable\"", composes: true)) {
                _, _ in .throwing(LocationError.unavailable)
            },
        ]
    }
}

/// Why the target has no location.
public struct LocationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// An error with `message`.
    public init(message: String) { self.message = message }

    /// The device cannot tell where it is.
    public static let unavailable = LocationError(message: "location unavailable")

    /// The message, such as "location unavailable".
    public var description: String { message }
}
