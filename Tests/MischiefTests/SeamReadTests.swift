import Testing

@testable import Mischief

/// `read` hands the seam's output to a closure where it lies; in every other way it is a call: the same answers,
/// counts, errors, scopes and records.
@Suite struct SeamReadTests {
    /// A reference output, so a constant read in place can be told from a copy by identity.
    private final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test func itAnswersAndCountsWhatACallDoes() throws {
        /// The same changes and calls, made through `read` or as calls: the answers and the counters.
        func run(reading: Bool) throws -> ([Int], SeamCounters) {
            let fixture = try Fixture()
            let observation = fixture.registry.observe()
            defer { withExtendedLifetime(observation) {} }
            let double = fixture.double
            let call = { reading ? double.read(4) { $0 + 0 } : double(4) }
            var answers = [call()]  // nothing applied: the original
            try fixture.registry.apply(double, .constant(7))
            answers.append(call())  // a constant, read in place
            try fixture.registry.apply(double, .first(1, .transform { $0 + 100 }))
            answers += [call(), call()]  // decided per call, then passed through
            return (answers, try #require(fixture.registry.snapshot().seam("test.double")).counters)
        }
        let (read, readCounters) = try run(reading: true)
        let (called, callCounters) = try run(reading: false)
        #expect(read == [8, 7, 108, 8])
        #expect(read == called)
        #expect(readCounters == callCounters)
        #expect(readCounters.calls == 4)
    }

    @Test func aThrowingBehaviourThrowsAndIsCountedAsAnError() throws {
        let fixture = try Fixture()
        try fixture.registry.apply(spec: #"throw("nope")"#, to: "test.parse")
        #expect(throws: InjectedError.self) { try fixture.parse.read("12") { $0 } }
        #expect(fixture.registry.snapshot().seam("test.parse")?.counters.errors == 1)
        try fixture.registry.apply(spec: "return(3)", to: "test.parse")
        #expect(try fixture.parse.read("12") { $0 } == 3)
    }

    @Test func aConstantReferenceIsLentNotCopied() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Void, Box, Never>("test.box", title: "B", category: "Test", summary: "x") { Box(0) }
        try registry.register(seam)
        let constant = Box(9)
        try registry.apply(seam, .constant(constant))
        #expect(seam.read { $0 === constant })
        #expect(seam.read { $0.value } == 9)
    }

    @Test func inAScopeItSeesTheScopesChangeAndIsRecorded() throws {
        let fixture = try Fixture()
        try fixture.registry.apply(fixture.double, .constant(100))
        let scope = ChaosScope("test", registry: fixture.registry)
        try scope.apply(fixture.double, .first(1, .constant(1)))
        let results = scope.run { [fixture.double.read(5) { $0 }, fixture.double.read(5) { $0 }] }
        #expect(results == [1, 100])
        #expect(scope.calls.map(\.servedBy) == [.scope("1*return(1)"), .registry])
        #expect(fixture.double.read(5) { $0 } == 100)
    }
}
