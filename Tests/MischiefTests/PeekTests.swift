import Foundation
import Mischief
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A peek reads what a seam gives for display: `pause` does not hold it, `delay` does not wait, and `crash` does not
/// end the process, while the program's own calls still meet all three.
@Suite(.timeLimit(.minutes(1))) struct PeekTests {
    @Test func aPeekGoesThroughAPauseThatHoldsTheProgramsCalls() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "pause(max: 1h)", to: "test.double")
        try f.registry.apply(spec: "pause(max: 1h)", to: "test.fetch")
        #expect(f.double.peek(21) == 42)
        #expect(try await f.fetch.peek(3) == "item 3")

        // The program's call is held, on a thread of its own (a held task would block one of the two threads of the
        // cooperative pool), and a peek still goes through meanwhile.
        async let held = callOnThread { f.double(5) }
        try await f.registry.held("test.double", 1)
        #expect(f.double.peek(1) == 2)
        #expect(try f.registry.release("test.double") == 1)
        #expect(await held == 10)
    }

    @Test func aPeekDoesNotWaitOutADelay() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "delay(1h) + return(7)", to: "test.double")
        #expect(f.double.peek(1) == 7)
        try f.registry.apply(spec: "delay(1h)", to: "test.fetch")
        #expect(try await f.fetch.peek(4) == "item 4")
    }

    @Test func aPeekAtACrashGetsWhatLiesBeneath() async throws {
        await #expect(processExitsWith: .exitCode(0)) {
            let f = try Fixture()
            f.registry.allowsCrash = true
            try f.registry.apply(spec: "crash(\"not for a peek\")", to: "test.double")
            guard f.double.peek(4) == 8 else { exit(2) }
            try f.registry.apply(spec: "crash -> return(1)", to: "test.double")
            guard f.double.peek(4) == 1 else { exit(3) }
            exit(0)
        }
    }
}
