import Logging
import Mischief
import MischiefLogging
import MischiefTestSupport
import Testing

@Suite struct EventLoggerTests {
    let registry = Registry(sessionSeed: 42)
    let seam = Seam<Int, Int, Never>("server.price", title: "Price", category: "Server", summary: "") { $0 }

    init() throws { try registry.register(seam) }

    /// Runs an event logger on `registry` until `body` is done, then cancels it and returns what it logged.
    func logged(_ body: () async throws -> Void) async throws -> [LogCapture.Record] {
        let capture = LogCapture()
        let events = EventLogger(registry: registry, logger: capture.logger())
        let task = Task { await events.run() }
        try await body()
        task.cancel()
        await task.value
        return capture.records
    }

    @Test func appliedAndRevertedAreNoticesWithTheSeamBehaviourSourceAndSeed() async throws {
        let records = try await logged {
            try registry.apply(spec: "50% return(9)", to: "server.price", source: "console", seed: 7)
            registry.revert(seam: "server.price", source: "console")
        }
        let applied = try #require(records.first { $0.metadata["mischief.event"] == "applied" })
        #expect(applied.level == .notice)
        #expect(applied.metadata["mischief.seam"] == "server.price")
        #expect(applied.metadata["mischief.source"] == "console")
        #expect(applied.metadata["mischief.behaviour"]?.description.hasPrefix("50%return(9)") == true)
        let seed = try #require(applied.metadata["mischief.seed"])
        #expect(UInt64("\(seed)") != nil)
        #expect(applied.message.contains("(seed \(seed))"))
        #expect(applied.metadata["mischief.session_seed"] == "42")
        #expect(applied.message.hasPrefix("applied server.price 50%return(9)"))
        let reverted = try #require(records.first { $0.metadata["mischief.event"] == "reverted" })
        #expect(reverted.level == .notice)
        #expect(reverted.metadata["mischief.reason"] == nil)
    }

    @Test func aRefusalIsAWarning() async throws {
        let records = try await logged {
            #expect(throws: MischiefError.self) { try registry.apply(spec: "nonsense(", to: "server.price") }
        }
        let refused = try #require(records.first { $0.metadata["mischief.event"] == "refused" })
        #expect(refused.level == .warning)
    }

    @Test func aTTLExpirySaysSo() async throws {
        let records = try await logged {
            try registry.apply(spec: "return(9)", to: "server.price", ttl: .milliseconds(50))
            try await Poll.until("the change to expire", timeout: .seconds(30), lastSeen: { "\(registry.events())" }) {
                registry.events().contains { $0.kind == .reverted } ? true : nil
            }
        }
        let expired = try #require(records.first { $0.metadata["mischief.event"] == "reverted" })
        #expect(expired.metadata["mischief.reason"] == "ttl")
        #expect(expired.level == .notice)
    }

    @Test func aTrippedGuardIsAWarningAndItsRevertSaysWhy() async throws {
        let records = try await logged {
            let fetch = Seam<Int, Int, any Error>("server.fetch", title: "Fetch", category: "Server", summary: "") {
                $0
            }
            try registry.register(fetch)
            try registry.apply(spec: #"throw("down")"#, to: "server.fetch")
            try registry.addGuard(Guard(parsing: "errors(server.fetch) > 50% over 10s min 2"))
            for _ in 0..<5 { _ = try? fetch(1) }
            try await Poll.until("the guard to trip", timeout: .seconds(30), lastSeen: { "\(registry.events())" }) {
                registry.events().contains { $0.kind == .reverted } ? true : nil
            }
        }
        let tripped = try #require(records.first { $0.metadata["mischief.event"] == "guard-tripped" })
        #expect(tripped.level == .warning)
        let reverted = try #require(records.first { $0.metadata["mischief.event"] == "reverted" })
        #expect(reverted.metadata["mischief.reason"] == "guard")
    }

    @Test func eventsBeforeTheCancellationAreLoggedOnceAndInOrder() async throws {
        let before = registry.events().last?.id ?? 0
        let records = try await logged {
            for value in 1...20 { try registry.apply(spec: "return(\(value))", to: "server.price") }
        }
        let ids = records.compactMap { $0.metadata["mischief.event_id"].flatMap { Int("\($0)") } }
        let expected = registry.events().map(\.id).filter { $0 > before }
        #expect(expected.count >= 20)
        #expect(ids == expected)
    }

    @Test func aBehavioursReportIsInfoAndARegistrationDebug() {
        let report = Event(id: 1, time: .zero, kind: .report, seam: "server.price", message: "released 2 held calls")
        #expect(EventLogger.level(for: report) == .info)
        let registered = Event(id: 2, time: .zero, kind: .registered, seam: "server.price", message: "Price")
        #expect(EventLogger.level(for: registered) == .debug)
    }
}
