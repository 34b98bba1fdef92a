import Dispatch
import Mischief
import Synchronization
import Testing

@Suite struct ConcurrencyTests {
    /// Several threads call seams while another applies and reverts behaviours; afterwards the totals add up and
    /// every seam behaves as its original.
    @Test func countersStayExactWhileBehavioursChangeUnderLoad() async throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        let threads = 4
        let callsPerThread = 20_000
        let stop = Atomic<Bool>(false)
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        let chaosSeen = Atomic<Int>(0)

        for _ in 0..<threads {
            finished.enter()
            DispatchQueue.global().async {
                started.signal()
                var chaos = 0
                for index in 0..<callsPerThread {
                    let value = f.double(index)
                    if value != index * 2 { chaos += 1 }
                    if let parsed = try? f.parse("\(index)"), parsed != index { chaos += 1 }
                }
                chaosSeen.wrappingAdd(chaos, ordering: .relaxed)
                finished.leave()
            }
        }
        for _ in 0..<threads { started.wait() }

        let churner = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var rounds = 0
            while !stop.load(ordering: .relaxed) || rounds < 50 {
                let applied = try! f.registry.apply([
                    Change(f.double, .constant(-1)), Change(f.parse, .probability(50, .constant(-1))),
                ])
                _ = f.registry.snapshot()
                f.registry.revert(applied)
                rounds += 1
            }
            churner.signal()
        }
        // Waited for on a thread of its own, so the task pool stays free for other tests meanwhile.
        await wait(for: finished)
        stop.store(true, ordering: .relaxed)
        churner.wait()

        f.registry.finishReverting()
        let double = try #require(f.registry.counters("test.double"))
        let parse = try #require(f.registry.counters("test.parse"))
        #expect(double.calls == threads * callsPerThread)
        #expect(parse.calls == threads * callsPerThread)
        #expect(double.inFlight == 0 && parse.inFlight == 0)
        #expect(double.chaosCalls + parse.chaosCalls == chaosSeen.load(ordering: .relaxed))
        // Everything is reverted, and every replaced behaviour has been freed.
        let snapshot = f.registry.snapshot()
        #expect(snapshot.layers.allSatisfy { $0.status == .reverted })
        #expect(try f.double(21) == 42 && f.parse("7") == 7)
        observation.cancel()
    }

    @Test func asyncCallsLeaveOnTheShardTheyEnteredEvenAfterHoppingThreads() async throws {
        let f = try Fixture()
        try f.registry.apply(f.fetch, .constant("slow").delayed(by: .milliseconds(1)))
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<200 { group.addTask { try await f.fetch(index) } }
            for try await value in group { #expect(value == "slow") }
        }
        f.registry.revertAll()
        #expect(f.registry.counters("test.fetch")?.inFlight == 0)
        #expect(f.registry.snapshot().layers.allSatisfy { $0.status == .reverted })
    }
}
