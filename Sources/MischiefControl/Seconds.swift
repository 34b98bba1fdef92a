/// Seconds as numbers from outside (JSON, query strings, command-line options) turned into `Duration`s in one
/// place, with their range checked first. (The other way, `Duration` to seconds, is the core's `duration.seconds`.)
///
/// `Duration.seconds(_: Double)` traps on values it cannot represent (`2e20` overflows), so every number that
/// arrives from a client passes through ``duration(_:field:within:)`` before it becomes a `Duration`.
///
/// ```swift
/// let lease = try Seconds.duration(body.lease, field: "lease", within: Seconds.positive(upTo: 86_400))
/// ```
public enum Seconds {
    /// The largest number of seconds any API field accepts: about 31 years.
    public static let largest: Double = 1e9

    /// Seconds greater than zero and at most `limit`.
    public static func positive(upTo limit: Double) -> ClosedRange<Double> {
        Double.leastNonzeroMagnitude...Swift.min(limit, largest)
    }

    /// `seconds` as a `Duration`, after checking it is a finite number within `range`.
    ///
    /// - Parameters:
    ///   - seconds: The number as it arrived, from a request, an option or a file.
    ///   - field: The name the caller knows the number by (`seconds`, `lease`, `--interval`), for the error.
    ///   - range: The values the field accepts, in seconds.
    /// - Throws: ``OutOfRange`` naming the field, the value and the range.
    public static func duration(
        _ seconds: Double, field: String, within range: ClosedRange<Double>
    ) throws(OutOfRange) -> Duration {
        guard seconds.isFinite, range.contains(seconds), abs(seconds) <= largest else {
            throw OutOfRange(field: field, value: seconds.isFinite ? "\(seconds)" : "\(seconds)", range: range)
        }
        let nanoseconds = Int64((seconds * 1e9).rounded())
        // A positive number too small to be a nanosecond (1e-300) would be a duration of nothing.
        guard range.lowerBound <= 0 || nanoseconds > 0 else {
            throw OutOfRange(field: field, value: "\(seconds), less than a nanosecond", range: range)
        }
        return .nanoseconds(nanoseconds)
    }

    /// An integer from a query string or a field, checked against `range`.
    ///
    /// - Throws: ``OutOfRange`` when the text is not a whole number within `range`.
    public static func integer(_ text: String, field: String, within range: ClosedRange<Int>) throws(OutOfRange) -> Int
    {
        guard let value = Int(text), range.contains(value) else {
            throw OutOfRange(
                field: field, value: "'\(text.prefix(40))'", range: Double(range.lowerBound)...Double(range.upperBound),
                whole: true)
        }
        return value
    }
}

/// A number from outside that is not a finite value within its field's range.
public struct OutOfRange: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field, option or query parameter.
    public var field: String
    /// The value as it arrived.
    public var value: String
    /// The values the field accepts, which the message names so the sender can fix the request.
    public var range: ClosedRange<Double>
    /// Whether the field takes whole numbers only.
    public var whole = false

    public var description: String {
        let low =
            range.lowerBound == Double.leastNonzeroMagnitude ? "more than 0" : "at least \(Self.text(range.lowerBound))"
        return "\(field) must be a \(whole ? "whole " : "")number \(low) and at most \(Self.text(range.upperBound)), "
            + "not \(value)"
    }

    private static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }
}
