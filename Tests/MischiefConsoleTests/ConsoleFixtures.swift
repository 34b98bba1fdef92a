import Foundation
import Mischief
import MischiefConsole

/// Sample data for console tests: a dozen seams in five categories, profiles, events and a target view with
/// CJK, emoji and combining accents.
enum ConsoleFixtures {
    typealias Parameter = ActionSignature.Parameter

    static let day = SpecDuration(.seconds(86_400))
    static let utc = TimeZone(secondsFromGMT: 0)!
    /// 2025-05-01 12:00:00 UTC.
    static let wallTime = Date(timeIntervalSince1970: 1_746_100_800)

    static let off = ActionSignature("off", summary: "the original runs")
    static let delay = ActionSignature(
        "delay", summary: "waits, then runs what follows",
        parameters: [
            Parameter("for", .duration, step: .duration(SpecDuration(.milliseconds(100))), summary: "how long to wait")
        ], composes: true)
    static let throwing = ActionSignature(
        "throw", summary: "throws an error",
        parameters: [
            Parameter("message", .string, default: .string("injected by Mischief"), summary: "the error")
        ], composes: true)
    static let returning = ActionSignature(
        "return", summary: "returns a value, written as JSON",
        parameters: [
            Parameter("value", .json, summary: "the value as JSON")
        ], composes: true)

    static let clockActions = [
        ActionSignature(
            "shift", summary: "moves the clock",
            parameters: [
                Parameter("by", .duration, default: .duration(day), step: .duration(day), summary: "how far")
            ], composes: true),
        ActionSignature("freeze", summary: "stops the clock", parameters: [Parameter("at", .date)]),
        ActionSignature(
            "dilate", summary: "speeds the clock up",
            parameters: [
                Parameter("rate", .number, default: .integer(1), step: .number(0.1), summary: "seconds per second")
            ], composes: true),
        off,
    ]
    static let locationActions = [
        ActionSignature(
            "city", summary: "a city's coordinates",
            parameters: [
                Parameter(
                    "name", .string, summary: "Tokyo, New York, …",
                    suggestions: ["New York", "Oslo", "São Paulo", "Tokyo", "Toronto"])
            ]),
        ActionSignature(
            "jitter", summary: "moves the position at random",
            parameters: [
                Parameter("metres", .number, default: .integer(10), step: .integer(5), summary: "how far")
            ], composes: true),
        off,
    ]
    static let l10nActions = [
        ActionSignature("accents", summary: "adds accents to every letter", composes: true),
        ActionSignature(
            "expand", summary: "makes text longer",
            parameters: [
                Parameter("factor", .number, default: .number(1.3), step: .number(0.1), summary: "length factor")
            ], composes: true),
        off,
    ]
    static let modelActions = [
        ActionSignature(
            "mutate", summary: "changes fields at random",
            parameters: [
                Parameter("rate", .percent, default: .percent(30), step: .percent(10), summary: "share of fields"),
                Parameter("fields", .word(["names", "dates", "all"]), default: .word("all"), summary: "which fields"),
            ], composes: true),
        returning, off,
    ]
    static let netActions = [
        ActionSignature(
            "status", summary: "answers with an HTTP status",
            parameters: [
                Parameter("code", .integer, summary: "the status code")
            ]),
        ActionSignature("offline", summary: "fails as if there were no network"),
        delay, throwing, off,
    ]

    static func rows(_ signatures: [ActionSignature]) -> [ActionSignature] { signatures }

