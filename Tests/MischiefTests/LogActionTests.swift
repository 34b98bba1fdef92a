import Mischief
import Testing

@testable import Mischief

/// `log` (alias `print`): a generic action that records calls in the event log and passes them through.
@Suite struct LogActionTests {
    @Test(arguments: [
        ("log", "log"),
        ("log(\"seen\")", "log(\"seen\")"),
        ("log(message: \"seen\")", "log(\"seen\")"),
        ("print(\"seen\")", "log(\"seen\")"),
        ("print", "log"),
        ("log(\"seen\") + return(3)", "log(\"seen\") + return(3)"),
        ("2*log -> off", "2*log -> off"),
        ("50%log(\"half\")", "50%log(\"half\")"),
    ])
    func specsRoundTripThroughTheirCanonicalText(spec: String, canonical: String) throws {
        let f = try Fixture()
        #expect(try f.registry.canonical(spec: spec, for: "test.double") == canonical)
        #expect(try f.registry.canonical(spec: canonical, for: "test.double") == canonical)
        try f.registry.apply(spec: spec, to: "test.double")
        #expect(f.registry.snapshot().seam("test.double")?.spec == canonical)
    }

    @Test func behavioursBuiltInCodePrintAsTheirSpec() {
        #expect(Behaviour<Int, Int, Never>.log("seen").description == "log(\"seen\")")
        #expect(Behaviour<Int, Int, Never>.log("called").description == "log")
        #expect(Behaviour<Int, Int, Never>.constant(5).logged("x").description == "log(\"x\") + return(5)")
    }

    @Test func itLogsTheSeamTheMessageAndTheInputAndPassesThrough() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "log(\"seen\")", to: "test.double")
        #expect(f.double(21) == 42)
        let reports = f.registry.events().filter { $0.kind == .report }
        #expect(reports.count == 1)
        #expect(reports.first?.seam == "test.double")
        #expect(reports.first?.message == "seen — input 21")
    }

    @Test func whatFollowsInACompositionDecidesTheValue() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "log + return(3)", to: "test.double")
        #expect(f.double(21) == 3)
        #expect(f.registry.events().filter { $0.kind == .report }.map(\.message) == ["called — input 21"])
    }

    @Test func longInputsAreCutAndVoidInputsAreLeftOut() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "log(\"long\")", to: "test.parse")
        _ = try? f.parse(String(repeating: "9", count: 500))
        try f.registry.apply(spec: "print(\"none\")", to: "test.optional")
        _ = f.optional()
        let messages = f.registry.events().filter { $0.kind == .report }.map(\.message)
        #expect(messages.count == 2)
        #expect(messages.first?.hasPrefix("long — input \"999") == true)
        #expect(messages.first?.hasSuffix("…") == true)
        #expect((messages.first?.count ?? 0) < 100)
        #expect(messages.last == "none")
    }

    @Test func anAsyncSeamLogsToo() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "log(\"async\")", to: "test.fetch")
        #expect(try await f.fetch(4) == "item 4")
        #expect(f.registry.events().filter { $0.kind == .report }.map(\.message) == ["async — input 4"])
    }

    /// A hot seam cannot flood the event log: each `log` records at most ten calls a second.
    @Test func aHotSeamLogsAFewCallsAndCountsTheRest() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "log(\"hot\")", to: "test.double")
        for index in 0..<20_000 { _ = f.double(index) }
        let reports = f.registry.events().filter { $0.kind == .report }
        // Ten per one-second window: far fewer than the calls, however slowly this machine runs the loop.
        #expect(reports.count >= LogSite.eventsPerSecond)
        #expect(reports.count < 200)
        #expect(reports.prefix(LogSite.eventsPerSecond).allSatisfy { !$0.message.contains("more") })
    }

    @Test func theNextLoggedCallSaysHowManyWereLeftOut() {
        #expect(LogSite.text("hot", input: 7, skipped: 0) == "hot — input 7")
        #expect(LogSite.text("hot", input: 7, skipped: 1) == "hot — input 7 (and 1 more call not logged)")
        #expect(LogSite.text("hot", input: (), skipped: 1200) == "hot (and 1200 more calls not logged)")
    }
}
