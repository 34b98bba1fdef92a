import Foundation
import Mischief
import Testing

@testable import MischiefFiles

/// `MISCHIEF_PROFILE=path.yaml`: the whole file checked first, then every entry applied as its seam registers.
@Suite struct ProfileEnvironmentTests {
    final class Lines: Sendable {
        let lines = Locked<[String]>([])
        var all: String { lines.withLock { $0.joined(separator: "\n") } }
        var write: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
    }

    let double = Seam<Int, Int, Never>("test.double", title: "Double", category: "Test", summary: "x * 2") { $0 * 2 }
    let greet = Seam<String, String, Never>("test.greet", title: "Greet", category: "Test", summary: "hello") {
        "hello \($0)"
    }

    func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("profile-env-\(UUID()).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func everyProfilesEntriesApplyAsTheirSeamsRegister() throws {
        let path = try file(
            """
            - name: Doubled
              seed: 9
              entries:
                test.double: return(7)
            - name: Greeting
              ttl: 10m
              entries:
                test.greet: return("hi")
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = Registry(sessionSeed: 1)
        let stderr = Lines()
        #expect(ProfileEnvironment.apply(path: path, to: registry, diagnostics: stderr.write))
        try registry.register(double)
        #expect(double(1) == 7)
        #expect(greet("x") == "hello x")
        try registry.register(greet)
        #expect(greet("x") == "hi")
        let layers = registry.snapshot().seams.flatMap(\.layers)
        #expect(layers.map(\.source) == ["MISCHIEF_PROFILE Doubled", "MISCHIEF_PROFILE Greeting"])
        #expect(layers.map(\.ttl) == [nil, .seconds(600)], "a profile's ttl holds for its entries")
        #expect(stderr.all.hasPrefix("mischief: MISCHIEF_PROFILE is active: test.double=return(7); "))
    }

    @Test func aFileWithOneBadSpecAppliesNothingAndSaysWhere() throws {
        let path = try file(
            """
            - name: Doubled
              entries:
                test.double: return(7)
                test.greet: return("hi"
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = Registry(sessionSeed: 1)
        let stderr = Lines()
        #expect(!ProfileEnvironment.apply(path: path, to: registry, diagnostics: stderr.write))
        try registry.register(double, greet)
        #expect(double(1) == 2 && greet("x") == "hello x")
        #expect(stderr.all.contains("MISCHIEF_PROFILE=\(path): \(path):4:"), "\(stderr.all)")
        #expect(stderr.all.hasSuffix("nothing from MISCHIEF_PROFILE is applied"))
        #expect(registry.events().contains { $0.kind == .problem })
    }

    @Test func aFileThatIsNotYAMLOrNotThereAppliesNothing() throws {
        let registry = Registry(sessionSeed: 1)
        let stderr = Lines()
        #expect(!ProfileEnvironment.apply(path: "/nonexistent/chaos.yaml", to: registry, diagnostics: stderr.write))
        let path = try file("- name: [unclosed\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(!ProfileEnvironment.apply(path: path, to: registry, diagnostics: stderr.write))
        #expect(stderr.all.components(separatedBy: "nothing from MISCHIEF_PROFILE is applied").count == 3)
        #expect(registry.snapshot().seams.isEmpty && registry.events().filter { $0.kind == .problem }.count == 2)
    }

    @Test func anEntryThatDoesNotFitItsSeamRevertsWhatTheFileApplied() throws {
        let path = try file(
            """
            - name: Mixed
              entries:
                test.double: return(7)
                test.greet: offline
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = Registry(sessionSeed: 1)
        let stderr = Lines()
        #expect(ProfileEnvironment.apply(path: path, to: registry, diagnostics: stderr.write))
        try registry.register(double)
        #expect(double(1) == 7)
        try registry.register(greet)
        #expect(double(1) == 2, "reverted with the entry that did not fit")
        #expect(stderr.all.contains("MISCHIEF_PROFILE entry 'test.greet=offline' does not fit its seam"))
    }

    @Test func theVariableIsReadOncePerRegistry() throws {
        let path = try file("- name: Doubled\n  entries:\n    test.double: return(7)\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = Registry(sessionSeed: 1)
        #expect(!ProfileEnvironment.applyFromEnvironment(to: registry, environment: [:]))
        #expect(ProfileEnvironment.applyFromEnvironment(to: registry, environment: ["MISCHIEF_PROFILE": path]))
        #expect(!ProfileEnvironment.applyFromEnvironment(to: registry, environment: ["MISCHIEF_PROFILE": path]))
    }
}