    /// Twelve seams; `calls` is added to every seam's call count, so successive frames show rates. Every behaviour
    /// here was applied from a spec, so its spec is its description.
    static func seams(calls extra: Int = 0) -> [SeamSnapshot] {
        fromSpecs([
            SeamSnapshot(
                id: "clock.now", title: "Current date", category: "Clock",
                summary: "What the app thinks the time is", signature: "(Void) -> Date", behaviour: "shift(1d)",
                calls: 1_204 + extra * 3, chaosCalls: 1_204 + extra * 3, status: .active,
                actions: rows(clockActions)),
            SeamSnapshot(
                id: "clock.timezone", title: "Time zone", category: "Clock", summary: "The current time zone",
                signature: "(Void) -> TimeZone", calls: 12, actions: rows([off])),
            SeamSnapshot(
                id: "clock.uptime", title: "Monotonic uptime", category: "Clock",
                summary: "Seconds since boot", signature: "(Void) -> Double", calls: 88 + extra, chaosCalls: 40,
                status: .reverted, actions: rows(clockActions)),
            SeamSnapshot(
                id: "location.current", title: "Current location", category: "Location",
                summary: "Where the device is", signature: "(Void) -> Coordinate",
                behaviour: "city(\"Tokyo\")", calls: 310 + extra, chaosCalls: 310 + extra, status: .active,
                actions: rows(locationActions)),
            SeamSnapshot(
                id: "location.heading", title: "Compass heading", category: "Location",
                summary: "Degrees from north", signature: "(Void) -> Double", actions: rows(locationActions)),
            SeamSnapshot(
                id: "l10n.strings", title: "Localized strings", category: "L10n",
                summary: "Every user-visible string", signature: "(String) -> String",
                behaviour: "accents + expand(1.5)", calls: 98_765 + extra * 40, chaosCalls: 98_000 + extra * 40,
                status: .active, actions: rows(l10nActions)),
            SeamSnapshot(
                id: "l10n.menu", title: "Menu du cafe\u{301}", category: "L10n",
                summary: "Dish names, with combining accents", signature: "(Int) -> String", calls: 7,
                actions: rows(l10nActions)),
            SeamSnapshot(
                id: "l10n.calendar", title: "Calendar", category: "L10n", summary: "The user's calendar",
                signature: "(Void) -> Calendar", calls: 3, chaosCalls: 3, status: .reverted,
                actions: rows([off])),
            SeamSnapshot(
                id: "model.user", title: "User profile", category: "Model",
                summary: "The signed-in user, decoded", signature: "(Data) -> User", calls: 1_500_000,
                chaosCalls: 420_000, errors: 3, inFlight: 2, status: .reverting, actions: rows(modelActions)),
            SeamSnapshot(
                id: "model.cart", title: "Shopping cart", category: "Model", summary: "Items in the cart",
                signature: "(Data) -> Cart", calls: 64, actions: rows(modelActions)),
            SeamSnapshot(
                id: "net.response", title: "HTTP responses", category: "Network",
                summary: "Responses to the app's requests", signature: "(URLRequest) async throws -> Response",
                behaviour: "delay(250ms)", calls: 5_321 + extra * 2, chaosCalls: 2_000 + extra, errors: 12,
                status: .active, actions: rows(netActions)),
            SeamSnapshot(
                id: "net.reachability", title: "Reachability", category: "Network",
                summary: "Whether the network is there", signature: "(Void) -> Bool", calls: 45,
                actions: rows([returning, off])),
        ])
    }

    /// `seams` with each behaviour's spec set to its description, as for behaviours applied from specs.
    static func fromSpecs(_ seams: [SeamSnapshot]) -> [SeamSnapshot] {
        seams.map { seam in
            var seam = seam
            seam.spec = seam.behaviourText
            return seam
        }
    }

    static let profiles = [
        ProfileStatus.row(
            name: "Tokyo", summary: "A day ahead, in Tokyo", key: 1, isOn: true, entryCount: 2,
            seams: ["clock.now", "location.current"]),
        ProfileStatus.row(name: "Offline", summary: "No network", key: 2, entryCount: 1, seams: ["net.reachable"]),
        ProfileStatus.row(name: "Slow network", key: 3, isOn: true, entryCount: 1, seams: ["net.request"]),
        ProfileStatus.row(name: "Pseudo-loc", key: 4, entryCount: 1, seams: ["l10n.strings"]),
        ProfileStatus.row(name: "Saved", entryCount: 3, seams: ["clock.now", "l10n.strings", "net.request"]),
    ]

    static let events = [
        Event(id: 1, time: .seconds(1), kind: .registered, seam: "clock.now", message: "Current date"),
        Event(
            id: 2, time: .seconds(62), kind: .applied, seam: "clock.now", source: "profile Tokyo",
            message: "shift(1d)"),
        Event(
            id: 3, time: .seconds(62), kind: .applied, seam: "location.current", source: "profile Tokyo",
            message: "city(\"Tokyo\")"),
        Event(
            id: 4, time: .seconds(300), kind: .applied, seam: "l10n.strings", source: "console",
            message: "accents + expand(1.5)"),
        Event(
            id: 5, time: .seconds(640), kind: .refused, seam: "clock.now", source: "console",
            message: "unknown action 'shfit' for clock.now; did you mean 'shift'?\n  shfit(1d)\n  ^"),
        Event(
            id: 6, time: .seconds(1_800), kind: .applied, seam: "net.response", source: "profile Slow network",
            message: "delay(250ms)"),
        Event(
            id: 7, time: .seconds(3_000), kind: .reverted, seam: "model.user", source: "console",
            message: "mutate(40%)"),
        Event(id: 8, time: .seconds(3_100), kind: .report, seam: "model.user", message: "mutated name → «Zoë»"),
        Event(
            id: 9, time: .seconds(3_600), kind: .revertCompleted, seam: "clock.uptime",
            message: "dilate(2)"),
        Event(
            id: 10, time: .seconds(3_700), kind: .report, seam: "net.response",
            message: "answered GET /weather after 250ms"),
    ]

