/// A type that can make random values of itself, so ``Behaviour/random(seed:)`` works for it.
///
/// Numbers, booleans, strings and optionals of these conform. Conform your own model types to randomise them:
/// ```swift
/// extension Temperature: RandomValue {
///     static func random(using generator: inout some RandomNumberGenerator) -> Temperature {
///         Temperature(celsius: .random(in: -60...60, using: &generator))
///     }
/// }
/// ```
public protocol RandomValue: SendableMetatype {
    /// A random value, drawn from `generator`.
    static func random(using generator: inout some RandomNumberGenerator) -> Self
}

/// Random integers that favour the edges.
extension FixedWidthInteger where Self: RandomValue {
    /// Edge values most of the time (0, -1, 1, min, max), any value otherwise: what breaks code is the edges.
    public static func random(using generator: inout some RandomNumberGenerator) -> Self {
        let edges: [Self] = [0, 1, Self.min, Self.max] + (Self.isSigned ? [0 &- 1] : [])
        if Bool.random(using: &generator) {
            return edges[Int.random(in: 0..<edges.count, using: &generator)]
        }
        return Self.random(in: Self.min...Self.max, using: &generator)
    }
}

/// Random `Int`s: edge values half of the time.
extension Int: RandomValue {}
/// Random `Int8`s: edge values half of the time.
extension Int8: RandomValue {}
/// Random `Int16`s: edge values half of the time.
extension Int16: RandomValue {}
/// Random `Int32`s: edge values half of the time.
extension Int32: RandomValue {}
/// Random `Int64`s: edge values half of the time.
extension Int64: RandomValue {}
/// Random `UInt`s: edge values half of the time.
extension UInt: RandomValue {}
/// Random `UInt8`s: edge values half of the time.
extension UInt8: RandomValue {}
/// Random `UInt16`s: edge values half of the time.
extension UInt16: RandomValue {}
/// Random `UInt32`s: edge values half of the time.
extension UInt32: RandomValue {}
/// Random `UInt64`s: edge values half of the time.
extension UInt64: RandomValue {}

/// Random `Double`s: edge values half of the time.
extension Double: RandomValue {
    /// Edge values (0, -0, ±infinity, NaN, extremes) half of the time, a value in ±1e6 otherwise.
    public static func random(using generator: inout some RandomNumberGenerator) -> Double {
        let edges: [Double] = [0, -0.0, .infinity, -.infinity, .nan, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        if Bool.random(using: &generator) {
            return edges[Int.random(in: 0..<edges.count, using: &generator)]
        }
        return Double.random(in: -1e6...1e6, using: &generator)
    }
}

/// Random `Float`s, made from random `Double`s.
extension Float: RandomValue {
    /// A random `Double`, converted: edge values half of the time, a value in ±1e6 otherwise.
    public static func random(using generator: inout some RandomNumberGenerator) -> Float {
        Float(Double.random(using: &generator))
    }
}

/// Random `Bool`s.
extension Bool: RandomValue {}

/// Random strings that break layouts and parsers.
extension String: RandomValue {
    /// Strings that break layouts and parsers: empty, whitespace, very long, accented, emoji, right-to-left,
    /// or a random mix of these.
    public static func random(using generator: inout some RandomNumberGenerator) -> String {
        let samples = [
            "", " ", "\t\n", String(repeating: "W", count: 300), "Ünïcödé ñ", "👩‍👩‍👧‍👦🌋🚀",
            "مرحبا بالعالم", "東京都渋谷区", "Robert'); DROP TABLE users;--", "null", "%@ %d %n",
        ]
        if Int.random(in: 0..<3, using: &generator) > 0 {
            return samples[Int.random(in: 0..<samples.count, using: &generator)]
        }
        let alphabet = Array("aZ09 _-é東🌋\u{202E}")
        let length = Int.random(in: 1...40, using: &generator)
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}

/// Random optionals: nil or a random value.
extension Optional: RandomValue where Wrapped: RandomValue {
    /// nil a quarter of the time, a random value otherwise.
    public static func random(using generator: inout some RandomNumberGenerator) -> Wrapped? {
        Int.random(in: 0..<4, using: &generator) == 0 ? nil : Wrapped.random(using: &generator)
    }
}
