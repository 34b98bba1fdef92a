import Foundation

// Containers and the other values models commonly hold. Each element is made from a label of its own, derived
// from the container's label by position (`label[0]`, `label[1].key`), never from hashing order, so a fixture is
// the same on every run and machine even for `Set` and `Dictionary`, whose iteration order Swift randomises per
// process.

/// Sets of fixtures: two distinct elements when the element type has two values to give.
extension Set: Fixturable where Element: Fixturable {
    /// The elements labelled `label[0]`, `label[1]`, …, in that order, until two are distinct (at most eight tries,
    /// so a type with one value gives a set of one).
    public static func fixture(label: String) -> Set<Element> {
        var elements = Set<Element>()
        for index in 0..<Fixtures.containerAttempts where elements.count < 2 {
            elements.insert(Element.fixture(label: "\(label)[\(index)]"))
        }
        return elements
    }
}

/// Dictionaries of fixtures: two entries when the key type has two values to give.
extension Dictionary: Fixturable where Key: Fixturable, Value: Fixturable {
    /// Entry `i` has the key labelled `label[i].key` and the value labelled `label[i].value`; entries are tried
    /// for `i` = 0, 1, … until two keys are distinct (at most eight tries), and a repeated key keeps its first value.
    public static func fixture(label: String) -> [Key: Value] {
        var entries: [Key: Value] = [:]
        for index in 0..<Fixtures.containerAttempts where entries.count < 2 {
            let key = Key.fixture(label: "\(label)[\(index)].key")
            if entries[key] == nil { entries[key] = Value.fixture(label: "\(label)[\(index)].value") }
        }
        return entries
    }
}

/// Results as fixtures: always a success, so fixtures are fully populated (as optionals are always present).
extension Result: Fixturable where Success: Fixturable {
    /// `.success` of the fixture with the same label.
    public static func fixture(label: String) -> Result<Success, Failure> {
        .success(Success.fixture(label: label))
    }
}

/// Contiguous arrays of fixtures: the same elements as an `Array`'s.
extension ContiguousArray: Fixturable where Element: Fixturable {
    /// Two elements, labelled `label[0]` and `label[1]`.
    public static func fixture(label: String) -> ContiguousArray<Element> {
        ContiguousArray([Element].fixture(label: label))
    }
}

/// Closed ranges of fixtures: the bounds in order.
extension ClosedRange: Fixturable where Bound: Fixturable {
    /// From the smaller to the larger of the fixtures labelled `label.lowerBound` and `label.upperBound`.
    public static func fixture(label: String) -> ClosedRange<Bound> {
        let (lower, upper) = Fixtures.bounds(Bound.self, label: label)
        return lower...upper
    }
}

/// Ranges of fixtures: the bounds in order (empty when they are equal).
extension Range: Fixturable where Bound: Fixturable {
    /// From the smaller to the larger of the fixtures labelled `label.lowerBound` and `label.upperBound`.
    public static func fixture(label: String) -> Range<Bound> {
        let (lower, upper) = Fixtures.bounds(Bound.self, label: label)
        return lower..<upper
    }
}

/// Decimals as fixtures: the same value for the same label on every run and machine.
extension Decimal: Fixturable {
    /// A value in `0..<100` with two decimals, exactly (the same digits as ``Swift/Double/fixture(label:)``).
    public static func fixture(label: String) -> Decimal {
        Decimal(sign: .plus, exponent: -2, significand: Decimal(StableHash.fnv1a(label) % 10_000))
    }
}

/// Characters as fixtures: the same value for the same label on every run and machine.
extension Character: Fixturable {
    /// A lowercase ASCII letter.
    public static func fixture(label: String) -> Character {
        Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(StableHash.fnv1a(label) % 26)))
    }
}

extension Fixtures {
    /// How many labels a `Set` or `Dictionary` fixture tries to find two distinct elements.
    static let containerAttempts = 8

    /// The fixtures labelled `label.lowerBound` and `label.upperBound`, smaller first.
    static func bounds<Bound: Fixturable & Comparable>(_ type: Bound.Type, label: String) -> (Bound, Bound) {
        let first = Bound.fixture(label: label + ".lowerBound")
        let second = Bound.fixture(label: label + ".upperBound")
        return (min(first, second), max(first, second))
    }
}
