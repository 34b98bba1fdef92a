import Foundation
import Mischief
import MischiefCatalog
import Testing

@testable import MischiefDemo

@Suite("DemoTarget")
struct DemoTargetTests {
    let registry = Registry(sessionSeed: 2061)
    let clock = ChaosClock(id: "clock.now")
    let demo: DemoTarget

    init() throws {
        demo = try DemoTarget(registry: registry, clock: clock)
        try demo.definePresets()
    }

    func text(_ view: TargetView) -> String { view.lines.map(\.text).joined(separator: "\n") }

    func days(in view: TargetView) throws -> Int {
        let line = try #require(view.lines.first { $0.text.contains(" days, ") })
        return try #require(Int(line.text.split(separator: " ")[0]))
    }

    @Test func thePresetsLoadWithKeysOneToEight() {
        let profiles = registry.profiles.map(\.profile)
        #expect(profiles.map(\.key) == Array(1...8))
        #expect(profiles.map(\.name).prefix(3) == ["Tomorrow", "Tokyo", "German-length UI"])
    }

    @Test func tomorrowTakesADayOffTheCountdown() throws {
        let today = try days(in: demo.screen())
        try registry.apply(profile: "Tomorrow")
        #expect(try days(in: demo.screen()) == today - 1)
    }

    @Test func year2038FreezesTheDateShown() throws {
        try registry.apply(profile: "Year 2038")
        #expect(text(demo.screen()).contains("today is 2038-01-19 03:14:08 UTC"))
    }

    @Test func germanLengthStretchesTheGreetingButKeepsItsArguments() throws {
        let plain = text(demo.screen())
        #expect(plain.contains("Welcome back, Ada! You have 3"))
        try registry.apply(profile: "German-length UI")
        let long = text(demo.screen())
        #expect(!long.contains("Welcome back, Ada! You have 3"))
        #expect(long.contains("Ada") && long.contains("…"))
    }

    @Test func garbageModelsChangeTheCardTheSameWayForTheSameSeed() throws {
        let plain = text(demo.screen())
        try registry.apply(profile: "Garbage models")
        let first = text(demo.screen())
        registry.revertAll()
        try registry.apply(profile: "Garbage models")
        #expect(text(demo.screen()) == first)
        #expect(first != plain)
    }

    /// Every seam the console lists is called by the app, so changing any of them shows (`model.user` was never
    /// called: the card showed the decoded model without passing it through the seam).
    @Test func theAppCallsEverySeamItRegisters() async throws {
        let observation = registry.observe()  // calls are counted while someone watches, as the console does
        defer { observation.cancel() }
        _ = demo.screen()
        // Requests reach `net.request` while a rule is applied (with none, its URL protocol declines them at once).
        try registry.apply(spec: "offline", to: "net.request")
        await demo.weather.update(for: try demo.location.current())
        for seam in registry.snapshot().seams {
            #expect(seam.counters.calls > 0, "\(seam.id) is never called")
        }
    }

    /// The baseline a demo should break works: the weather comes from the demo's own loopback server, so with
    /// nothing applied, and calls counted as when a console watches, `net.request` counts no errors (it counted 8 of
    /// 9 calls as errors against a closed port) and the panel shows the weather, not "offline (connection refused)".
    @Test func withNothingAppliedTheWeatherAnswersAndNetRequestCountsNoErrors() async throws {
        let observation = registry.observe()
        defer { observation.cancel() }
        for _ in 0..<3 { await demo.weather.update(for: try demo.location.current()) }
        let counters = try #require(registry.snapshot().seams.first { $0.id == "net.request" }).counters
        #expect(counters.calls == 3 && counters.errors == 0, "\(counters)")
        #expect(demo.weather.latest == .answer(summary: "Clear skies", celsius: 18), "\(demo.weather.latest)")
        #expect(text(demo.screen()).contains("Clear skies, 18 °C"))
        // A rule still breaks it, and that failure is the only one counted.
        try registry.apply(spec: "offline", to: "net.request")
        await demo.weather.update(for: try demo.location.current())
        #expect(registry.snapshot().seams.first { $0.id == "net.request" }?.counters.errors == 1)
    }

    /// A client's query cannot crash the server: a latitude of `nan` or `1e999` gets the default place's weather.
    @Test func theWeatherServiceAnswersAnyQuery() {
        let head = { (target: String) in Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8) }
        #expect(DemoLoopbackServer.reply(to: head("/v1/weather?lat=nan")).hasSuffix(#""celsius": 18}"#))
        #expect(DemoLoopbackServer.reply(to: head("/v1/weather?lat=1e999&lon=0")).hasSuffix(#""celsius": 18}"#))
        #expect(DemoLoopbackServer.reply(to: head("/v1/weather?lat=35.68")).hasSuffix(#""celsius": 19}"#))
        #expect(DemoLoopbackServer.reply(to: head("/plain")).hasSuffix("\r\n\r\nok\n"))
        #expect(DemoLoopbackServer.reply(to: []).hasSuffix("\r\n\r\nok\n"))
    }

    @Test func aModelValueBehaviourChangesTheCard() throws {
        let plain = text(demo.screen())
        try registry.apply(spec: "randomize(fields: 100%)", to: "model.user", seed: 3)
        let changed = text(demo.screen())
        #expect(plain.contains("Ada Lovelace") && !changed.contains("Ada Lovelace"), "\(changed)")
    }

    /// `set` learns the model's shape, which needs every enum it meets to be synthesisable: the demo's `Plan` was not
    /// `CaseIterable`, and `set(path: "name", …)` was refused with a decoding error about `plan`.
    @Test func setChangesOneFieldOfTheCard() throws {
        try registry.apply(spec: #"set(path: "name", value: "Grace Hopper")"#, to: "model.user")
        let changed = text(demo.screen())
        #expect(changed.contains("Grace Hopper") && !changed.contains("Ada Lovelace"), "\(changed)")
    }

    @Test func tokyoMovesTheWeatherPanel() throws {
        #expect(text(demo.screen()).contains("Lisbon, Portugal"))
        try registry.apply(profile: "Tokyo")
        #expect(text(demo.screen()).contains("Tokyo, Japan"))
    }
}

/// The preset profiles are built into the binary as the text of `Sources/MischiefDemo/Profiles`.
@Suite struct DemoProfilesTextTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/MischiefDemo/Profiles")

    @Test func theEmbeddedTextEqualsEachProfileFile() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(DemoProfilesText.files.map(\.name) == names, "run Scripts/embed-files.sh")
        for file in DemoProfilesText.files {
            let text = try String(contentsOf: Self.directory.appendingPathComponent(file.name), encoding: .utf8)
            #expect(file.text == text, "\(file.name) differs from Profiles/: run Scripts/embed-files.sh")
        }
    }
}
