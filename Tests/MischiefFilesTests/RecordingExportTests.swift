import Foundation
import Mischief
import Testing

@testable import MischiefFiles

/// `mischief export`'s core: the state a recording ends in, as a `MISCHIEF_APPLY` line, a profile file and a test,
/// each read back (or compiled) and compared.
@Suite struct RecordingExportTests {
    /// A recording over the seams of MischiefTestingTests' `Seams.registry` (`testing.double`, `testing.fetch`):
    /// three layers applied, one reverted, one given a seed and a TTL.
    static let fixture = Recording(
        header: .init(
            target: "fixture-app", pid: 4242, sessionSeed: 7, started: 1_800_000_000,
            seams: [
                .init(id: "testing.double", title: "Double", actions: ["return"]),
                .init(id: "testing.fetch", title: "Fetch", actions: ["return", "throw"]),
            ], swift: "6.3", platform: "Linux x86_64"),
        entries: [
            entry(1, .applied, "testing.double", layer: 1, spec: "return(5)", call: 3),
            entry(2, .applied, "testing.lookup", layer: 2, spec: #"return("x")"#, call: 0),
            entry(3, .reverted, "testing.lookup", layer: 2, call: 2),
            entry(
                4, .applied, "testing.fetch", layer: 3, spec: #"30%throw("offline") -> return("cached")"#, call: 12,
                seed: 42, ttl: 30),
        ])

    static func entry(
        _ event: Int, _ kind: Event.Kind, _ seam: SeamID?, layer: Int? = nil, spec: String? = nil, call: Int? = nil,
        seed: UInt64? = nil, ttl: Double? = nil, message: String = "", source: String = "console"
    ) -> Recording.Entry {
        Recording.Entry(
            event: event, kind: kind, seam: seam, source: source, message: message, time: Double(event), wall: 0,
            call: call, layer: layer, spec: spec, seed: seed, ttl: ttl)
    }

    @Test func theStateIsTheLayersNotRevertedWithTheirSeedsAndOriginalTTLs() {
        let export = RecordingExport(Self.fixture)
        #expect(export.layers.map(\.seam) == ["testing.double", "testing.fetch"])
        #expect(export.layers.map(\.seed) == [7, 42], "no seed given: the session's")
        #expect(export.layers.map(\.seedWasGiven) == [false, true])
        #expect(export.layers.map(\.ttl) == [nil, .seconds(30)])
        #expect(export.notes.isEmpty)
    }

    @Test func whatCannotBeExportedIsNamedNeverDropped() {
        var recording = Self.fixture
        recording.header.dropped = 3
        recording.entries += [
            Self.entry(5, .applied, "testing.store", layer: 4, call: 1, message: "closure"),  // built in code
            Self.entry(6, .applied, "testing.double", layer: 5, spec: "return(6)", call: 4),  // covers layer 1
            Self.entry(7, .report, "testing.fetch", message: "guard 1 added: errors(testing.fetch) > 50% over 10s"),
            Self.entry(8, .report, "testing.double", message: "guard 2 added: no-success(testing.double) for 5s"),
            Self.entry(9, .report, "testing.double", message: "guard 2 removed"),
            Self.entry(10, .applied, "testing.lookup", layer: 6, spec: "retrun(", call: 2),
            Self.entry(11, .applied, "testing.store", layer: 7, spec: "return(1)", call: 2, ttl: 1e300),
        ]
        let export = RecordingExport(recording)
        #expect(
            export.layers.map(\.spec) == [#"30%throw("offline") -> return("cached")"#, "return(6)", "return(1)"])
        #expect(export.layers.last?.ttl == nil, "a TTL no registry takes is left out, and said")
        #expect(
            export.notes == [
                "3 events the recording dropped (it was kept in memory and full): the state at its end may differ",
                "testing.store: layer 4 (closure), built in code, with no spec",
                "testing.double: return(5) (layer 1), covered by a newer layer: only the newest, which answered,"
                    + " is exported",
                "testing.lookup: layer 6, whose spec retrun( does not parse",
                "testing.store: layer 7's ttl of 1e+300 seconds, which no registry takes",
                "guard 1 (errors(testing.fetch) > 50% over 10s): a recording keeps guards only as text;"
                    + " add it by hand if the export should have it",
            ])
        let profile = export.text(as: .profile)
        for note in export.notes { #expect(profile.contains("# Not exported: " + note)) }
        let test = export.text(as: .test)
        for note in export.notes where !note.contains("covered by a newer layer") {
            #expect(test.contains("// Not exported: " + note))
        }
        #expect(!test.contains("covered by a newer layer"), "a test replays every layer, covered or not")
    }

    // MARK: env

    @Test func theEnvironmentLineParsesBackToTheSameSeamsAndSpecs() throws {
        let export = RecordingExport(Self.fixture)
        #expect(
            export.text(as: .env)
                == "MISCHIEF_SEED=7 MISCHIEF_APPLY='testing.double=return(5);"
                + #"testing.fetch=30%throw("offline") -> return("cached")'"# + "\n")
        let parsed = try EnvironmentChaos(parsing: export.environmentValue)
        #expect(parsed.entries.map(\.seam) == export.layers.map(\.seam))
        #expect(parsed.entries.map(\.spec) == export.layers.map(\.spec))
        #expect(
            export.notes(for: .env) == [
                "testing.fetch: its seed 42 (MISCHIEF_SEED sets one seed for all;"
                    + " export --as profile or --as test keeps it)",
                "testing.fetch: its ttl of 30s (MISCHIEF_APPLY has no TTLs)",
            ])
    }

    @Test func theEnvironmentLineSurvivesTheShellWithQuotesInASpec() throws {
        var recording = Self.fixture
        recording.entries = [Self.entry(1, .applied, "testing.fetch", layer: 1, spec: #"return("it's; \"x\"")"#)]
        let export = RecordingExport(recording)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", export.environmentLine + #" sh -c 'printf %s "$MISCHIEF_SEED|$MISCHIEF_APPLY"'"#]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output == "7|" + export.environmentValue)
        let parsed = try EnvironmentChaos(parsing: String(output.dropFirst(2)))
        #expect(parsed.entries.map(\.spec) == [#"return("it's; \"x\"")"#])
    }

    // MARK: profile

    @Test func theProfileLoadsBackWithItsSeedsAndTTLs() throws {
        let export = RecordingExport(Self.fixture)
        let yaml = export.text(as: .profile, name: "Flaky")
        let loaded = try ProfileFile.load(text: yaml, file: "flaky.yaml").map { $0.withoutLocations() }
        #expect(loaded == export.profiles(named: "Flaky"))
        #expect(loaded.map(\.name) == ["Flaky (seed 7)", "Flaky (seed 42)"], "one profile a seed")
        #expect(loaded.map(\.seed) == [7, 42])
        #expect(loaded[1].entries.map(\.ttl) == [.seconds(30)])
    }

    @Test func aRecordedRunsProfileDrawsTheSameUnderAnotherSessionSeedAndRevertsCleanly() throws {
        // Record a run: a random spec without a seed (the session's, 7) and one with its own seed.
        let (recorded, recordedCount, recordedName) = try Self.registry(sessionSeed: 7)
        let recorder = recorded.startRecording()
        try recorded.apply(spec: "40%return(-1)", to: "app.count", source: "console")
        try recorded.apply(spec: #"50%throw("offline")"#, to: "app.name", source: "console", seed: 3, ttl: .seconds(60))
        let expected = Self.draws(recordedCount, recordedName)
        #expect(expected.contains { $0.hasPrefix("-1 ") } && expected.contains { $0.hasSuffix(" error") })
        #expect(expected.contains { !$0.hasPrefix("-1 ") } && expected.contains { $0.hasSuffix(" Ann") })
        recorder.stop()

        // Replay its export on a fresh registry with another session seed.
        let yaml = RecordingExport(recorder.recording).text(as: .profile, name: "Replayed")
        let (fresh, count, name) = try Self.registry(sessionSeed: 99)
        let files = try ProfileFile.load(text: yaml, file: "replayed.yaml")
        #expect(ProfileFile.check(files, against: fresh).isEmpty)
        for file in files {
            try fresh.define(try file.profile())
            _ = try fresh.apply(profile: file.name)
        }
        #expect(Self.draws(count, name) == expected, "the same seeds: the same numbers")
        #expect(fresh.snapshot().seam("app.name")?.layers.first?.ttl == .seconds(60))
        for file in files { fresh.revert(profile: file.name) }
        #expect(fresh.snapshot().seams.allSatisfy { $0.layers.isEmpty })
        #expect(count(5) == 5)
    }

    /// What the exported test does, a profile for each seed in a test's scope, draws what the recorded run drew.
    @Test func theTestsProfilesDrawInAScopeWhatTheRecordedRunDrew() throws {
        let (recorded, recordedCount, recordedName) = try Self.registry(sessionSeed: 7)
        let recorder = recorded.startRecording()
        try recorded.apply(spec: "40%return(-1)", to: "app.count", source: "console")
        try recorded.apply(spec: #"50%throw("offline")"#, to: "app.name", source: "console", seed: 3)
        let expected = Self.draws(recordedCount, recordedName)
        recorder.stop()

        let (fresh, count, name) = try Self.registry(sessionSeed: 99)
        let scope = ChaosScope("exported", registry: fresh)
        for file in RecordingExport(recorder.recording).profiles(named: "Replayed") {
            try scope.apply(profile: try file.profile())
        }
        #expect(scope.run { Self.draws(count, name) } == expected)
    }

    static func registry(sessionSeed: UInt64) throws -> (Registry, Seam<Int, Int, Never>, Seam<Void, String, any Error>)
    {
        let registry = Registry(sessionSeed: sessionSeed)
        let count = Seam<Int, Int, Never>("app.count", title: "Count", category: "App", summary: "n") { $0 }
        let name = Seam<Void, String, any Error>("app.name", title: "Name", category: "App", summary: "s") { "Ann" }
        try registry.register(count, name)
        return (registry, count, name)
    }

    static func draws(_ count: Seam<Int, Int, Never>, _ name: Seam<Void, String, any Error>) -> [String] {
        (0..<40).map { value in "\(count(value)) \((try? name()) ?? "error")" }
    }

    // MARK: test

    /// The exported test is a real test of MischiefTestingTests, so `swift build --build-tests` compiles it and
    /// `swift test` runs it; this checks it is what the exporter writes (`MISCHIEF_RECORD_SNAPSHOTS=1` rewrites it).
    @Test func theExportedTestIsTheCompiledFileOfMischiefTestingTests() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MischiefTestingTests/Exported/RecordedSessionTests.swift")
        let exported = RecordingExport(Self.fixture).text(
            as: .test, name: "Recorded fixture", registry: "Seams.registry", register: "Seams.register(in:)",
            body: "await Seams.exerciseRecordedFixture()")
        if ProcessInfo.processInfo.environment["MISCHIEF_RECORD_SNAPSHOTS"] == "1" {
            try exported.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == exported, "MISCHIEF_RECORD_SNAPSHOTS=1 rewrites \(url.lastPathComponent)")
    }

    /// The MischiefFiles article shows the test exported from a shop's recording in a compile-only example, which
    /// `Scripts/readme-examples.sh` builds against the package as an app would: the default form (seams in
    /// `Registry.shared`) compiles as written. `MISCHIEF_RECORD_SNAPSHOTS=1` rewrites it.
    @Test func theArticlesExportedTestIsTheExportersOutput() throws {
        let recording = Recording(
            header: .init(
                target: "shop", pid: 812, sessionSeed: 7, started: 1_800_000_000, seams: [], swift: "6.3",
                platform: "Linux x86_64"),
            entries: [
                Self.entry(1, .applied, "clock.now", layer: 1, spec: "shift(1d)", call: 40),
                Self.entry(2, .applied, "net.request", layer: 2, spec: "20%offline", call: 7, seed: 42, ttl: 30),
            ])
        let block =
            "<!-- example: compile-only -->\n```swift\n" + RecordingExport(recording).text(as: .test) + "```\n"
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Sources/MischiefFiles/MischiefFiles.docc/MischiefFiles.md")
        var article = try String(contentsOf: url, encoding: .utf8)
        func shown() throws -> Range<String.Index> {
            let start = try #require(article.range(of: "<!-- exported-test:start -->\n"))
            let end = try #require(article.range(of: "<!-- exported-test:end -->"))
            return start.upperBound..<end.lowerBound
        }
        if ProcessInfo.processInfo.environment["MISCHIEF_RECORD_SNAPSHOTS"] == "1" {
            article.replaceSubrange(try shown(), with: block)
            try article.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(String(article[try shown()]) == block)
    }

    @Test func withoutARegistryTheTestUsesTheSharedOneAndSaysWhereToRegister() {
        let test = RecordingExport(Self.fixture).text(as: .test)
        #expect(test.contains("import Mischief\nimport MischiefTesting\nimport Testing\n"))
        #expect(test.contains("are looked up in Registry.shared;"))
        #expect(test.contains("register your app's seams there"))
        #expect(test.contains("// Register your app's seams here, as it does when it starts:"))
        #expect(!test.contains("recording, registry:") && !test.contains("registry: Registry.shared"))
        #expect(test.contains(#"@Test("#) && test.contains(#""Recorded fixture-app","#))
        #expect(test.contains("struct RecordedFixtureAppReplay {"))
    }

    /// `--import`: the app's module joins the imports, in order; a name that is not a module's is left out.
    @Test func theAppsModuleIsImportedAndNothingElse() {
        let test = RecordingExport(Self.fixture).text(as: .test, imports: ["Shop", "Evil\nexit(1)", "App.Core"])
        #expect(
            test.contains("\nimport App.Core\nimport Mischief\nimport MischiefTesting\nimport Shop\nimport Testing\n"))
        #expect(!test.contains("Evil"))
    }

    /// The test embeds the recording as data: its lines as string literals that mean them, whatever they hold.
    @Test func theRecordingIsEmbeddedLineByLineAsLiterals() throws {
        var recording = Self.fixture
        recording.entries.append(
            Self.entry(5, .applied, "testing.fetch", layer: 4, spec: ##"return("\"#); exit(1) //\n")"##, call: 13))
        let test = RecordingExport(recording).text(as: .test)
        let literals = recording.jsonLines.split(separator: "\n").map {
            "        " + RecordingExport.swiftLiteral(String($0)) + ","
        }
        for literal in literals { #expect(test.contains(literal + "\n")) }
        #expect(!test.contains("exit(1) //\n"), "never text a line break could end")
    }

    @Test func anEmptyRecordingExportsAReplayOfNothingAndAnEmptyProfile() throws {
        var recording = Self.fixture
        recording.entries = []
        let export = RecordingExport(recording)
        #expect(!export.text(as: .test).contains("// The changes, and when:"))
        #expect(export.text(as: .env) == "MISCHIEF_SEED=7 MISCHIEF_APPLY=''\n")
        let loaded = try ProfileFile.load(text: export.text(as: .profile), file: "empty.yaml")
        #expect(loaded.map(\.entries.count) == [0])
    }

    @Test(arguments: [
        ("return(5)", #""return(5)""#),
        (#"return("x")"#, ##"#"return("x")"#"##),
        (##"return("a"#b")"##, ###"##"return("a"#b")"##"###),
        (##"return("\#(x)")"##, ###"##"return("\#(x)")"##"###),
        ("a\nb\u{1B}", #""a\nb\u{1B}""#),
        // A bidirectional override would make the source read otherwise than it compiles.
        ("a\u{202E}\"b", #""a\u{202E}\"b""#),
    ])
    func textIsWrittenAsASwiftLiteralThatMeansIt(text: String, literal: String) {
        #expect(RecordingExport.swiftLiteral(text) == literal)
    }
    // MARK: hostile recordings

    /// Two unreverted layers on one seam, the older one's spec a string holding line breaks and Swift: the "covered
    /// by a newer layer" note names it.
    static var injecting: Recording {
        var recording = fixture
        let hostile = "log(\"\n@Test func injected() { Foundation.exit(42) }\n//\")"
        let yaml = "return(\"\nname: injected\nowned: true\n#\")"
        recording.entries += [
            entry(5, .applied, "testing.double", layer: 5, spec: hostile, call: 4),
            entry(6, .applied, "testing.double", layer: 6, spec: "return(6)", call: 5),
            entry(7, .applied, "testing.fetch", layer: 7, spec: yaml, call: 13),
            entry(8, .applied, "testing.fetch", layer: 8, spec: "return(\"ok\")", call: 14),
        ]
        return recording
    }

    @Test func aSpecFromTheRecordingNeverBecomesSwiftOutsideAComment() throws {
        let export = RecordingExport(Self.injecting)
        #expect(export.notes.count == 4, "four covered layers: \(export.notes)")
        let test = export.text(as: .test)
        let lines = test.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.filter { $0.hasPrefix("@Test") }.count == 1, "exactly one test:\n\(test)")
        // The recording travels in the test as data: each of its lines one raw string literal, on one line.
        for line in lines where line.contains("injected") || line.contains("exit(42)") {
            let literal = line.hasPrefix("#\"") && (line.hasSuffix("\"#,") || line.hasSuffix("\"#"))
            #expect(line.hasPrefix("//") || literal, "outside a comment or a literal: \(line)")
        }
        #expect(!test.contains("\u{1B}"))
    }

    @Test func aSpecFromTheRecordingNeverBecomesAYAMLKey() throws {
        let export = RecordingExport(Self.injecting)
        let yaml = export.text(as: .profile, name: "Flaky")
        let loaded = try ProfileFile.load(text: yaml, file: "flaky.yaml").map { $0.withoutLocations() }
        #expect(loaded == export.profiles(named: "Flaky"))
        for line in yaml.split(separator: "\n") where line.contains("injected") || line.contains("owned") {
            #expect(line.hasPrefix("#"), "outside a comment: \(line)")
        }
        for document in yaml.split(separator: "\n").filter({ !$0.hasPrefix("#") && !$0.hasPrefix(" ") }) {
            let key = document.hasPrefix("- ") ? document.dropFirst(2) : document
            let name = key.prefix { $0 != ":" }
            #expect(
                ["name", "description", "key", "seed", "ttl", "guards", "entries"].contains(String(name)),
                "a top-level key from the recording: \(document)")
        }
    }
}
