// Exported by `mischief export --as test` from a recording of
// fixture-app (pid 4242, Linux x86_64, Swift 6.3), started 2027-01-15T08:00:00Z, session seed 7.
// The test replays it in its own scope: each change is made after the same call of its seam as when it was
// recorded, and the decisions the calls get are checked against the recorded ones; the first that differs,
// or a change whose calls never come, fails the test with both values.
// The changes, and when:
//   1 of 4. testing.double after call 3: apply return(5) (seed from the session) [console]
//   2 of 4. testing.lookup before call 1: apply return("x") (seed from the session) [console]
//   3 of 4. testing.lookup after call 2: revert layer 2 [console]
//   4 of 4. testing.fetch after call 12: apply 30%throw("offline") -> return("cached") (seed 42, ttl 30 s) [console]
// Not exported: testing.fetch: its ttl of 30s (a test's changes last as long as the test)
// The seams it names (testing.double, testing.fetch, testing.lookup) are looked up in Seams.registry; the trait calls
// `RecordedFixtureReplay.registerSeams(in:)` when the test starts, before the replay, so the test registers what it
// needs itself.

import Mischief
import MischiefTesting
import Testing

struct RecordedFixtureReplay {
    /// The recording, a line each, as it was written.
    static let recording: [String] = [
        #"{"format":"mischief-recording","pid":4242,"platform":"Linux x86_64","seams":[{"actions":["return"],"id":"testing.double","title":"Double"},{"actions":["return","throw"],"id":"testing.fetch","title":"Fetch"}],"sessionSeed":7,"started":1800000000,"swift":"6.3","target":"fixture-app","version":1}"#,
        #"{"call":3,"event":1,"kind":"applied","layer":1,"message":"","seam":"testing.double","source":"console","spec":"return(5)","time":1,"wall":0}"#,
        #"{"call":0,"event":2,"kind":"applied","layer":2,"message":"","seam":"testing.lookup","source":"console","spec":"return(\"x\")","time":2,"wall":0}"#,
        #"{"call":2,"event":3,"kind":"reverted","layer":2,"message":"","seam":"testing.lookup","source":"console","time":3,"wall":0}"#,
        #"{"call":12,"event":4,"kind":"applied","layer":3,"message":"","seam":"testing.fetch","seed":42,"source":"console","spec":"30%throw(\"offline\") -> return(\"cached\")","time":4,"ttl":30,"wall":0}"#,
    ]

    /// Registers the seams the recording names in `registry`, when the test starts.
    @Sendable static func registerSeams(in registry: Registry) throws {
        try Seams.register(in: registry)
    }

    @Test(
        "Recorded fixture",
        .replaying(
            RecordedFixtureReplay.recording, registry: Seams.registry,
            registering: RecordedFixtureReplay.registerSeams(in:)))
    func replaysTheRecordedSession() async throws {
        await Seams.exerciseRecordedFixture()
    }
}
