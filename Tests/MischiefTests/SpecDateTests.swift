import Mischief
import Testing

/// Dates: epoch seconds computed without Foundation, canonical UTC text.
struct SpecDateTests {
    func date(_ text: String) throws -> SpecDate? {
        guard case .date(let value) = try Spec(parsing: "f(\(text))").alternatives[0].terms[0].arguments[0].value else {
            return nil
        }
        return value
    }

    static let known: [(String, Double)] = [
        ("1970-01-01", 0),
        ("1970-01-01T00:00:00Z", 0),
        ("2038-01-19T03:14:08Z", 2_147_483_648),
        ("2038-01-19T04:14:08+01:00", 2_147_483_648),
        ("2038-01-18T23:14:08-04:00", 2_147_483_648),
        ("2038-01-19t03:14:08z", 2_147_483_648),
        ("2000-03-01", 951_868_800),
        ("2024-02-29T12:00:00Z", 1_709_208_000),
        ("1969-12-31T23:59:59Z", -1),
        ("1900-01-01", -2_208_988_800),
        ("0000-03-01", -62_162_035_200),
        ("2001-09-09T01:46:40Z", 1_000_000_000),
        ("2001-09-09T01:46:40.25Z", 1_000_000_000.25),
        ("1969-12-31T23:59:59.5Z", -0.5),
    ]

    @Test(arguments: known)
    func epochSeconds(_ text: String, _ seconds: Double) throws {
        let value = try #require(try date(text))
        #expect(value.secondsSince1970 == seconds)
        #expect(try date(value.description) == value)
    }

    static let canonical: [(String, String)] = [
        ("2038-01-19", "2038-01-19T00:00:00Z"),
        ("2038-01-19T05:14:08+02:00", "2038-01-19T03:14:08Z"),
        ("2038-01-19T03:14", "2038-01-19T03:14:00Z"),
        ("2038-01-19T03:14:08.120Z", "2038-01-19T03:14:08.12Z"),
        ("2038-01-19T03:14:08.000000001Z", "2038-01-19T03:14:08.000000001Z"),
        ("2038-01-19T03:14:08.000Z", "2038-01-19T03:14:08Z"),
        ("1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.5Z"),
        ("2000-01-01T00:30:00+01:00", "1999-12-31T23:30:00Z"),
    ]

    @Test(arguments: canonical)
    func printsInUTC(_ text: String, _ expected: String) throws {
        #expect(try date(text)?.description == expected)
    }

    @Test func constructors() {
        #expect(SpecDate(secondsSince1970: 2_147_483_648).description == "2038-01-19T03:14:08Z")
        #expect(SpecDate(secondsSince1970: -0.5) == SpecDate(seconds: -1, nanoseconds: 500_000_000))
        #expect(SpecDate(seconds: 0, nanoseconds: -1) == SpecDate(seconds: -1, nanoseconds: 999_999_999))
    }

    @Test func leapYears() throws {
        #expect(try date("2000-02-29") != nil)
        #expect(throws: SpecError.self) { try Spec(parsing: "f(2100-02-29)") }
        #expect(throws: SpecError.self) { try Spec(parsing: "f(2023-02-29)") }
        #expect(throws: SpecError.self) { try Spec(parsing: "f(2023-04-31)") }
    }
}
