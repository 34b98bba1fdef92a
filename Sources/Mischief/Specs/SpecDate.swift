/// A moment in time written in a spec as an ISO 8601 date or date-time.
///
/// Accepted forms: `2038-01-19` (midnight UTC), `2038-01-19T03:14`, `2038-01-19T03:14:08`, with optional fractional
/// seconds (up to 9 digits) and a zone `Z` or `±hh:mm`. A date-time without a zone is read as UTC. The value is a
/// whole number of seconds since 1970-01-01T00:00:00Z plus nanoseconds, computed without Foundation. The canonical
/// text is the UTC date-time with `Z`, with fractional seconds only when they are not zero.
public struct SpecDate: Hashable, Sendable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z (rounded down, so negative before 1970).
    public var seconds: Int64
    /// Nanoseconds past `seconds`, in `0..<1_000_000_000`.
    public var nanoseconds: Int32

    /// Creates a date from whole seconds since 1970 and extra nanoseconds (normalized into `0..<1_000_000_000`).
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        let carry = Int64(nanoseconds) / 1_000_000_000 - (nanoseconds < 0 && nanoseconds % 1_000_000_000 != 0 ? 1 : 0)
        self.seconds = seconds + carry
        self.nanoseconds = Int32(Int64(nanoseconds) - carry * 1_000_000_000)
    }

    /// Creates a date from seconds since 1970 UTC, rounded to the nearest nanosecond (NaN reads as 0, and values
    /// beyond ±9.2e18 seconds are clamped).
    public init(secondsSince1970: Double) {
        let limit = 9.2e18
        let clamped = secondsSince1970.isNaN ? 0 : min(limit, max(-limit, secondsSince1970))
        let whole = clamped.rounded(.down)
        var nanos = ((clamped - whole) * 1_000_000_000).rounded()
        var seconds = Int64(whole)
        if nanos >= 1_000_000_000 {
            nanos -= 1_000_000_000
            seconds += 1
        }
        self.init(seconds: seconds, nanoseconds: Int32(nanos))
    }

    /// Seconds since 1970-01-01T00:00:00Z, with the fraction.
    public var secondsSince1970: Double {
        Double(seconds) + Double(nanoseconds) / 1_000_000_000
    }

    /// The canonical ISO 8601 text in UTC, e.g. `2038-01-19T03:14:08Z` or `2038-01-19T03:14:08.5Z`.
    public var description: String {
        let days = Self.floorDays(seconds)
        let timeOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        var text = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
        text += "T\(Self.pad(timeOfDay / 3_600, 2)):\(Self.pad(timeOfDay / 60 % 60, 2)):\(Self.pad(timeOfDay % 60, 2))"
        if nanoseconds != 0 {
            var fraction = Self.pad(Int64(nanoseconds), 9)
            while fraction.hasSuffix("0") {
                fraction.removeLast()
            }
            text += ".\(fraction)"
        }
        return text + "Z"
    }

    /// Whole days since 1970-01-01 at a number of seconds, rounded down.
    static func floorDays(_ seconds: Int64) -> Int64 {
        seconds / 86_400 - (seconds % 86_400 < 0 ? 1 : 0)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days-from-civil).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a number of days since 1970-01-01 (Hinnant's civil-from-days).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in a month of a proleptic Gregorian year.
    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2:
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return leap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }

    /// Zero-pads a number to `width` digits, keeping a leading `-`.
    static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// Why a date's text could not be read.
    struct Invalid: Error {
        /// What is wrong, e.g. "month must be 1–12".
        var reason: String
    }

    /// Reads an ISO 8601 date or date-time.
    static func parse(_ text: String) throws(Invalid) -> SpecDate {
        var reader = Reader(characters: Array(text))
        guard let year = reader.digits(4), reader.take("-"), let month = reader.digits(2), reader.take("-"),
            let day = reader.digits(2)
        else {
            throw Invalid(reason: "expected the form YYYY-MM-DD")
        }
        guard (1...12).contains(month) else {
            throw Invalid(reason: "month must be 1–12")
        }
        let monthLength = daysInMonth(year: year, month: month)
        guard (1...monthLength).contains(day) else {
            throw Invalid(reason: "day must be 1–\(monthLength)")
        }
        var secondOfDay: Int64 = 0
        var nanoseconds: Int64 = 0
        var offset: Int64 = 0
        if !reader.atEnd {
            guard reader.take("T") || reader.take("t") else {
                throw Invalid(reason: "expected 'T' and a time after the date")
            }
            guard let hour = reader.digits(2), reader.take(":"), let minute = reader.digits(2) else {
                throw Invalid(reason: "expected a time like T03:14:08 after the date")
            }
            var second: Int64 = 0
            if reader.take(":") {
                guard let value = reader.digits(2) else {
                    throw Invalid(reason: "expected two digits for the seconds")
                }
                second = value
                if reader.take(".") {
                    let fraction = reader.run { $0.isASCII && $0.isNumber }
                    guard !fraction.isEmpty else {
                        throw Invalid(reason: "expected digits after '.' in the seconds")
                    }
                    guard fraction.count <= 9 else {
                        throw Invalid(reason: "fractional seconds may have at most 9 digits")
                    }
                    nanoseconds = Int64(fraction + String(repeating: "0", count: 9 - fraction.count)) ?? 0
                }
            }
            guard hour <= 23 else {
                throw Invalid(reason: "hour must be 0–23")
            }
            guard minute <= 59 else {
                throw Invalid(reason: "minute must be 0–59")
            }
            guard second <= 59 else {
                throw Invalid(reason: "second must be 0–59")
            }
            secondOfDay = hour * 3_600 + minute * 60 + second
            if reader.take("Z") || reader.take("z") {
                // UTC.
            } else if let sign = reader.peek, sign == "+" || sign == "-" {
                reader.index += 1
                guard let hours = reader.digits(2), reader.take(":"), let minutes = reader.digits(2) else {
                    throw Invalid(reason: "expected an offset like +02:00")
                }
                guard hours <= 23, minutes <= 59 else {
                    throw Invalid(reason: "offset must be between -23:59 and +23:59")
                }
                offset = (hours * 3_600 + minutes * 60) * (sign == "-" ? -1 : 1)
            }
            guard reader.atEnd else {
                throw Invalid(reason: "expected 'Z' or an offset like +02:00 after the time")
            }
        }
        let seconds = days(year: year, month: month, day: day) * 86_400 + secondOfDay - offset
        let date = SpecDate(seconds: seconds, nanoseconds: Int32(nanoseconds))
        let days = floorDays(seconds)
        guard (0...9_999).contains(civil(fromDays: days).year) else {
            throw Invalid(reason: "the year in UTC must be 0000–9999")
        }
        return date
    }

    /// A cursor over the characters of a date.
    private struct Reader {
        var characters: [Character]
        var index = 0

        var atEnd: Bool { index >= characters.count }
        var peek: Character? { atEnd ? nil : characters[index] }

        mutating func take(_ character: Character) -> Bool {
            guard peek == character else {
                return false
            }
            index += 1
            return true
        }

        mutating func run(while predicate: (Character) -> Bool) -> String {
            var result = ""
            while let character = peek, predicate(character) {
                result.append(character)
                index += 1
            }
            return result
        }

        /// Exactly `count` ASCII digits, not followed by another digit.
        mutating func digits(_ count: Int) -> Int64? {
            let start = index
            let text = run { $0.isASCII && $0.isNumber }
            guard text.count == count else {
                index = start
                return nil
            }
            return Int64(text)
        }
    }
}
