import Mischief
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The kill switch is process-wide, so each test runs in a child process of its own (exit tests).
@Suite struct KillSwitchTests {
    @Test func environmentVariableRefusesEveryChange() async {
        await #expect(processExitsWith: .success) {
            setenv("MISCHIEF_DISABLED", "1", 1)
            let f = try Fixture()
            do throws(MischiefError) {
                try f.registry.apply(f.double, .constant(0))
                exit(1)
            } catch {
                guard error == .disabled(reason: "MISCHIEF_DISABLED=1 is set") else { exit(2) }
                guard error.description.contains("no behaviour can be changed") else { exit(3) }
            }
            guard f.double(4) == 8, KillSwitch.isEngaged else { exit(4) }
            guard f.registry.events().last?.kind == .refused else { exit(5) }
        }
    }

    @Test func engagingRevertsEverythingAndRefusesLaterChanges() async {
        await #expect(processExitsWith: .success) {
            let f = try Fixture()
            try f.registry.apply(f.double, .constant(0))
            guard f.double(4) == 0 else { exit(1) }
            KillSwitch.engage(reason: "release build")
            guard f.double(4) == 8 else { exit(2) }
            guard (try? f.registry.apply(f.double, .constant(0))) == nil else { exit(3) }
            guard f.registry.snapshot().disabledReason == "release build" else { exit(4) }
        }
    }
}
