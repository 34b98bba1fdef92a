import Foundation
import MischiefFiles
import Testing

/// The first error loading `text` produces, as text, or nil when loading succeeds.
private func loadFailure(_ text: String, file: String = "profiles/p.yaml") -> String? {
    do {
        _ = try ProfileFile.load(text: text, file: file)
        return nil
    } catch {
        return error.diagnostics.first?.description
    }
}

/// A fresh temporary directory, removed by the caller.
private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-files-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct ProfileFileTests {
    static let tokyo = """
        name: Tokyo
        description: Somewhere far away
        key: 2
        seed: 42
        entries:
          location.current: city("Tokyo")
          clock.now: "shift(+9h)"
        """

    @Test func loadsOneProfilePerFileWithEveryField() throws {
        let profiles = try ProfileFile.load(text: Self.tokyo, file: "profiles/tokyo.yaml")
        #expect(profiles.count == 1)
        let tokyo = try #require(profiles.first)
        #expect(tokyo.name == "Tokyo")
        #expect(tokyo.description == "Somewhere far away")
        #expect(tokyo.key == 2)
        #expect(tokyo.seed == 42)
        #expect(tokyo.entries.map(\.seam) == ["location.current", "clock.now"])
        #expect(tokyo.entries.map(\.spec) == ["city(\"Tokyo\")", "shift(+9h)"])
        let file = "profiles/tokyo.yaml"
        #expect(tokyo.location == FileLocation(file: file, line: 1, column: 1))
        #expect(tokyo.nameLocation == FileLocation(file: file, line: 1, column: 7))
        #expect(tokyo.keyLocation == FileLocation(file: file, line: 3, column: 6))
        #expect(tokyo.entries[0].seamLocation == FileLocation(file: file, line: 6, column: 3))
        #expect(tokyo.entries[0].specLocation == FileLocation(file: file, line: 6, column: 21))
        // A quoted spec's location points at its first character, after the quote.
        #expect(tokyo.entries[1].specLocation == FileLocation(file: file, line: 7, column: 15))
    }

    @Test func optionalFieldsMayBeLeftOut() throws {
        let profiles = try ProfileFile.load(text: "name: Bare\n", file: "p.yaml")
        #expect(profiles.map { $0.withoutLocations() } == [ProfileFile(name: "Bare")])
        let empty = try ProfileFile.load(text: "name: Bare\nentries:\ndescription: ~\n", file: "p.yaml")
        #expect(empty.map { $0.withoutLocations() } == [ProfileFile(name: "Bare")])
    }

    @Test func loadsAListOfProfiles() throws {
        let text = """
            - name: Tokyo
              key: 1
              entries:
                clock.now: shift(+9h)
            - name: Paris
              entries:
                clock.now: shift(+1h)
                location.current: city("Paris")
            """
        let profiles = try ProfileFile.load(text: text, file: "all.yaml")
        #expect(profiles.map(\.name) == ["Tokyo", "Paris"])
        #expect(profiles[1].entries.map(\.seam) == ["clock.now", "location.current"])
        #expect(profiles[1].location == FileLocation(file: "all.yaml", line: 5, column: 3))
    }

    @Test func writesTheDocumentedLayout() throws {
        let tokyo = try ProfileFile.load(text: Self.tokyo, file: "t.yaml")[0]
        #expect(
            tokyo.yaml() == """
                name: Tokyo
                description: Somewhere far away
                key: 2
                seed: 42
                entries:
                  location.current: city("Tokyo")
                  clock.now: shift(+9h)

                """)
        #expect(ProfileFile(name: "Empty").yaml() == "name: Empty\nentries: {}\n")
    }

    static let trickySpecs = [
        "city(\"Tokyo\")", "50%throw(\"x\")", "-> x", "->", "a: b", "x # not a comment", "#hash", "\"quoted\"",
        "'single'", "it's", "%directive", "- item", "[a, b]", "{a: 1}", "true", "yes", "123", "1.5", "null", "~",
        "", " leading", "trailing ", "multi\nline", "tab\there", "back\\slash", "ünïcödé", "*alias", "&anchor",
        "!tag x", "@at", "`tick`", "|", ">", "? q", "a:b", "--- x", "...", "a,b", "ends with colon:",
        "delay(2s) -> throw(\"timeout: 5s\")", "line\u{2028}separator", "nul\u{0}byte", "crlf\r\nline",
    ]

    @Test(arguments: trickySpecs)
    func saveThenLoadGivesAnEqualProfile(spec: String) throws {
        let profile = ProfileFile(
            name: "Tricky: \(spec)", description: "Says \"hi\"\nand more", key: 9, seed: .max,
            entries: [.init(seam: "clock.now", spec: spec), .init(seam: spec.isEmpty ? "x" : spec, spec: "ok")])
        let loaded = try ProfileFile.load(text: profile.yaml(), file: "saved.yaml")
        #expect(loaded.map { $0.withoutLocations() } == [profile], "\(profile.yaml())")
    }

    @Test func saveThenLoadAListOfProfiles() throws {
        let profiles = [
            ProfileFile(name: "A", key: 1, entries: [.init(seam: "s", spec: "city(\"A\")")]),
            ProfileFile(name: "B", description: "b: c", seed: 7),
        ]
        let loaded = try ProfileFile.load(text: ProfileFile.yaml(profiles), file: "all.yaml")
        #expect(loaded.map { $0.withoutLocations() } == profiles)
    }

    @Test func writeCreatesTheDirectoryAndLoadsBack() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("nested/deeper/tokyo.yaml")
        let profile = ProfileFile(name: "Tokyo", key: 2, entries: [.init(seam: "clock.now", spec: "shift(+9h)")])
        try profile.write(to: url)
        let loaded = try ProfileFile.load(contentsOf: url)
        #expect(loaded.map { $0.withoutLocations() } == [profile])
        #expect(loaded[0].location?.file == url.path)
    }

    @Test func syntaxErrorIsLocated() throws {
        let message = try #require(loadFailure("name: Tokyo\nentries:\n  clock.now: \"shift(+9h)\n"))
        #expect(message.hasPrefix("profiles/p.yaml:4:1: error: syntax error: "))
    }

    @Test func wrongTypesAreLocated() {
        #expect(
            loadFailure("name: Tokyo\nseed: abc\n")
                == "profiles/p.yaml:2:7: error: expected a number for 'seed', found \"abc\"")
        #expect(
            loadFailure("name: Tokyo\nentries:\n  - clock.now\n")
                == "profiles/p.yaml:3:3: error: expected a mapping for 'entries', found a list")
        #expect(
            loadFailure("name: Tokyo\nentries:\n  clock.now: [a]\n")
                == "profiles/p.yaml:3:14: error: expected text for 'clock.now', found a list")
        #expect(
            loadFailure("name: Tokyo\nkey: two\n")
                == "profiles/p.yaml:2:6: error: expected a number for 'key', found \"two\"")
        #expect(
            loadFailure("just text") == "profiles/p.yaml:1:1: error: expected a profile (a mapping with 'name' "
                + "and 'entries') or a list of profiles at the top level, found \"just text\"")
        #expect(
            loadFailure("- name: A\n- 3\n") == "profiles/p.yaml:2:3: error: expected a profile (a mapping "
                + "with 'name' and 'entries') for item 2, found 3")
        #expect(loadFailure("description: no name\n") == "profiles/p.yaml:1:1: error: missing key 'name'")
        #expect(
            loadFailure("") == "profiles/p.yaml:1:1: error: the file is empty; expected a profile "
                + "(a mapping with 'name' and 'entries') or a list of profiles")
    }

    @Test func unknownKeysAreWarnings() throws {
        let decoded = try ProfileFile.loadDecoded(text: "name: A\nseeed: 3\n", file: "p.yaml")
        #expect(
            decoded.warnings.map(\.description) == [
                "p.yaml:2:1: warning: unknown key 'seeed'; did you mean 'seed'?"
            ])
    }

    @Test func checkReportsEveryEntryProblemWithLocations() throws {
        let text = """
            name: Tokyo
            entries:
              location.current: city("Tokyo")
              clock.nwo: shift(+9h)
              network.fail: 50%thrwo("x")
              disk.full: "oops(1)"
            """
        let profiles = try ProfileFile.load(text: text, file: "profiles/tokyo.yaml")
        let diagnostics = ProfileFile.check(profiles) { entry in
            switch entry.seam {
            case "clock.nwo": .seam("unknown seam 'clock.nwo'; did you mean 'clock.now'?")
            case "network.fail": .spec("unknown action 'thrwo'; expected one of: throw, delay", column: 4)
            case "disk.full": .spec("unknown action 'oops'")
            default: nil
            }
        }
        #expect(
            diagnostics.map(\.description) == [
                "profiles/tokyo.yaml:4:3: error: unknown seam 'clock.nwo'; did you mean 'clock.now'?",
                "profiles/tokyo.yaml:5:20: error: unknown action 'thrwo'; expected one of: throw, delay",
                "profiles/tokyo.yaml:6:15: error: unknown action 'oops'",
            ])
    }

    @Test func checkReportsDuplicateHotKeysAcrossFiles() throws {
        let tokyo = try ProfileFile.load(text: "name: Tokyo\ndescription: x\nkey: 2\n", file: "profiles/tokyo.yaml")
        let paris = try ProfileFile.load(text: "name: Paris\nkey:  2\n", file: "profiles/paris.yaml")
        let diagnostics = ProfileFile.check(tokyo + paris) { _ in nil }
        #expect(
            diagnostics.map(\.description) == [
                "profiles/paris.yaml:2:7: error: hot key 2 is used by both 'Tokyo' (profiles/tokyo.yaml:3:6) "
                    + "and 'Paris' (profiles/paris.yaml:2:7)"
            ])
    }

    @Test func checkReportsHotKeysOutOfRange() throws {
        let profiles = try ProfileFile.load(
            text: "- name: A\n  key: 0\n- name: B\n  key: 10\n- name: C\n  key: 9\n",
            file: "keys.yaml")
        #expect(
            ProfileFile.check(profiles) { _ in nil }.map(\.description) == [
                "keys.yaml:2:8: error: hot key 0 is out of range; expected 1 to 9",
                "keys.yaml:4:8: error: hot key 10 is out of range; expected 1 to 9",
            ])
    }

    @Test func checkReportsDuplicateNames() throws {
        let first = try ProfileFile.load(text: "name: Tokyo\n", file: "a.yaml")
        let second = try ProfileFile.load(text: "name:   Tokyo\n", file: "b.yaml")
        #expect(
            ProfileFile.check(first + second) { _ in nil }.map(\.description) == [
                "b.yaml:1:9: error: profile name 'Tokyo' is already used (a.yaml:1:7); each profile needs its own name"
            ])
    }

    @Test func checkWorksForProfilesBuiltInCode() {
        let profiles = [ProfileFile(name: "Built", key: 12, entries: [.init(seam: "x", spec: "y")])]
        let diagnostics = ProfileFile.check(profiles) { _ in .seam("unknown seam 'x'") }
        #expect(
            diagnostics.map(\.description) == [
                "profile 'Built': error: hot key 12 is out of range; expected 1 to 9",
                "profile 'Built': error: unknown seam 'x'",
            ])
    }
}

