extension Duration {
    /// The duration in seconds, as JSON carries it (`Duration`'s own coding is a pair of integers).
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension KeyedDecodingContainer {
    /// A duration written as a number of seconds.
    func decodeSeconds(forKey key: Key) throws -> Duration {
        .seconds(try decode(Double.self, forKey: key))
    }
}
