import Foundation
import Mischief
import MischiefCatalog
import MischiefTesting
import Testing

@Suite("Expectations on calls, checked when the scope ends")
struct ExpectationTests {
    @Test(.mischief())
    func countsThatHold() async throws {
        expect(Seams.double, .exactly(2))
        expect(Seams.double, .exactly(1), where: .equal(3))
        expect(Seams.double, .atLeast(1), where: .predicate("odd") { $0 % 2 == 1 })
        expect(Seams.double, .atMost(2))
        expect(Seams.fetch, .never)
        expect(Seams.double, calledBefore: Seams.store)
        _ = Seams.double(3)
        Seams.store("x")
        _ = Seams.double(4)
    }

    @Test("a failed count lists the calls that did happen, at the expectation's line")
    func failedCountMessage() {
        withKnownIssue {
            withMischiefScope {
                expect(Seams.double, .exactly(2), where: .equal(9))
                _ = Seams.double(1)
                _ = Seams.double(9)
            }
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("Expected testing.double to be called exactly 2 times with input == 9")
                && message.contains("but it was called 1 time (2 times in all)")
                && message.contains("#0 testing.double(1) → 2 [original]")
                && message.contains("#1 testing.double(9) → 18 [original]")
                && issue.sourceLocation?.fileName == "ExpectationTests.swift"
        }
    }

    @Test("an order that did not happen is reported with both seams' calls")
    func failedOrder() {
        withKnownIssue {
            withMischiefScope {
                expect(Seams.double, calledBefore: Seams.store)
                Seams.store("first")
                _ = Seams.double(2)
            }
        } matching: { issue in
            text(of: issue).contains(
                "Expected testing.double to be called before testing.store, but testing.store was called first")
        }
    }

    @Test("expectations outside a scope say what is missing")
    func outsideScope() {
        withKnownIssue {
            expect(Seams.double, .never)
        } matching: { issue in
            text(of: issue).contains("needs a Mischief test scope")
        }
    }

    @Test("eventually advances virtual time instead of waiting")
    func eventuallyOnVirtualTime() async throws {
        let clock = ChaosClock(id: "testing.eventually")
        let registry = Registry(sessionSeed: 1)
        try registry.register(clock.seam)
        try registry.apply(spec: "virtual(2030-01-01)", to: "testing.eventually")
        let start = clock.date
        let ready = await eventually(advancing: clock, by: .seconds(10)) {
            clock.date.timeIntervalSince(start) >= 60
        }
        #expect(ready)
        #expect(clock.date.timeIntervalSince(start) == 60)
    }

    @Test("eventually fails on a real clock, saying so")
    func eventuallyOnRealClock() async {
        let clock = ChaosClock(id: "testing.real")
        await withKnownIssue {
            await eventually(advancing: clock) { false }
        } matching: { issue in
            text(of: issue).contains("cannot move a real clock")
        }
    }
}
