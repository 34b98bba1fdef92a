import Foundation
import Mischief
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `crash`: ends the process on purpose, only where the target allowed it when it started.
@Suite struct CrashActionTests {
    @Test(arguments: [
        ("crash", "crash"),
        ("crash(\"boom\")", "crash(\"boom\")"),
        ("crash(message: \"boom\")", "crash(\"boom\")"),
        ("delay(1s) + crash(\"boom\")", "delay(1s) + crash(\"boom\")"),
        ("1%crash -> off", "1%crash -> off"),
    ])
    func specsRoundTripThroughTheirCanonicalText(spec: String, canonical: String) throws {
        let f = try Fixture()
        #expect(try f.registry.canonical(spec: spec, for: "test.double") == canonical)
        #expect(try f.registry.canonical(spec: canonical, for: "test.double") == canonical)
    }

    @Test func itIsRefusedUnlessTheTargetAllowsIt() throws {
        let f = try Fixture()
        #expect(!f.registry.allowsCrash)
        let error = #expect(throws: MischiefError.self) {
            try f.registry.apply(spec: "crash(\"boom\")", to: "test.double")
        }
        #expect(error?.description.contains("MISCHIEF_ALLOW_CRASH=1") == true)
        #expect(error?.description.contains("test.double") == true)
        #expect(throws: MischiefError.self) { try f.registry.apply(f.double, .crash("boom")) }
        #expect(throws: MischiefError.self) { try f.registry.apply(spec: "50%crash -> off", to: "test.fetch") }
        // Nothing was applied, and the refusal is in the event log.
        #expect(f.registry.snapshot().layers.isEmpty)
        #expect(f.registry.events().contains { $0.kind == .refused && $0.message.contains("crash") })
        #expect(f.double(2) == 4)
    }

    @Test func aTestScopeRefusesItUnlessItsRegistryAllowsIt() throws {
        let f = try Fixture()
        let scope = ChaosScope(registry: f.registry, parent: nil)
        #expect(throws: MischiefError.self) { try scope.apply(Change(f.double, .crash("boom"))) }
        f.registry.allowsCrash = true
        try scope.apply(Change(f.double, .crash("boom")))
    }

    @Test func allowedItIsApplied() throws {
        let f = try Fixture()
        f.registry.allowsCrash = true
        try f.registry.apply(spec: "crash(\"boom\") -> off", to: "test.double")
        #expect(f.registry.snapshot().seam("test.double")?.spec == "crash(\"boom\") -> off")
    }

    @Test func aCallEndsTheProcessWithItsStatusAndMessage() async throws {
        let result = await #expect(processExitsWith: .exitCode(86), observing: [\.standardErrorContent]) {
            let f = try Fixture()
            f.registry.allowsCrash = true
            try f.registry.apply(spec: "crash(\"on purpose\")", to: "test.double")
            _ = f.double(1)
            exit(1)  // not reached
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("crash(\"on purpose\") on test.double"))
        #expect(Registry.crashExitStatus == 86)
    }

    @Test func theEnvironmentAllowsItAndAnAsyncSeamEndsToo() async throws {
        await #expect(processExitsWith: .exitCode(86)) {
            setenv("MISCHIEF_ALLOW_CRASH", "1", 1)
            let f = try Fixture()
            guard f.registry.allowsCrash else { exit(2) }
            try f.registry.apply(spec: "crash", to: "test.fetch")
            _ = try await f.fetch(1)
            exit(1)  // not reached
        }
    }
}
