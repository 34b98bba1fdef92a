import Mischief
import Testing

@Suite struct SeamIDTests {
    @Test(arguments: ["clock.now", "net.response", "app.user-profile.load", "a.b", "l10n.string_2"])
    func acceptsDottedLowercaseIDs(_ text: String) throws {
        #expect(try SeamID(text).rawValue == text)
    }

    @Test(arguments: [
        ("", "an id cannot be empty; use a dotted name such as 'clock.now'"),
        ("clock", "an id needs at least two dot-separated segments, such as 'clock.now'"),
        ("clock..now", "segment 2 is empty (two dots in a row, or a dot at an end)"),
        ("clock.", "segment 2 is empty (two dots in a row, or a dot at an end)"),
        ("Clock.now", "segment 'Clock' must start with a lowercase letter a-z"),
        ("clock.2now", "segment '2now' must start with a lowercase letter a-z"),
        ("clock.n ow", "segment 'n ow' contains ' '; use lowercase letters, digits, '-' or '_'"),
    ])
    func rejectsMalformedIDsWithTheReason(_ text: String, _ reason: String) {
        #expect(throws: MischiefError.invalidSeamID(text, reason: reason)) { try SeamID(text) }
    }

    @Test func familyIsTheFirstSegment() {
        #expect(SeamID("clock.now").family == "clock")
    }
}
