import Foundation
import Mischief
import Testing

@testable import MischiefConsole

/// Action signatures on the wire, drafts for the picker and Space, and nudging.
@Suite struct ActionSignatureDraftTests {
    typealias Parameter = ActionSignature.Parameter
    typealias F = ConsoleFixtures

    static let signatures: [ActionSignature] =
        F.clockActions + F.locationActions + F.l10nActions + F.modelActions
        + F.netActions + [
            ActionSignature(
                "play", summary: "plays a track",
                parameters: [
                    Parameter("track", .string, default: .string("intro \"live\""), summary: "which"),
                    Parameter("loop", .flag),
                    Parameter("at", .date, default: .date(SpecDate(seconds: 2_147_483_647))),
                    Parameter("then", .spec, default: .word("off")),
                    Parameter("extra", .any, default: .array([.integer(1), .null])),
                    Parameter("pace", .word([]), default: .word("fast")),
                ])
        ]

    @Test(arguments: signatures) func roundTripsThroughJSON(_ signature: ActionSignature) throws {
        let json = try JSONEncoder().encode(signature)
        #expect(try JSONDecoder().decode(ActionSignature.self, from: json) == signature)
    }

    /// `suggestions` came after API version 1: sent only when a parameter has some, and none when a target from
    /// before them leaves them out.
    @Test func suggestionsAreSentWhenThereAreSomeAndReadAsNoneWhenMissing() throws {
        let city = F.locationActions[0]
        let object = try #require(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(city)) as? [String: Any])
        var parameters = try #require(object["parameters"] as? [[String: Any]])
        #expect(parameters[0]["suggestions"] as? [String] == city.parameters[0].suggestions)
        let jitter = try JSONEncoder().encode(F.locationActions[1])
        #expect(!String(decoding: jitter, as: UTF8.self).contains("suggestions"))
        parameters[0]["suggestions"] = nil
        var old = object
        old["parameters"] = parameters
        let decoded = try JSONDecoder().decode(
            ActionSignature.self, from: try JSONSerialization.data(withJSONObject: old))
        #expect(decoded.parameters[0].suggestions.isEmpty && decoded.parameters[0].name == "name")
    }

    @Test func describesParameterKinds() {
        let mutate = F.modelActions[0]
        #expect(mutate.parameters.map(\.kindText) == ["percent", "one of names, dates, all"])
        #expect(mutate.parameters[0].defaultValue?.description == "30%")
        #expect(mutate.parameters[0].step?.description == "10%")
        #expect(mutate.parameters[1].step == nil)
    }

    @Test(arguments: [
        ("shift", "shift(1d)", 9, true),
        ("dilate", "dilate(1)", 9, true),
        ("off", "off", 3, true),
        ("city", "city(\"\")", 6, false),
        ("jitter", "jitter(10)", 10, true),
        ("mutate", "mutate(30%)", 11, true),
        ("return", "return()", 7, false),
        ("delay", "delay(100ms)", 12, true),
        ("throw", "throw", 5, true),
        ("play", "play", 4, true),
    ])
    func drafts(_ name: String, _ text: String, _ cursor: Int, _ complete: Bool) throws {
        let signature = try #require(Self.signatures.first { $0.name == name })
        #expect(signature.draft == .init(text: text, cursor: cursor, isComplete: complete))
    }

    @Test func aDateStartsAtNowAndARequiredStringAtItsExample() throws {
        let freeze = try #require(Self.signatures.first { $0.name == "freeze" })
        let now = Date(timeIntervalSince1970: 1_746_187_200)  // 2025-05-02T12:00:00Z
        let draft = freeze.draft(now: now)
        #expect(draft == .init(text: "freeze(2025-05-02T12:00:00Z)", cursor: 28, isComplete: true))
        #expect(ActionSignature.specDate(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(ActionSignature.specDate(Date(timeIntervalSince1970: 2_147_483_648)) == "2038-01-19T03:14:08Z")
        let city = Parameter("name", .string, summary: "e.g. \"São Paulo\"; case is ignored")
        #expect(city.example == "\"São Paulo\"")
        let path = Parameter("path", .string, summary: "a dotted path such as address.city or x")
        #expect(path.example == "\"address.city\"")
        #expect(Parameter("file", .string, summary: "a GPX 1.1 file").example == nil)
    }

    @Test func draftsOfSeveralRequiredParametersLabelAllButTheFirst() {
        let row = ActionSignature(
            "coordinate", summary: "a place", parameters: [Parameter("lat", .number), Parameter("lon", .number)])
        #expect(row.draft == .init(text: "coordinate(, lon: )", cursor: 11, isComplete: false))
    }

    @Test func defaultSpecSkipsOffAndActionsThatNeedArguments() {
        let seams = F.seams()
        #expect(seams.first { $0.id == "clock.now" }?.defaultSpec == "shift(1d)")
        #expect(seams.first { $0.id == "location.heading" }?.defaultSpec == "jitter(10)")
        #expect(seams.first { $0.id == "net.response" }?.defaultSpec == "offline")
        #expect(seams.first { $0.id == "net.reachability" }?.defaultSpec == nil)
        #expect(seams.first { $0.id == "clock.timezone" }?.defaultSpec == nil)
    }

    @Test(
        arguments: [
            ("shift(1d)", 1, "shift(2d)"),
            ("shift(+1d)", 3, "shift(4d)"),
            ("shift", -2, "shift(-1d)"),
            ("50%2*shift(1d) -> off", 1, "50%2*shift(2d) -> off"),
            ("freeze(2038-01-19) -> dilate(1.5)", 1, "freeze(2038-01-19T00:00:00Z) -> dilate(1.6)"),
            ("freeze(2038-01-19)", 1, nil),
            ("off", 1, nil),
            ("shift(", 1, nil),
        ] as [(String, Int, String?)])
    func nudges(_ spec: String, _ steps: Int, _ expected: String?) throws {
        let clock = try #require(F.seams().first { $0.id == "clock.now" })
        #expect(clock.nudged(spec, by: steps) == expected)
    }

    @Test func snapshotsFromARegistry() throws {
        let registry = Registry(sessionSeed: 9)
        let now = Seam<Void, Int, Never>(
            "console-test.now", title: "Now", category: "Test", summary: "a number",
            actions: [.produce(ActionSignature("seven", summary: "returns 7")) { _, _ in .constant(7) }]
        ) { 1 }
        try registry.register(now)
        try registry.define(Profile(name: "Seven", key: 7, entries: [.init(seam: "console-test.now", spec: "seven")]))
        try registry.apply(spec: "return(5)", to: "console-test.now", source: "console")

        let snapshot = registry.snapshot(includingActions: true)
        let row = try #require(snapshot.seam("console-test.now"))
        #expect(row.id == "console-test.now")
        #expect(row.title == "Now" && row.category == "Test" && row.summary == "a number")
        #expect(row.signature == "(()) -> Int")
        #expect(row.behaviourText == "return(5)")
        #expect(row.status == .active)
        #expect(row.actions.first?.name == "seven")
        #expect(row.actions.contains { $0.name == "return" })

        let profile = try #require(registry.profiles.first)
        #expect(profile.profile.name == "Seven" && profile.profile.key == 7 && !profile.isActive)
        #expect(profile.seams == ["console-test.now"])
        let applied = try #require(registry.events().last)
        #expect(applied.kind == .applied && applied.seam == "console-test.now" && applied.source == "console")
    }
}
