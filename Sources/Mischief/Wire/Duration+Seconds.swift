extension Duration {
    /// The duration in seconds, with the fraction: the one conversion from `Duration` to a number of seconds in
    /// the package (JSON fields, rates, benchmarks, dates). `package`, so apps that embed Mischief do not get it.
    package var seconds: Double {
        let (seconds, attoseconds) = components  // one 128-bit division, not two
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension KeyedDecodingContainer {
    /// A duration written as a number of seconds, to the nanosecond: the durations Mischief writes are whole
    /// nanoseconds, and `.seconds(Double)` would keep the Double's error in attoseconds, so a value read back would
    /// not equal the one written. Beyond what an `Int64` of nanoseconds holds (some 292 years) it is clamped.
    func decodeSeconds(forKey key: Key) throws -> Duration {
        let seconds = try decode(Double.self, forKey: key)
        let whole = seconds.rounded(.towardZero)
        guard whole.magnitude < 9.2e9 else { return .seconds(seconds.isNaN ? 0 : seconds < 0 ? -9.2e9 : 9.2e9) }
        return .seconds(Int64(whole)) + .nanoseconds(Int64(((seconds - whole) * 1e9).rounded()))
    }
}