    static let view = TargetView(
        title: "Weather · 天気",
        lines: [
            .init("Tokyo 東京 21°C ☀️", role: "title"),
            .init("Tomorrow: 雨 🌧 18°C"),
            .init("Café crème — cafe\u{301} noir"),
            .init("offline: showing cached data", role: "warning"),
            .init("last refresh failed", role: "error"),
            .init("updated 12:00", role: "muted"),
            .init("a role the console does not know", role: "sparkly"),
        ])

    /// One frame of data, `seconds` into the session.
    /// A delta since 0 that carries all of `data`, as of `generation`.
    static func delta(_ data: ConsoleData, generation: UInt64) -> StreamDelta {
        StreamDelta(
            target: data.target,
            registry: RegistryDelta(
                generation: generation, since: 0, uptime: data.target.uptime, sessionSeed: data.target.sessionSeed,
                isCounting: true, seams: data.seams, profiles: data.profiles, guards: data.guards,
                events: data.events, view: data.view, lastEventID: data.events.last?.id ?? 0))
    }

    static func data(seconds: Int = 3_723, calls: Int = 0, connection: ConnectionState = .connected) -> ConsoleData {
        ConsoleData(
            target: TargetHeader(
                name: "weather-demo", pid: 4242, uptime: .seconds(seconds), sessionSeed: 20_250_501,
                wallTime: wallTime.addingTimeInterval(Double(seconds - 3_723)),
                targetTime: wallTime.addingTimeInterval(Double(seconds - 3_723) + 86_400)),
            seams: seams(calls: calls), profiles: profiles, events: events, view: view, connection: connection)
    }

    /// A state of this size that has received a few frames, so rates have a history.
    static func state(rows: Int = 24, columns: Int = 80) -> ConsoleState {
        var state = ConsoleState(size: ScreenSize(rows: rows, columns: columns), timeZone: utc)
        for (frame, calls) in [0, 5, 12, 30, 31, 60].enumerated() {
            state.show(data(seconds: 3_718 + frame, calls: calls))
        }
        return state
    }

    /// The demo's eight presets, as many as its profile bar has to show.
    static let demoProfiles: [ProfileStatus] = [
        ("Tomorrow", "The clock runs a day ahead", ["clock.now"]),
        ("Tokyo", "The device is in Tokyo, and the weather service answers", ["location.current", "net.request"]),
        ("German-length UI", "Every string half as long again, with long compound words", ["l10n.string"]),
        ("Right-to-left", "Every string right to left, as Android's ar-XB", ["l10n.string"]),
        ("Flaky network", "Half the weather requests fail, the others get a slow answer", ["net.request"]),
        ("Garbage models", "A third of the profile's fields get awkward values", ["model.user.decode"]),
        ("Year 2038", "The clock stands one second after the 32-bit Unix time overflow", ["clock.now"]),
        ("Frozen time", "Time stands still and moves only when advanced (] an hour, } a day)", ["clock.now"]),
    ].enumerated().map { index, profile in
        ProfileStatus.row(
            name: profile.0, summary: profile.1, key: index + 1, isOn: index == 1 || index == 6, entryCount: 1,
            seams: profile.2.map { SeamID(stringLiteral: $0) })
    }

    /// `state` with the demo's presets as its profiles.
    static func demoState(rows: Int, columns: Int) -> ConsoleState {
        var state = ConsoleState(size: ScreenSize(rows: rows, columns: columns), timeZone: utc)
        var data = data()
        data.profiles = demoProfiles
        state.show(data)
        return state
    }

    /// `state` after each key in turn, with the commands they returned.
    static func press(_ keys: [Key], _ state: inout ConsoleState) -> [ConsoleCommand] {
        keys.flatMap { Console.update(&state, .key($0)) }
    }

    /// The keys that type `text`.
    static func typing(_ text: String) -> [Key] { text.map(Key.character) }
}

extension ProfileStatus {
    /// A profile as the console lists it: one entry per seam (padded to `entryCount` on the last seam), each `off`.
    static func row(
        name: String, summary: String? = nil, key: Int? = nil, isOn: Bool = false, entryCount: Int = 0,
        seams: [SeamID] = []
    ) -> ProfileStatus {
        var entries = seams.map { SeamSpec(seam: $0, spec: "off") }
        while entries.count < entryCount { entries.append(.init(seam: seams.last ?? "clock.now", spec: "off")) }
        return ProfileStatus(Profile(name: name, description: summary, key: key, entries: entries), isActive: isOn)
    }
}
