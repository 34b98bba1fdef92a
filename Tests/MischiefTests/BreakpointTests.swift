import Dispatch
import Foundation
import Mischief
import MischiefTestSupport
import Synchronization
import Testing

/// `pause` as a breakpoint: a held call shows its input, and is released unchanged, answered with a spec of the
/// seam's output type, or failed; the next call is held again or not, as chosen.
@Suite struct BreakpointTests {
    struct Person: Codable, Equatable, Sendable {
        var name: String
        var age: Int
    }

    @Test func aHeldCallShowsItsInputAndReturnsWhatTheAnswerSays() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "pause(1h)", to: "test.fetch")
        let call = Task { try await f.fetch(7) }
        try await f.registry.held("test.fetch")
        #expect(f.registry.snapshot().seam("test.fetch")?.heldCalls == [HeldCall(input: "7")])
        #expect(try f.registry.release("test.fetch", answer: #"return("seven")"#) == 1)
        #expect(try await call.value == "seven")
        #expect(f.registry.snapshot().seam("test.fetch")?.heldCalls == [])
        #expect(f.registry.events().contains { $0.message == #"released 1 held call answering return("seven")"# })
        // The pause stays: the next call is held again.
        let next = Task { try await f.fetch(8) }
        try await f.registry.held("test.fetch")
        #expect(f.registry.snapshot().seam("test.fetch")?.heldCalls == [HeldCall(input: "8")])
        #expect(try f.registry.release("test.fetch", answer: nil) == 1)
        #expect(try await next.value == "item 8")  // unchanged: the original ran
    }

    @Test func failingAHeldCallThrowsTheSeamsFailure() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "pause(1h)", to: "test.fetch")
        let call = Task { try await f.fetch(1) }
        try await f.registry.held("test.fetch")
        try f.registry.release("test.fetch", answer: #"throw("offline")"#)
        await #expect { try await call.value } throws: { "\($0)".contains("offline") }
    }

    @Test func aSynchronousHeldCallReturnsTheAnswerOnItsThread() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "pause(1h)", to: "test.double")
        let result = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.store(f.double(21), ordering: .relaxed)
            done.signal()
        }.start()
        try await f.registry.held("test.double")
        #expect(f.registry.snapshot().seam("test.double")?.heldCalls.map(\.input) == ["21"])
        try f.registry.release("test.double", answer: "return(5)")
        await waitOnThread(done)
        #expect(result.load(ordering: .relaxed) == 5)
    }

    @Test func lettingTheRestRunRevertsThePause() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "pause(1h)", to: "test.fetch")
        let call = Task { try await f.fetch(1) }
        try await f.registry.held("test.fetch")
        try f.registry.release("test.fetch", answer: nil, holdNext: false, source: "console")
        #expect(try await call.value == "item 1")
        #expect(f.registry.snapshot().seam("test.fetch")?.layers.allSatisfy { $0.status != .active } == true)
        #expect(try await f.fetch(2) == "item 2")  // not held
    }

    @Test func aBadAnswerReleasesNothingAndSaysWhere() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "pause(1h)", to: "test.double")
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = f.double(1)
            done.signal()
        }.start()
        try await f.registry.held("test.double")
        #expect(throws: MischiefError.self) { try f.registry.release("test.double", answer: #"return("x")"#) }
        #expect(throws: MischiefError.self) { try f.registry.release("test.double", answer: "pause") }
        #expect(f.registry.counters("test.double")?.held == 1)  // still held
        try f.registry.release("test.double", answer: nil)
        await waitOnThread(done)
    }

    @Test func aModelInputIsJSONThatReturnEditsBack() async throws {
        let registry = Registry(sessionSeed: 1)
        let people = Seam<Person, Person, Never>("test.person", title: "Person", category: "Test", summary: "") { $0 }
        try registry.register(people)
        try registry.apply(spec: "pause(1h)", to: "test.person")
        let result = Locked<Person?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let person = people(Person(name: "Ada", age: 36))
            result.withLock { $0 = person }
            done.signal()
        }.start()
        try await registry.held("test.person")
        let input = try #require(registry.snapshot().seam("test.person")?.heldCalls.first?.input)
        #expect(input == #"{"age":36,"name":"Ada"}"#)
        try registry.release("test.person", answer: "return(\(input.replacingOccurrences(of: "Ada", with: "Grace")))")
        await waitOnThread(done)
        #expect(result.withLock { $0 } == Person(name: "Grace", age: 36))
    }

    struct Member: Codable, Equatable, Sendable {
        var name: String
        var joined: Date
    }

    /// A held input's dates read as people read them (ISO 8601, not `"joined":721692800`, seconds since 2001), and
    /// `return(…)` takes them back; a recorded decision keeps the encoder's default.
    @Test func aHeldInputsDatesAreISO8601AndReturnReadsThemBack() async throws {
        let registry = Registry(sessionSeed: 1)
        let members = Seam<Member, Member, Never>("test.member", title: "Member", category: "Test", summary: "") {
            $0
        }
        try registry.register(members)
        try registry.apply(spec: "pause(1h)", to: "test.member")
        let joined = Date(timeIntervalSinceReferenceDate: 721_692_800)
        let result = Locked<Member?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let member = members(Member(name: "Ada", joined: joined))
            result.withLock { $0 = member }
            done.signal()
        }.start()
        try await registry.held("test.member")
        let input = try #require(registry.snapshot().seam("test.member")?.heldCalls.first?.input)
        #expect(input == #"{"joined":"2023-11-14T22:13:20Z","name":"Ada"}"#)
        try registry.release("test.member", answer: "return(\(input.replacingOccurrences(of: "Ada", with: "Grace")))")
        await waitOnThread(done)
        #expect(result.withLock { $0 } == Member(name: "Grace", joined: joined))
        #expect(HeldCall.render(Member(name: "Ada", joined: joined)) == #"{"joined":721692800,"name":"Ada"}"#)
    }

    @Test func aForgottenBreakpointGoesOnUnchangedAfterItsMaximumAndSaysSo() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "pause(200ms)", to: "test.fetch")
        #expect(try await f.fetch(3) == "item 3")
        #expect(f.registry.events().contains { $0.message.contains("went on after its maximum of 200ms") })
    }

    @Test func heldCallsSurviveTheWire() throws {
        var seam = SeamSnapshot(id: "a.b", title: "A", category: "C", held: 1)
        seam.heldCalls = [HeldCall(input: #"{"name":"Ada"}"#)]
        let decoded = try JSONDecoder().decode(SeamSnapshot.self, from: JSONEncoder().encode(seam))
        #expect(decoded.heldCalls == seam.heldCalls)
        let none = SeamSnapshot(id: "a.b", title: "A", category: "C")
        #expect(!String(decoding: try JSONEncoder().encode(none), as: UTF8.self).contains("heldCalls"))
    }

    @Test func renderingQuotesStringsAndCutsLongInputs() {
        #expect(HeldCall.render("a\"b") == #""a\"b""#)
        #expect(HeldCall.render(String(repeating: "x", count: 5_000)).count == HeldCall.longestInput)
    }
}
