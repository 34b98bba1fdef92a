import Mischief
import Testing

/// Durations: equal values print equally.
struct SpecDurationTests {
    func duration(_ text: String) throws -> SpecDuration? {
        guard case .duration(let value) = try Spec(parsing: "f(\(text))").alternatives[0].terms[0].arguments[0].value
        else {
            return nil
        }
        return value
    }

    static let equal: [(String, String)] = [
        ("+24h", "1d"), ("1d", "1d"), ("86400s", "1d"), ("1440m", "1d"), ("7d", "1w"), ("365d", "1y"),
        ("1.5s", "1500ms"), ("0.25ms", "250us"), ("-3h", "-3h"), ("-180m", "-3h"), ("90m", "90m"),
        ("0ns", "0s"), ("-0s", "0s"), ("2.5h", "150m"), ("1000000ns", "1ms"), ("8d", "8d"),
    ]

    @Test(arguments: equal)
    func printsCanonically(_ text: String, _ canonical: String) throws {
        let value = try #require(try duration(text))
        #expect(value.description == canonical)
        #expect(try duration(canonical) == value)
    }

    @Test func equalValuesAreEqual() throws {
        #expect(try duration("+24h") == duration("1d"))
        #expect(try duration("+24h")?.hashValue == duration("1d")?.hashValue)
        #expect(try duration("1w") == SpecDuration(nanoseconds: 7 * 86_400 * 1_000_000_000))
    }

    @Test func convertsToDuration() throws {
        #expect(try duration("1.5s")?.duration == .milliseconds(1500))
        #expect(try duration("-3h")?.duration == .seconds(-3 * 3600))
        #expect(SpecDuration(.milliseconds(250)).nanoseconds == 250_000_000)
        #expect(SpecDuration(.seconds(-2)).description == "-2s")
    }

    @Test func extremes() throws {
        #expect(try duration("292y")?.description == "292y")
        #expect(SpecDuration(nanoseconds: .min).description == "-9223372036854775808ns")
    }
}
