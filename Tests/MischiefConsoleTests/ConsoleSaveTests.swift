import Foundation
import Mischief
import MischiefConsole
import MischiefFiles
import Testing

/// `s` never replaces a file the console did not write without asking: saving "Tokyo" over a hand-written
/// `tokyo.yaml` that holds two profiles asks first, and keeps the file when the answer is not `y`.
@Suite struct ConsoleSaveTests {
    let registry = Registry(sessionSeed: 5)
    let answer = Seam<Void, Int, Never>("test.answer", title: "The answer", category: "Test", summary: "A number") {
        42
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("save-\(UUID().uuidString)")
    let controller: LocalController

    static let handWritten = """
        # My two cities.
        - name: Tokyo
          entries:
            test.answer: return(9)
        - name: Osaka
          entries:
            test.answer: return(6)

        """

    init() throws {
        try registry.register(answer)
        controller = LocalController(registry: registry, name: "save test", saveDirectory: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var tokyo: URL { directory.appendingPathComponent("tokyo.yaml") }

    @Test func aHandWrittenFileIsNotReplacedWithoutAsking() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.handWritten.utf8).write(to: tokyo)
        try await controller.apply("return(7)", to: "test.answer")

        await #expect(throws: ConsoleError.wouldReplace("tokyo.yaml exists (2 profiles: Tokyo, Osaka)")) {
            _ = try await controller.saveProfile(named: "Tokyo", overwrite: false)
        }
        #expect(try String(contentsOf: tokyo, encoding: .utf8) == Self.handWritten)

        let path = try await controller.saveProfile(named: "Tokyo", overwrite: true)
        #expect(path == tokyo.path)
        let saved = try ProfileFile.load(contentsOf: tokyo)
        #expect(saved.map(\.name) == ["Tokyo"])
        #expect(saved.first?.entries.map(\.spec) == ["return(7)"])
    }

    @Test func aFileTheConsoleSavedForTheSameProfileIsReplacedWithoutAsking() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try await controller.apply("return(7)", to: "test.answer")
        _ = try await controller.saveProfile(named: "Tokyo", overwrite: false)
        try await controller.apply("return(8)", to: "test.answer")
        _ = try await controller.saveProfile(named: "Tokyo", overwrite: false)
        #expect(try ProfileFile.load(contentsOf: tokyo).first?.entries.map(\.spec) == ["return(8)"])

        // Another profile whose name gives the same file name is not the same profile.
        await #expect(throws: ConsoleError.wouldReplace("tokyo.yaml exists (1 profile: Tokyo)")) {
            _ = try await controller.saveProfile(named: "TOKYO", overwrite: false)
        }
    }

    @Test func theConsoleAsksAndKeepsTheFileUnlessTheAnswerIsYes() {
        var state = ConsoleState(size: ScreenSize(rows: 24, columns: 80))
        let question = "tokyo.yaml exists (2 profiles: Tokyo, Osaka)"
        _ = Console.update(&state, .commandFinished(.saveProfile("Tokyo"), .needsConfirmation(question)))
        #expect(state.mode == .confirmOverwrite(name: "Tokyo", question: question))
        let screen = Console.render(state, size: state.size, theme: ThemeInfo(name: "test", isMonochrome: true)).text
        #expect(screen.contains("tokyo.yaml exists (2 profiles: Tokyo, Osaka); overwrite? y/N"), "\(screen)")

        #expect(Console.update(&state, .key(.character("q"))) == [], "any other key keeps the file, even q")
        #expect(state.mode == .browse)
        #expect(state.message?.text == "not saved: tokyo.yaml exists (2 profiles: Tokyo, Osaka)")

        _ = Console.update(&state, .commandFinished(.saveProfile("Tokyo"), .needsConfirmation(question)))
        #expect(Console.update(&state, .key(.character("y"))) == [.overwriteProfile("Tokyo")])
        #expect(state.mode == .browse)
        _ = Console.update(&state, .commandFinished(.overwriteProfile("Tokyo"), .success("/p/tokyo.yaml")))
        #expect(state.message?.text == "saved Tokyo to /p/tokyo.yaml")
    }

    @Test func aRefusalToReplaceBecomesAQuestion() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.handWritten.utf8).write(to: tokyo)
        try await controller.apply("return(7)", to: "test.answer")
        let result = await ConsoleCommand.saveProfile("Tokyo").perform(with: controller)
        #expect(result?.result == .needsConfirmation("tokyo.yaml exists (2 profiles: Tokyo, Osaka)"))
        #expect(
            await ConsoleCommand.overwriteProfile("Tokyo").perform(with: controller)?.result == .success(tokyo.path))
    }
}
