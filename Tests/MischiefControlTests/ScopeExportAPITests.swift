import Foundation
import Mischief
import MischiefFiles
import Testing

@testable import MischiefControl

/// What `mischief export --scope` reads over the control API (`GET /v1/scopes`, the target's header): a scope whose
/// test has a hostile name, changed from outside through the API, becomes a recording that says after which call each
/// change came, and a test whose name is a literal and whose comments stay comments.
@Suite(.timeLimit(.minutes(1))) struct ScopeExportAPITests {
    static let hostile = "counts \"apples\"\n}\n@Test func injected() {} // #\"é\"# 🍎\u{202E}()"

    @Test func aHostilyNamedTestsScopeExportsAsOneTestWithItsChangesAfterTheirCalls() async throws {
        try await withAPI { target in
            target.registry.publishScopes()
            let scope = ChaosScope(Self.hostile, registry: target.registry)
            let id = try #require(target.registry.publish(scope))
            for _ in 1...2 { _ = scope.run { target.count() } }
            try await target.client().apply("return(5)", to: "t.count", inScopes: "#\(id)", seed: 9)
            #expect(scope.run { target.count() } == 5)

            let header = try await target.client().target()
            let row = try #require(try await target.client().scopes().first { $0.id == id })
            #expect(row.name == Self.hostile)
            #expect(row.outside.map(\.call) == [2])
            let recording = Recording(
                scope: row, target: header.name, pid: Int(header.pid), sessionSeed: header.sessionSeed,
                started: 1_800_000_000)
            #expect(recording.entries.map(\.spec) == ["return(5)"])
            #expect(recording.entries.map(\.seed) == [9])
            let test = RecordingExport(recording).text(as: .test, name: row.name)
            let lines = test.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@Test") }.count == 1, "\(test)")
            #expect(!test.contains("\u{202E}"), "\(test)")
            #expect(test.contains(#"after call 2: apply return(5) (seed 9)"#), "\(test)")
        }
    }
}
