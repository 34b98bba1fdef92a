/// A signed length of time written in a spec, such as `250ms`, `+1d` or `-3h`.
///
/// Stored as a whole number of nanoseconds, so `+24h`, `1d` and `86400s` are equal and all print `1d`. The canonical
/// text uses the largest unit among y, w, d, h, m, s, ms, us and ns that divides the value exactly; positive values
/// print without a sign and negative ones with `-`. `w` is 7 days and `y` is 365 days.
public struct SpecDuration: Hashable, Sendable, CustomStringConvertible {
    /// The length in nanoseconds; negative for durations written with `-`.
    public var nanoseconds: Int64

    /// Creates a duration from a number of nanoseconds.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// Creates a duration from a Swift `Duration`, dropping anything finer than a nanosecond and saturating at the
    /// limits of `Int64` nanoseconds (about ±292 years).
    public init(_ duration: Duration) {
        // Beyond Int64 seconds `components` traps: compare first (a TTL of 1e20 s from a recording, in its message).
        guard duration <= .nanoseconds(Int64.max) else {
            nanoseconds = .max
            return
        }
        guard duration >= .nanoseconds(Int64.min) else {
            nanoseconds = .min
            return
        }
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow || overflow2 {
            nanoseconds = seconds < 0 ? .min : .max
        } else {
            nanoseconds = total
        }
    }

    /// The same length as a Swift `Duration`.
    public var duration: Duration {
        .nanoseconds(nanoseconds)
    }

    /// Reads a duration written on its own, as specs write them: `30s`, `10m`, `1.5h`, `+1d`, `-250ms`.
    ///
    /// - Throws: ``SpecError`` whose message says what is wrong (`expected a duration such as 30s or 10m`, an
    ///   unknown unit, too large).
    public init(parsing text: String) throws(SpecError) {
        let trimmed = text.trimmingSpaces
        var rest = Substring(trimmed)
        let negative = rest.first == "-"
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        let amount = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = rest.dropFirst(amount.count)
        guard !amount.isEmpty, amount.first != ".", amount.filter({ $0 == "." }).count <= 1, !unit.isEmpty,
            unit.allSatisfy({ $0.isASCII && $0.isLetter })
        else {
            throw SpecError(
                text: text, column: 1,
                message: "expected a duration such as 30s, 10m or 1h, not '\(text.prefix(40))'")
        }
        do throws(Invalid) {
            self = try Self.parse(negative: negative, amount: String(amount), unit: String(unit), text: trimmed)
        } catch {
            throw SpecError(text: text, column: 1, message: error.message)
        }
    }

    /// The units a duration may be written in, largest first, with their length in nanoseconds.
    static let units: [(name: String, nanoseconds: Int64)] = [
        ("y", 365 * 86_400 * 1_000_000_000),
        ("w", 7 * 86_400 * 1_000_000_000),
        ("d", 86_400 * 1_000_000_000),
        ("h", 3_600 * 1_000_000_000),
        ("m", 60 * 1_000_000_000),
        ("s", 1_000_000_000),
        ("ms", 1_000_000),
        ("us", 1_000),
        ("ns", 1),
    ]

    /// The canonical text: the largest exact unit, `-` for negative values, `0s` for zero.
    public var description: String {
        if nanoseconds == 0 {
            return "0s"
        }
        for unit in Self.units where nanoseconds % unit.nanoseconds == 0 {
            return "\(nanoseconds / unit.nanoseconds)\(unit.name)"
        }
        return "\(nanoseconds)ns"
    }

    /// Why a duration's text could not be read.
    struct Invalid: Error {
        /// A message naming the problem.
        var message: String
    }

    /// Reads an amount such as `1.5` (digits with an optional fraction, no exponent) in `unit`, with a sign.
    ///
    /// - Parameter text: the whole source text (sign, amount and unit), used in messages.
    static func parse(
        negative: Bool, amount: String, unit: String, text: String
    ) throws(Invalid) -> SpecDuration {
        guard let scale = units.first(where: { $0.name == unit })?.nanoseconds else {
            throw Invalid(
                message: "invalid duration unit '\(unit)' in '\(text)'; use ns, us, ms, s, m, h, d, w or y"
            )
        }
        guard !amount.contains("e"), !amount.contains("E") else {
            throw Invalid(message: "invalid duration '\(text)': write the amount without an exponent")
        }
        let parts = amount.split(separator: ".", omittingEmptySubsequences: false)
        let tooLarge = Invalid(message: "duration '\(text)' is too large; the limit is about 292 years")
        guard let whole = Int64(parts[0]) else {
            throw tooLarge
        }
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.hasSuffix("0") {
            fraction.removeLast()
        }
        var fractional: Int64 = 0
        if !fraction.isEmpty {
            guard fraction.count <= 18, let digits = Int64(fraction) else {
                throw Invalid(message: "duration '\(text)' is not a whole number of nanoseconds")
            }
            var divisor: Int64 = 1
            for _ in 0..<fraction.count {
                divisor *= 10
            }
            let product = digits.multipliedFullWidth(by: scale)
            guard product.high < divisor else {
                throw tooLarge
            }
            let (quotient, remainder) = divisor.dividingFullWidth(product)
            guard remainder == 0 else {
                throw Invalid(message: "duration '\(text)' is not a whole number of nanoseconds")
            }
            fractional = quotient
        }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: scale)
        let (total, overflow2) = scaled.addingReportingOverflow(fractional)
        guard !overflow, !overflow2 else {
            throw tooLarge
        }
        return SpecDuration(nanoseconds: negative ? -total : total)
    }
}

extension String {
    /// The text without spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(scalars[first...last])
    }
}
