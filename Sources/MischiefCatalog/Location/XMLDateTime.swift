import Foundation

/// Parses the `xsd:dateTime` timestamps GPX uses, without depending on locale or calendar settings.
///
/// Accepts `YYYY-MM-DDThh:mm:ss`, optional fractional seconds, and a zone of `Z` or `±hh:mm`; a
/// timestamp without a zone is taken as UTC, as GPX 1.1 requires UTC anyway.
///
/// ```swift
/// XMLDateTime.parse("2024-05-01T09:30:00.5Z")   // Date, or nil when malformed
/// ```
enum XMLDateTime {
    /// The instant `text` names, or `nil` when it is not a valid `xsd:dateTime`.
    static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
        guard let year = scanner.number(digits: 4), scanner.take("-"),
            let month = scanner.number(digits: 2), scanner.take("-"),
            let day = scanner.number(digits: 2), scanner.take("T") || scanner.take("t"),
            let hour = scanner.number(digits: 2), scanner.take(":"),
            let minute = scanner.number(digits: 2), scanner.take(":"),
            let second = scanner.number(digits: 2)
        else { return nil }
        var fraction = 0.0
        if scanner.take(".") {
            var scale = 0.1
            var sawDigit = false
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                sawDigit = true
            }
            guard sawDigit else { return nil }
        }
        var zoneOffset = 0
        if scanner.take("Z") || scanner.take("z") {
            zoneOffset = 0
        } else if let sign = scanner.sign() {
            guard let zoneHour = scanner.number(digits: 2), scanner.take(":"),
                let zoneMinute = scanner.number(digits: 2), zoneHour <= 14, zoneMinute < 60
            else { return nil }
            zoneOffset = sign * (zoneHour * 3600 + zoneMinute * 60)
        }
        guard scanner.atEnd,
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - zoneOffset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A cursor over ASCII bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Character) -> Bool {
            guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - 48)
        }

        mutating func number(digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}