@Suite struct ProfileFileRobustnessTests {
    static let strangeInputs = [
        "*undefined", "a: &x [*x]", "? [a, b]\n: c", "name: A\nentries:\n  ? [a]\n  : b\n", "!!binary aGk=",
        "name: !!int A", "name: [", "{", "- - - -", "name: A\nentries: *e", "%YAML 1.1\n---\nname: A",
        "\u{FEFF}name: A", "name: A\u{0}", "name: A\nkey: 99999999999999999999999", "name: A\nseed: -1",
        "name: A\nkey: 1e400", "name: A\nkey: .nan", "name: A\nentries: {a: {b: c}}", "---\n...\n", "~",
        String(repeating: "[", count: 500), String(repeating: "- ", count: 200) + "x",
        "name: A\nbase: &b {x: y}\nentries: *b", "name: A\n<<: {seed: 1}",
    ]

    @Test(arguments: strangeInputs)
    func strangeInputNeverCrashes(text: String) {
        do {
            let profiles = try ProfileFile.load(text: text, file: "s.yaml")
            #expect(!profiles.isEmpty)
        } catch {
            #expect(!error.diagnostics.isEmpty)
            #expect(error.diagnostics.allSatisfy { $0.location.file == "s.yaml" && !$0.message.isEmpty })
        }
    }

    @Test func complexKeysAreReported() {
        #expect(
            loadFailure("name: A\nentries:\n  ? [a]\n  : b\n")
                == "profiles/p.yaml:3:5: error: expected text as a key for 'entries', found a list")
    }

    @Test func readableOutputForCommonSpecs() {
        let profile = ProfileFile(
            name: "Zürich",
            entries: [
                .init(seam: "network.fail", spec: "50%throw(\"x\")"),
                .init(seam: "clock.now", spec: "delay(2s) -> shift(+1h)"),
                .init(seam: "note", spec: "a # b"),
                .init(seam: "flag", spec: "true"),
            ])
        #expect(
            profile.yaml() == """
                name: Zürich
                entries:
                  network.fail: 50%throw("x")
                  clock.now: delay(2s) -> shift(+1h)
                  note: "a # b"
                  flag: "true"

                """)
    }
}
