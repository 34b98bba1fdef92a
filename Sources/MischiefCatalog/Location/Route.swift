import Foundation
import Mischief

/// Plays a ``GPXTrack`` back as a moving position, for `location.*` seams that make the target "travel".
///
/// Playback follows the track's own timestamps when every point has one (elapsed time is measured from the
/// first point's time, and `speed` is ignored); otherwise it moves at a steady `speed` (m/s) along the
/// great-circle distances between points.
///
/// Between two neighbouring points the position is interpolated **linearly in latitude and longitude**
/// (taking the short way across the antimeridian). For the short legs of a recorded track this differs from
/// the great circle by centimetres; on legs of hundreds of kilometres it drifts from the true great circle,
/// which is harmless for faking a location. Course is the leg's initial great-circle bearing and speed the
/// leg's length over its duration.
///
/// ```swift
/// let route = try Route(track: track, speed: 1.4, loop: true)      // walking pace, round and round
/// let fix = route.position(at: clock.now - start, now: Date())
/// ```
public struct Route: Sendable {
    /// The points in playback order.
    public let points: [GPXTrack.Point]
    /// Whether playback wraps around to the start after the end.
    public let loop: Bool
    /// The accuracy (metres) reported on every fix.
    public var horizontalAccuracy: Double = 5
    /// Seconds from the start at which each point is reached; non-decreasing, starting at 0.
    private let offsets: [Double]

    /// Prepares playback of `track`.
    ///
    /// - Parameters:
    ///   - track: The track or route to play back.
    ///   - speed: Metres per second; required when some point lacks a `<time>`, ignored otherwise.
    ///   - loop: Whether to start over after the last point instead of staying there.
    /// - Throws: ``GPXError`` (labelled with the track's name, line 0) when the track is empty, when `speed`
    ///   is needed but missing or not positive, or when timestamps go backwards.
    public init(track: GPXTrack, speed: Double?, loop: Bool) throws(GPXError) {
        let label = track.name ?? "track"
        guard let first = track.points.first else {
            throw GPXError(file: label, line: 0, message: "no track or route points")
        }
        var offsets: [Double] = []
        offsets.reserveCapacity(track.points.count)
        let times = track.points.compactMap(\.time)
        if times.count == track.points.count, let start = first.time {
            for (index, time) in times.enumerated() {
                let offset = time.timeIntervalSince(start)
                if let previous = offsets.last, offset < previous {
                    throw GPXError(
                        file: label,
                        line: 0,
                        message: "timestamps go backwards at point \(index + 1) of \(times.count)"
                    )
                }
                offsets.append(offset)
            }
        } else {
            guard let speed else {
                let missing = track.points.count - times.count
                throw GPXError(
                    file: label,
                    line: 0,
                    message: "\(missing) of \(track.points.count) points have no <time>; "
                        + "give a playback speed in m/s (e.g. 1.4 for walking, 13.9 for 50 km/h)"
                )
            }
            guard speed.isFinite, speed > 0 else {
                throw GPXError(file: label, line: 0, message: "playback speed must be positive, got \(speed) m/s")
            }
            var travelled = 0.0
            offsets.append(0)
            for (a, b) in zip(track.points, track.points.dropFirst()) {
                travelled += Geodesy.distance((a.latitude, a.longitude), (b.latitude, b.longitude))
                offsets.append(travelled / speed)
            }
        }
        self.points = track.points
        self.offsets = offsets
        self.loop = loop
    }

    /// How long one pass along the track takes.
    public var duration: Duration {
        .seconds(offsets.last ?? 0)
    }

    /// The position `elapsed` after the start of playback, stamped `now`.
    ///
    /// Before the start the position is the first point; after the end it is the last point (both standing
    /// still: speed 0, no course), or, when looping, playback wraps around to the start.
    public func position(at elapsed: Duration, now: Date) -> Coordinate {
        let total = offsets[offsets.count - 1]
        var t = elapsed.seconds
        if loop && total > 0 && t >= total {
            t = t.truncatingRemainder(dividingBy: total)
        }
        guard t >= 0, total > 0 else {
            return standing(at: points[0], now: now)
        }
        guard t < total else {
            return standing(at: points[points.count - 1], now: now)
        }
        // The leg [index, index + 1] with offsets[index] <= t < offsets[index + 1].
        var low = 0, high = offsets.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if offsets[middle] <= t { low = middle } else { high = middle }
        }
        let a = points[low], b = points[low + 1]
        let legDuration = offsets[low + 1] - offsets[low]
        let fraction = legDuration > 0 ? (t - offsets[low]) / legDuration : 0
        var deltaLongitude = b.longitude - a.longitude
        if deltaLongitude > 180 { deltaLongitude -= 360 }
        if deltaLongitude < -180 { deltaLongitude += 360 }
        let legLength = Geodesy.distance((a.latitude, a.longitude), (b.latitude, b.longitude))
        let course =
            legLength > 0
            ? Geodesy.bearing(from: (a.latitude, a.longitude), to: (b.latitude, b.longitude))
            : nil
        var altitude: Double?
        if let from = a.elevation, let to = b.elevation {
            altitude = from + (to - from) * fraction
        }
        return Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * fraction,
            longitude: Geodesy.normalizedLongitude(a.longitude + deltaLongitude * fraction),
            altitude: altitude,
            horizontalAccuracy: horizontalAccuracy,
            course: course,
            speed: legDuration > 0 ? legLength / legDuration : 0,
            timestamp: now
        )
    }

    /// A stationary fix at `point`.
    private func standing(at point: GPXTrack.Point, now: Date) -> Coordinate {
        Coordinate(
            latitude: point.latitude,
            longitude: point.longitude,
            altitude: point.elevation,
            horizontalAccuracy: horizontalAccuracy,
            course: nil,
            speed: 0,
            timestamp: now
        )
    }
}
