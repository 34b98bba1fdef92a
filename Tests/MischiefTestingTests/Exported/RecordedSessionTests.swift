// Exported by `mischief export --as test` from a recording of
// fixture-app (pid 4242, Linux x86_64, Swift 6.3), started 2027-01-15T08:00:00Z, session seed 7.
// The changes applied when it ended, each with the seed it drew from:
//   testing.double = return(5): seed 7 (the session's), from console, at its call 3
//   testing.fetch = 30%throw("offline") -> return("cached"): seed 42, ttl 30s, from console, at its call 12
// Not exported: testing.fetch: its ttl of 30s (a test's changes last as long as the test)
// The trait looks the seams up in Seams.registry when the test starts: register them first.

import Mischief
import MischiefTesting
import Testing

@Test(
    "Recorded fixture",
    .mischief(
        .profile(
            Profile(
                name: "Recorded fixture (seed 7)", seed: 7,
                entries: [
                    .init(seam: "testing.double", spec: "return(5)")
                ])),
        .profile(
            Profile(
                name: "Recorded fixture (seed 42)", seed: 42,
                entries: [
                    .init(seam: "testing.fetch", spec: #"30%throw("offline") -> return("cached")"#)
                ])),
        registry: Seams.registry))
func recordedSession() async throws {
    // Call the code under test here, then #expect what it should do under this chaos.
}
