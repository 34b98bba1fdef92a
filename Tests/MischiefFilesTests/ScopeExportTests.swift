import Foundation
import Mischief
import Testing

@testable import MischiefFiles

/// `mischief export --scope`: one test's scope, its changes from outside made a recording (`Recording(scope:…)`),
/// exported as a test. Hostile text from the test process (a test's name with quotes, raw-string delimiters, line
/// breaks, bidirectional controls and emoji; a source with the same; a spec with quotes) ends up in comments on one
/// line and in string literals that mean it, never as code: the exported file is compiled and run as a test of
/// MischiefTestingTests (`Exported/ScopeExportedTests.swift`), so `swift build --build-tests` proves it valid Swift.
@Suite struct ScopeExportTests {
    /// A test's name as hostile as a test process can send one.
    static let hostileName = "say \"hi\"\n#\"x\"# \\(y) — ü 🇺🇦 \u{202E}evil\u{202C}()"

    /// A scope of MischiefTestingTests' `Seams.registry`: `testing.double` given `return(5)` after its first call and
    /// reverted after its second, `testing.lookup` a quoted string from the start.
    static var scope: ScopeSnapshot {
        ScopeSnapshot(
            id: 3, name: hostileName, status: .failed, started: 1.5, ended: 4.25,
            seams: [ScopeSeamCounts(seam: "testing.double", calls: 3, chaosCalls: 1)],
            layers: [
                ScopeLayer(id: 1, seam: "testing.double", spec: "return(1)", source: nil, seed: 7, isActive: true)
            ],
            outside: [
                ScopeLayer(
                    id: 2, seam: "testing.double", spec: "return(5)", source: "console \"alice\"\n// injected",
                    seed: 7, isActive: false, call: 1, revertedCall: 2),
                ScopeLayer(
                    id: 3, seam: "testing.lookup", spec: ##"return("say \"hi\" #\"x\"# ü")"##, source: "mischief CLI",
                    seed: 99, isActive: true, call: 0),
            ])
    }

    static var recording: Recording {
        var recording = Recording(
            scope: scope, target: "MischiefPackageTests", pid: 4242, sessionSeed: 11, started: 1_800_000_000)
        recording.header.swift = "6.3"
        recording.header.platform = "Linux x86_64"
        return recording
    }

    /// What `mischief export --scope` writes for the scope, with MischiefTestingTests' registry and the calls the
    /// test made.
    static var exported: String {
        RecordingExport(recording).text(
            as: .test, name: "\(hostileName) with its changes from outside", registry: "Seams.registry",
            register: "Seams.register(in:)",
            body: """
                #expect(Seams.double(1) == 2)
                #expect(Seams.double(2) == 5)
                #expect(Seams.double(3) == 6)
                #expect(Seams.lookup(1) == ##"say "hi" #"x"# ü"##)
                """)
    }

    @Test func onlyTheChangesFromOutsideAreExportedEachAfterItsCall() throws {
        let recording = Self.recording
        #expect(recording.entries.map(\.kind) == [.applied, .applied, .reverted])
        #expect(recording.entries.map(\.layer) == [3, 2, 2])
        #expect(recording.entries.map(\.call) == [0, 1, 2])
        #expect(!recording.entries.contains { $0.spec == "return(1)" }, "the test's own layer is in its code")
        let schedule = try ReplaySchedule(Recording(jsonLines: recording.jsonLines))
        // A change on a seam the test never called is made at once; the others after their calls.
        #expect(schedule.steps.map(\.afterCall) == [nil, 1, 2])
        #expect(schedule.steps.map(\.seed) == [99, 7, nil])
    }

    /// The exported test is a real test of MischiefTestingTests, so `swift build --build-tests` compiles it and
    /// `swift test` runs it; this checks it is what the exporter writes (`MISCHIEF_RECORD_SNAPSHOTS=1` rewrites it).
    @Test func theExportedTestIsTheCompiledFileOfMischiefTestingTests() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MischiefTestingTests/Exported/ScopeExportedTests.swift")
        let exported = Self.exported
        if ProcessInfo.processInfo.environment["MISCHIEF_RECORD_SNAPSHOTS"] == "1" {
            try exported.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == exported, "MISCHIEF_RECORD_SNAPSHOTS=1 rewrites \(url.lastPathComponent)")
    }

    @Test func aHostileNameIsOneLineInCommentsAndALiteralInTheTest() {
        let test = Self.exported
        let lines = test.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@Test") }.count == 1)
        #expect(!test.contains("\u{202E}"), "no bidirectional control left raw: \(test)")
        #expect(!lines.contains { $0.hasPrefix("// injected") }, "a source's line break never ends a comment")
        #expect(
            test.contains(
                "        " + RecordingExport.swiftLiteral("\(Self.hostileName) with its changes from outside")))
        #expect(test.contains("struct SayHiXYEvilWithItsChangesFromOutsideReplay {"))
    }
}
