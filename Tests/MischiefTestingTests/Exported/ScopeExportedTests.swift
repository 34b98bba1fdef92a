// Exported by `mischief export --as test` from a recording of
// MischiefPackageTests: test #3 say "hi"\u{A}#"x"# \(y) — ü 🇺🇦 \u{202E}evil\u{202C}() (pid 4242, Linux x86_64, Swift 6.3), started 2027-01-15T08:00:00Z, session seed 11.
// The test replays it in its own scope: each change is made after the same call of its seam as when it was
// recorded, and the decisions the calls get are checked against the recorded ones; the first that differs,
// or a change whose calls never come, fails the test with both values.
// The changes, and when:
//   1 of 3. testing.lookup at +0 s: apply return("say \"hi\" #\"x\"# ü") (seed 99) [mischief CLI]
//   2 of 3. testing.double after call 1: apply return(5) (seed 7) [console "alice"\u000A// injected]
//   3 of 3. testing.double after call 2: revert layer 2 [console "alice"\u000A// injected]
// The seams it names (testing.double, testing.lookup) are looked up in Seams.registry; the trait calls
// `SayHiXYEvilWithItsChangesFromOutsideReplay.registerSeams(in:)` when the test starts, before the replay, so the test
// registers what it needs itself.

import Mischief
import MischiefTesting
import Testing

struct SayHiXYEvilWithItsChangesFromOutsideReplay {
    /// The recording, a line each, as it was written.
    static let recording: [String] = [
        "{\"format\":\"mischief-recording\",\"pid\":4242,\"platform\":\"Linux x86_64\",\"seams\":[],\"sessionSeed\":11,\"started\":1800000000,\"swift\":\"6.3\",\"target\":\"MischiefPackageTests: test #3 say \\\"hi\\\"\\n#\\\"x\\\"# \\\\(y) — ü 🇺🇦 \u{202E}evil\u{202C}()\",\"version\":1}",
        "{\"call\":0,\"event\":1,\"kind\":\"applied\",\"layer\":3,\"message\":\"applied return(\\\"say \\\\\\\"hi\\\\\\\" #\\\\\\\"x\\\\\\\"# ü\\\") in test #3 say \\\"hi\\\"\\n#\\\"x\\\"# \\\\(y) — ü 🇺🇦 \u{202E}evil\u{202C}()\",\"seam\":\"testing.lookup\",\"seed\":99,\"source\":\"mischief CLI\",\"spec\":\"return(\\\"say \\\\\\\"hi\\\\\\\" #\\\\\\\"x\\\\\\\"# ü\\\")\",\"time\":1.5,\"wall\":1800000000}",
        "{\"call\":1,\"event\":2,\"kind\":\"applied\",\"layer\":2,\"message\":\"applied return(5) in test #3 say \\\"hi\\\"\\n#\\\"x\\\"# \\\\(y) — ü 🇺🇦 \u{202E}evil\u{202C}()\",\"seam\":\"testing.double\",\"seed\":7,\"source\":\"console \\\"alice\\\"\\n// injected\",\"spec\":\"return(5)\",\"time\":1.5,\"wall\":1800000000}",
        "{\"call\":2,\"event\":3,\"kind\":\"reverted\",\"layer\":2,\"message\":\"reverted return(5) in test #3 say \\\"hi\\\"\\n#\\\"x\\\"# \\\\(y) — ü 🇺🇦 \u{202E}evil\u{202C}()\",\"seam\":\"testing.double\",\"source\":\"console \\\"alice\\\"\\n// injected\",\"time\":4.25,\"wall\":1800000000}",
    ]

    /// Registers the seams the recording names in `registry`, when the test starts.
    @Sendable static func registerSeams(in registry: Registry) throws {
        try Seams.register(in: registry)
    }

    @Test(
        "say \"hi\"\n#\"x\"# \\(y) — ü 🇺🇦 \u{202E}evil\u{202C}() with its changes from outside",
        .replaying(
            SayHiXYEvilWithItsChangesFromOutsideReplay.recording, registry: Seams.registry,
            registering: SayHiXYEvilWithItsChangesFromOutsideReplay.registerSeams(in:)))
    func replaysTheRecordedSession() async throws {
        #expect(Seams.double(1) == 2)
        #expect(Seams.double(2) == 5)
        #expect(Seams.double(3) == 6)
        #expect(Seams.lookup(1) == ##"say "hi" #"x"# ü"##)
    }
}
