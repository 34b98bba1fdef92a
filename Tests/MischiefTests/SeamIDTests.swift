import Mischief
import Testing

@Suite struct SeamIDTests {
    @Test(arguments: [
        "clock.now", "net.response", "app.user-profile.load", "a.b", "l10n.string_2", "fp", "d1.returnValue",
        "api.fetchUserV2", "x",
    ])
    func acceptsDottedCamelCaseIDs(_ text: String) throws {
        #expect(try SeamID(text).rawValue == text)
    }

    @Test(arguments: [
        ("", "an id cannot be empty; use a name such as 'clock.now' or 'fp'"),
        ("clock..now", "segment 2 is empty (two dots in a row, or a dot at an end)"),
        ("clock.", "segment 2 is empty (two dots in a row, or a dot at an end)"),
        (".clock", "segment 1 is empty (two dots in a row, or a dot at an end)"),
        ("Clock.now", "segment 'Clock' must start with a lowercase letter a-z"),
        ("clock.2now", "segment '2now' must start with a lowercase letter a-z"),
        ("clock._now", "segment '_now' must start with a lowercase letter a-z"),
        ("clock.n ow", "segment 'n ow' contains ' '; use ASCII letters, digits, '-' or '_'"),
        ("clock/now", "segment 'clock/now' contains '/'; use ASCII letters, digits, '-' or '_'"),
        ("clock.nöw", "segment 'nöw' contains 'ö'; use ASCII letters, digits, '-' or '_'"),
    ])
    func rejectsMalformedIDsWithTheReason(_ text: String, _ reason: String) {
        #expect(throws: MischiefError.invalidSeamID(text, reason: reason)) { try SeamID(text) }
    }

    @Test func familyIsTheFirstSegment() {
        #expect(SeamID("clock.now").family == "clock")
        #expect(SeamID("fp").family == "fp")
    }

    /// A literal id such as `"fp"` or `"d1.returnValue"` used to stop the process with a precondition failure.
    @Test func commonLiteralFormsDeclareAndRegister() throws {
        let registry = Registry(sessionSeed: 1)
        let short = Seam<Int, Int, Never>("fp", title: "", category: "", summary: "") { $0 }
        let camel = Seam<Int, Int, Never>("d1.returnValue", title: "", category: "", summary: "") { $0 }
        try registry.register(short, camel)
        try registry.apply(camel, .constant(5))
        #expect(registry.seams.map(\.id) == ["fp", "d1.returnValue"])
        #expect(camel(1) == 5)
    }

    /// An invalid literal cannot throw where it is written, so registering it throws, naming the id and the rule.
    @Test func anInvalidLiteralIsRefusedAtRegistrationNotACrash() throws {
        let registry = Registry(sessionSeed: 1)
        let good = Seam<Int, Int, Never>("app.good", title: "", category: "", summary: "") { $0 }
        let bad = Seam<Int, Int, Never>("App.bad seam", title: "", category: "", summary: "") { $0 }
        let error = MischiefError.invalidSeamID(
            "App.bad seam", reason: "segment 'App' must start with a lowercase letter a-z")
        #expect(throws: error) { try registry.register(good, bad) }
        #expect(registry.seams.isEmpty)  // all or nothing
        #expect(error.description.contains("invalid seam id 'App.bad seam'"))
    }
}
