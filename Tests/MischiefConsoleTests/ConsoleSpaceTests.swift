import Foundation
import Mischief
import MischiefConsole
import Testing

/// Space brings back the last *spec* a seam had, never the description of a behaviour applied in code (`closure`,
/// which no target takes back as a spec); without one it applies the seam's first action.
@Suite struct ConsoleSpaceTests {
    let registry = Registry(sessionSeed: 5)
    let answer = Seam<Void, Int, Never>("test.answer", title: "The answer", category: "Test", summary: "A number") {
        42
    }
    let controller: LocalController

    init() throws {
        try registry.register(answer)
        controller = LocalController(
            registry: registry, name: "space test",
            saveDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("space-\(UUID())"))
    }

    /// The console's state after it has seen the registry as it is now.
    func refreshed(_ state: inout ConsoleState) async throws {
        state.show(await controller.shown())
    }

    /// What Space sends for the selected (only) seam, after its behaviour was reverted.
    func spaceAfterRevert(_ state: inout ConsoleState) async throws -> [ConsoleCommand] {
        try await refreshed(&state)
        registry.revert(seam: "test.answer")
        try await refreshed(&state)
        return Console.update(&state, .key(.character(" ")))
    }

    @Test func aBehaviourAppliedInCodeIsNotSentBackAsASpec() async throws {
        var state = ConsoleState(size: ScreenSize(rows: 40, columns: 120))
        try registry.apply(answer, Behaviour<Void, Int, Never>.closure { _ in 7 })
        let data = await controller.shown()
        #expect(data.seams[0].behaviourText == "closure", "shown as its description")
        #expect(data.seams[0].spec == nil, "but it has no spec")

        let commands = try await spaceAfterRevert(&state)
        let fallback = try #require(state.selectedSeam?.defaultSpec)
        #expect(commands == [.apply(seam: "test.answer", spec: fallback)])
        #expect(fallback != "closure")
        try await controller.apply(fallback, to: "test.answer")
    }

    @Test func theLastSpecComesBackEvenWhenItsDescriptionDiffers() async throws {
        var state = ConsoleState(size: ScreenSize(rows: 40, columns: 120))
        try await controller.apply("50% return(7)", to: "test.answer")
        let data = await controller.shown()
        #expect(data.seams[0].spec == "50%return(7)")
        #expect(try await spaceAfterRevert(&state) == [.apply(seam: "test.answer", spec: "50%return(7)")])
    }

    /// Space brings back what the user last applied from this console, not what code (or a profile) put there after.
    @Test func aCodeChangeAfterASpecLeavesTheConsolesSpecToBringBack() async throws {
        var state = ConsoleState(size: ScreenSize(rows: 40, columns: 120))
        try await controller.apply("return(7)", to: "test.answer")
        try await refreshed(&state)
        registry.revert(seam: "test.answer")
        try registry.apply(answer, Behaviour<Void, Int, Never>.closure { _ in 8 })
        let commands = try await spaceAfterRevert(&state)
        #expect(commands == [.apply(seam: "test.answer", spec: "return(7)")])
    }

    @Test func aBehaviourFromCodeIsNotNudgedAsASpec() async throws {
        var state = ConsoleState(size: ScreenSize(rows: 40, columns: 120))
        try registry.apply(answer, Behaviour<Void, Int, Never>.closure { _ in 7 })
        try await refreshed(&state)
        #expect(Console.update(&state, .key(.character("+"))) == [])
        #expect(state.message?.text.contains("built in code") == true, "\(String(describing: state.message))")
    }

    @Test func theSpecTravelsInTheJSONAndOldAnswersWithoutItStillDecode() throws {
        let row = SeamSnapshot(id: "test.answer", title: "The answer", category: "Test", behaviour: "closure")
        let encoded = try JSONEncoder().encode(row)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["behaviour"] as? String == "closure")
        #expect(object["spec"] == nil)
        var old = object
        old["spec"] = nil
        let decoded = try JSONDecoder().decode(SeamSnapshot.self, from: try JSONSerialization.data(withJSONObject: old))
        #expect(decoded == row)
        var withSpec = row
        withSpec.spec = "return(7)"
        #expect(try JSONDecoder().decode(SeamSnapshot.self, from: JSONEncoder().encode(withSpec)).spec == "return(7)")
    }
}
