import Foundation
import Testing

@testable import MischiefCatalog

@Suite("XMLDateTime")
struct XMLDateTimeTests {
    @Test(arguments: [
        ("2024-05-01T09:00:00Z", 1_714_554_000.0),
        ("2024-05-01T09:00:00.25Z", 1_714_554_000.25),
        ("2024-05-01T10:30:00+01:30", 1_714_554_000.0),
        ("2024-05-01T09:00:00", 1_714_554_000.0),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func parsesXMLDateTimes(text: String, seconds: Double) {
        #expect(XMLDateTime.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "", "2024-05-01", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-05-01T24:00:00Z",
        "2024-05-01T09:00:00.Z", "2024-05-01T09:00:00Zjunk", "2024-05-01 09:00:00Z",
    ])
    func rejectsMalformedDateTimes(text: String) {
        #expect(XMLDateTime.parse(text) == nil)
    }
}
