import Foundation

/// A type that can produce deterministic sample values for tests and chaos sessions.
///
/// Any `Codable` model gets the conformance for free (`extension User: Fixturable {}`), backed by
/// ``Fixtures/make(_:label:encoder:decoder:)``.
///
/// ```swift
/// extension User: Fixturable {}
/// let user = User.fixture { $0.name = "x" }
/// let other = User.fixture(label: "bob")
/// ```
public protocol Fixturable {
    /// The default fixture (label `"fixture"`).
    static var fixture: Self { get }
    /// A fixture that is always the same for the same label.
    static func fixture(label: String) -> Self
}

extension Fixturable {
    /// The fixture labelled `"fixture"`.
    public static var fixture: Self { fixture(label: "fixture") }

    /// The default fixture, adjusted by `modify`.
    public static func fixture(_ modify: (inout Self) -> Void) -> Self {
        fixture(label: "fixture", modify)
    }

    /// A labelled fixture, adjusted by `modify`.
    public static func fixture(label: String, _ modify: (inout Self) -> Void) -> Self {
        var value = fixture(label: label)
        modify(&value)
        return value
    }
}

extension Fixturable where Self: Decodable {
    /// Synthesised from the learned shape; traps if the model cannot be synthesised (see ``ModelShape``'s limits).
    public static func fixture(label: String) -> Self {
        do {
            return try Fixtures.make(Self.self, label: label)
        } catch {
            preconditionFailure("Cannot synthesise a fixture for \(Self.self): \(error)")
        }
    }
}

/// Strings as fixtures: the same value for the same label on every run and machine.
extension String: Fixturable {
    /// A readable slug such as `blue-otter-17`.
    public static func fixture(label: String) -> String {
        Fixtures.word(hash: StableHash.fnv1a(label))
    }
}

/// Booleans as fixtures: the same value for the same label on every run and machine.
extension Bool: Fixturable {
    /// `true` or `false`, from the label's hash.
    public static func fixture(label: String) -> Bool {
        StableHash.fnv1a(label) & 1 == 1
    }
}

/// Doubles as fixtures: the same value for the same label on every run and machine.
extension Double: Fixturable {
    /// A value in `0..<100` with two decimals.
    public static func fixture(label: String) -> Double {
        Double(StableHash.fnv1a(label) % 10_000) / 100
    }
}

/// Floats as fixtures: the same value for the same label on every run and machine.
extension Float: Fixturable {
    /// A value in `0..<100` with two decimals.
    public static func fixture(label: String) -> Float {
        Float(Double.fixture(label: label))
    }
}

/// Dates as fixtures: the same value for the same label on every run and machine.
extension Date: Fixturable {
    /// A whole-second date in 2020–2024.
    public static func fixture(label: String) -> Date {
        Fixtures.date(hash: StableHash.fnv1a(label))
    }
}

/// UUIDs as fixtures: the same value for the same label on every run and machine.
extension UUID: Fixturable {
    /// A UUID derived from the label's hash.
    public static func fixture(label: String) -> UUID {
        Fixtures.uuid(hash: StableHash.fnv1a(label))
    }
}

/// URLs as fixtures: the same value for the same label on every run and machine.
extension URL: Fixturable {
    /// `https://example.com/<slug>`.
    public static func fixture(label: String) -> URL {
        URL(string: "https://example.com/" + String.fixture(label: label))!
    }
}

/// Data as fixtures: the same value for the same label on every run and machine.
extension Data: Fixturable {
    /// The UTF-8 bytes of ``Swift/String/fixture(label:)``.
    public static func fixture(label: String) -> Data {
        Data(String.fixture(label: label).utf8)
    }
}

/// Arrays of fixtures: two elements, each with a label of its own.
extension Array: Fixturable where Element: Fixturable {
    /// Two elements, labelled `label[0]` and `label[1]`.
    public static func fixture(label: String) -> [Element] {
        [Element.fixture(label: label + "[0]"), Element.fixture(label: label + "[1]")]
    }
}

/// Optionals as fixtures: always a value.
extension Optional: Fixturable where Wrapped: Fixturable {
    /// Always `.some`, so fixtures are fully populated.
    public static func fixture(label: String) -> Wrapped? {
        .some(Wrapped.fixture(label: label))
    }
}

/// `Int` fixtures: a value in `0..<100` derived from the label.
extension Int: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> Int { integerFixture(label: label) }
}

/// `Int8` fixtures: a value in `0..<100` derived from the label.
extension Int8: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> Int8 { integerFixture(label: label) }
}

/// `Int16` fixtures: a value in `0..<100` derived from the label.
extension Int16: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> Int16 { integerFixture(label: label) }
}

/// `Int32` fixtures: a value in `0..<100` derived from the label.
extension Int32: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> Int32 { integerFixture(label: label) }
}

/// `Int64` fixtures: a value in `0..<100` derived from the label.
extension Int64: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> Int64 { integerFixture(label: label) }
}

/// `UInt` fixtures: a value in `0..<100` derived from the label.
extension UInt: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> UInt { integerFixture(label: label) }
}

/// `UInt8` fixtures: a value in `0..<100` derived from the label.
extension UInt8: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> UInt8 { integerFixture(label: label) }
}

/// `UInt16` fixtures: a value in `0..<100` derived from the label.
extension UInt16: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> UInt16 { integerFixture(label: label) }
}

/// `UInt32` fixtures: a value in `0..<100` derived from the label.
extension UInt32: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> UInt32 { integerFixture(label: label) }
}

/// `UInt64` fixtures: a value in `0..<100` derived from the label.
extension UInt64: Fixturable {
    /// A value in `0..<100`.
    public static func fixture(label: String) -> UInt64 { integerFixture(label: label) }
}

extension FixedWidthInteger {
    fileprivate static func integerFixture(label: String) -> Self {
        Self(truncatingIfNeeded: StableHash.fnv1a(label) % 100)
    }
}
