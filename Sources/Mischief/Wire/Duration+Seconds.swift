extension Duration {
    /// The duration in seconds, with the fraction: the one conversion from `Duration` to a number of seconds in
    /// the package (JSON fields, rates, benchmarks, dates). `package`, so apps that embed Mischief do not get it.
    package var seconds: Double {
        let (seconds, attoseconds) = components  // one 128-bit division, not two
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension KeyedDecodingContainer {
    /// A duration written as a number of seconds.
    func decodeSeconds(forKey key: Key) throws -> Duration {
        .seconds(try decode(Double.self, forKey: key))
    }
}
