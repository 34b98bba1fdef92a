import Mischief
import Testing

/// What guards cost stays bounded (issue 44): a long window keeps a sample per 1/120 of it, not one a round; adding a
/// guard reads no other guard; and a registry keeps at most ``Registry/guardLimit`` guards. On a manual clock, with
/// `checkGuards()` running what the housekeeping thread runs each round.
@Suite struct GuardBoundsTests {
    let clock = ManualRegistryClock()
    let registry: Registry
    let request = Seam<Int, Int, any Error>("net.request", title: "Request", category: "Net", summary: "") { $0 }
    let checkout = Seam<Int, Int, any Error>("api.checkout", title: "Checkout", category: "API", summary: "") { $0 }

    init() throws {
        registry = Registry(sessionSeed: 1, clock: clock, expiresOnItsOwn: false)
        try registry.register(request, checkout)
    }

    /// Calls `seam` `count` times, ignoring what it throws.
    func call(_ seam: Seam<Int, Int, any Error>, _ count: Int) {
        for index in 0..<count { _ = try? seam(index) }
    }

    @Test func aDayLongWindowKeepsABoundedNumberOfSamples() throws {
        try registry.apply(spec: "return(1)", to: "api.checkout")  // something to guard
        let id = try registry.addGuard(Guard(parsing: "errors(net.request) > 99% over 1d"))
        var most = 0
        var tripped = false
        for round in 0..<(2 * 86_400 / 10) {  // two days of rounds 10 s apart: 17,280 rounds, 8,640 in a window
            _ = try? request(round)
            clock.advance(by: .seconds(10))
            tripped = tripped || !registry.checkGuards().isEmpty
            most = max(most, registry.guardSampleCount(id) ?? 0)
        }
        #expect(!tripped)
        #expect(most <= 122, "a 1-day window keeps a sample per 12 minutes, at most 122; it kept \(most)")
        #expect(most >= 120)
    }

    @Test func callsLeaveTheWindowWithinOneSpacingAfterItsEndNeverBefore() throws {
        // A 2-hour window keeps a sample a minute (2h / 120). Ten calls succeed before the round at 10s; nine throw
        // at 7000s. Read exactly, the successes would leave the window at 7210s and the guard trip then (9 of 9
        // threw); with a sample a minute they leave when the sample at 60s becomes the base, at 7260s.
        try registry.apply(spec: "return(1)", to: "api.checkout")
        try registry.addGuard(Guard(parsing: "errors(net.request) > 50% over 2h"))
        call(request, 10)
        var time = 0
        var trippedAt: Int?
        while time < 7_400, trippedAt == nil {
            clock.advance(by: .seconds(10))
            time += 10
            if time == 7_000 {
                try registry.apply(spec: #"throw("down")"#, to: "net.request")
                call(request, 9)
            }
            if !registry.checkGuards().isEmpty { trippedAt = time }
        }
        #expect(trippedAt == 7_260)
        let trip = try #require(registry.events().first { $0.kind == .guardTripped })
        #expect(trip.message.contains("9 of 9 calls threw (100%) over 2h"))
    }

    @Test func aWindowOfAFewSecondsStillReadsEveryRound() throws {
        // 10 s / 120 is less than a round: every round is kept, as before, and the window is exact.
        try registry.apply(spec: "return(1)", to: "api.checkout")
        try registry.addGuard(Guard(parsing: "errors(net.request) > 50% over 10s"))
        call(request, 10)
        var trippedAt: Int?
        for time in stride(from: 1, through: 30, by: 1) {
            clock.advance(by: .seconds(1))
            if time == 5 {
                try registry.apply(spec: #"throw("down")"#, to: "net.request")
                call(request, 9)
            }
            if trippedAt == nil, !registry.checkGuards().isEmpty { trippedAt = time }
        }
        #expect(trippedAt == 11)  // the round at 1s saw the successes; at 11s its sample is the base
    }

    @Test func addingAThousandGuardsReadsNoOtherGuardAndTheNextIsRefused() throws {
        try registry.apply(spec: "return(1)", to: "api.checkout")
        let before = registry.guardRecordReads
        for index in 0..<Registry.guardLimit {
            let text =
                index.isMultiple(of: 2)
                ? "errors(net.request) > \(index % 100)% over \(index % 50 + 1)m" : "no-success(api.checkout) for 1d"
            try registry.addGuard(Guard(parsing: text))
        }
        let reads = registry.guardRecordReads - before
        // Each add reads its own record once (to take its first sample); before, each walked every guard: 500,000.
        #expect(reads <= 2 * Registry.guardLimit, "adding \(Registry.guardLimit) guards read \(reads) records")
        #expect(Registry.guardLimit == 1_000)
        #expect(throws: MischiefError.tooManyGuards(limit: 1_000)) {
            try registry.addGuard(Guard(parsing: "no-success(net.request) for 1s"))
        }
        // Ids are found among many, after removals too.
        for id in [1, 500, 1_000] { try registry.removeGuard(id) }
        #expect(throws: MischiefError.unknownGuard(500)) { try registry.removeGuard(500) }
        try registry.rearmGuard(999)
        #expect(registry.guardStatus(2)?.definition.condition.description == "no-success(api.checkout) for 1d")
        #expect(registry.guardStatus(1) == nil)
        #expect(try registry.addGuard(Guard(parsing: "no-success(net.request) for 1s")) == 1_001)
        #expect(registry.guards.count == 998)
    }

    @Test func theLimitSaysHowToMakeRoomAndProfilesCountToo() throws {
        registry.guardCapacity = 3
        for _ in 0..<2 { try registry.addGuard(Guard(parsing: "no-success(net.request) for 10s")) }
        let profile = Profile(
            name: "Slow", entries: [.init(seam: "api.checkout", spec: "return(1)")],
            guards: ["no-success(api.checkout) for 1m", "errors(api.checkout) > 5% over 1h"])
        #expect(throws: MischiefError.tooManyGuards(limit: 3)) { try registry.define(profile) }
        #expect(registry.profiles.isEmpty)
        try registry.addGuard(Guard(parsing: "no-success(net.request) for 10s"))
        let refusal = #expect(throws: MischiefError.self) {
            try registry.addGuard(Guard(parsing: "no-success(net.request) for 10s"))
        }
        #expect(
            refusal?.description
                == "this target already has 3 guards, the most it keeps; remove guards it no longer needs "
                + "(`mischief guard remove ID`, DELETE /v1/guards/ID, registry.removeGuard(_:)) and add again")
        try registry.removeGuard(1)
        try registry.removeGuard(2)
        try registry.define(profile)  // room for its two now
        #expect(registry.guards.count == 3)
        // Defining it again with the same number of guards replaces them: no more room is needed.
        var changed = profile
        changed.guards = ["no-success(api.checkout) for 2m", "errors(api.checkout) > 6% over 1h"]
        try registry.define(changed)
        #expect(registry.guards.map(\.definition.condition.description).suffix(2) == changed.guards)
    }
}
