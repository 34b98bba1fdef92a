import Foundation

extension ChaosClock {
    /// A moment in chaos time: a duration since 1970-01-01T00:00:00Z, as the target sees it.
    ///
    /// The same reading as a `Date` is ``date``, so `clock.now.date` and `clock.date` agree.
    /// ```swift
    /// let deadline = clock.now.advanced(by: .seconds(30))
    /// try await clock.sleep(until: deadline)
    /// ```
    public struct Instant: InstantProtocol, Codable, Hashable, Sendable, CustomStringConvertible {
        /// The time since 1970-01-01T00:00:00Z (negative before it).
        public var durationSince1970: Duration

        /// The instant `durationSince1970` after 1970-01-01T00:00:00Z.
        public init(durationSince1970: Duration) {
            self.durationSince1970 = durationSince1970
        }

        /// The instant of a date.
        public init(_ date: Date) {
            self.init(durationSince1970: Instants.duration(date))
        }

        /// The same moment as a `Date` (to the precision a `Date` keeps, about a microsecond today).
        public var date: Date {
            Instants.date(durationSince1970)
        }

        /// The instant `duration` later (earlier when negative).
        public func advanced(by duration: Duration) -> Instant {
            Instant(durationSince1970: durationSince1970 + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.durationSince1970 - durationSince1970
        }

        /// Earlier instants are smaller.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.durationSince1970 < rhs.durationSince1970
        }

        /// The ISO 8601 text in UTC, such as `2030-01-01T00:00:00Z`.
        public var description: String {
            Instants.text(durationSince1970)
        }
    }
}
