import MischiefCatalog
import Testing

struct MutationReportTests {
    @Test func linesAreShortAndReadable() {
        let report = MutationReport(
            applied: [.init(path: "name", old: #""Ann""#, new: #""""#), .init(path: "age", old: "34", new: "-1")],
            rejected: [
                .init(
                    path: "role", old: #""admin""#, attempted: "\"\u{FFFD}unknown\"",
                    reason: "cannot initialize Role from invalid String value \u{FFFD}unknown")
            ]
        )
        #expect(
            report.lines == [
                #"name: "Ann" → """#,
                "age: 34 → -1",
                #"role: "admin" → "\u{FFFD}unknown" (rejected: cannot initialize Role from invalid String value "#
                    + #"\u{FFFD}unknown)"#,
            ])
        #expect(report.description == report.lines.joined(separator: "\n"))
        #expect(!report.isEmpty)
        #expect(MutationReport().isEmpty)
    }

    @Test func abbreviatesLongValues() {
        let long = "\"" + String(repeating: "a", count: 100) + "\""
        let shown = MutationReport.abbreviate(long)
        #expect(shown == "\"" + String(repeating: "a", count: 31) + "… (102 chars)")
        #expect(MutationReport.abbreviate("short") == "short")
    }
}
