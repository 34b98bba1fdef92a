import Foundation
import Mischief
import MischiefConsole
import Testing

@Suite("ConsoleRunner")
struct ConsoleRunnerTests {
    let target: RunnerTarget
    let terminal = MemoryTerminal(size: ScreenSize(rows: 40, columns: 120))
    var registry: Registry { target.registry }
    var controller: LocalController { target.controller }

    init() throws {
        target = try RunnerTarget(name: "runner test")
    }

    /// The first frame containing `text`; after 10 s without one, an issue showing the last screen.
    @discardableResult
    func screen(containing text: String, sourceLocation: SourceLocation = #_sourceLocation) async -> String {
        let terminal = self.terminal
        let found = await withTaskGroup(of: CellGrid?.self) { group in
            group.addTask { await terminal.frame(containing: text) }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))  // a deadline, not a wait: generous for a loaded machine
                return nil
            }
            defer { group.cancelAll() }
            return await group.next()!
        }
        guard let found else {
            Issue.record(
                "no frame with \"\(text)\"; last:\n\(terminal.lastGrid?.text ?? "none")", sourceLocation: sourceLocation
            )
            return ""
        }
        return found.text
    }

    func start() -> Task<ConsoleRunner.Exit, any Error> {
        let runner = ConsoleRunner(terminal: terminal, controller: controller)
        return Task { try await runner.run() }
    }

    @Test func everyProblemFoundAtStartIsInTheEventLog() async throws {
        let runner = ConsoleRunner(
            terminal: terminal, controller: controller,
            messages: ["profiles/a.yaml:2:3: error: first broken file", "profiles/b.yaml:1:1: error: second one"])
        let run = Task { try await runner.run() }
        await screen(containing: "2 problems at start (e lists them)")
        terminal.push(.character("e"))
        let log = await screen(containing: "Events · ")
        #expect(log.contains("problem") && log.contains("profiles/a.yaml:2:3: error: first broken file"))
        #expect(log.contains("profiles/b.yaml:1:1: error: second one"))
        terminal.push(.character("q"))
        terminal.push(.character("q"))
        #expect(try await run.value == .quit)
    }

    @Test func theSpecHistoryIsReadAtStartABrokenOneNotedAndWrittenWhenASpecApplies() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-history-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = SpecHistoryFile.url(environment: ["XDG_STATE_HOME": directory.path])
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: file)
        let runner = ConsoleRunner(terminal: terminal, controller: controller, historyFile: file)
        let run = Task { try await runner.run() }
        await screen(containing: "the spec history cannot be read")
        terminal.push(Key.character(" "))
        await screen(containing: "active")
        terminal.push(.character("q"))
        await screen(containing: "changes are not saved")
        terminal.push(.character("q"))
        #expect(try await run.value == .quit)
        let (history, problem) = SpecHistoryFile.load(from: file)
        #expect(problem == nil)
        #expect(history.specs(for: "test.answer").count == 1)
    }

    @Test func keysChangeTheTargetAndTheScreenShowsIt() async throws {
        let run = start()
        await screen(containing: "The answer")
        terminal.push(.character("/"))  // filter mode takes keys literally…
        terminal.push(.character("q"))
        await screen(containing: "0 of 1 match “q”")
        terminal.push(.escape)  // …until Esc
        terminal.push(Key.character(" "))
        let active = await screen(containing: "active")
        #expect(active.contains("random"))
        #expect(registry.snapshot().seam("test.answer")?.behaviourText != nil)
        terminal.push(.character("R"))
        await screen(containing: "everything reverted")
        #expect(registry.snapshot().seam("test.answer")?.behaviourText == nil)
        terminal.push(.character("q"))
        await screen(containing: "changes are not saved")  // this console changed the target: q asks once
        terminal.push(.character("q"))
        #expect(try await run.value == .quit)
        #expect(terminal.stopCount == 1)
    }

    @Test func aSignalEndsTheConsoleAndRestoresTheTerminal() async throws {
        let run = start()
        await screen(containing: "The answer")
        terminal.send(.terminate)
        #expect(try await run.value == .signal(.terminate))
        #expect(!terminal.isRunning)
    }

    @Test func theLocalControllerRefusesABadSpecWithItsCaret() async throws {
        await #expect(throws: ConsoleError.self) { try await controller.apply(#"return("x")"#, to: "test.answer") }
        do {
            try await controller.apply(#"return("x")"#, to: "test.answer")
        } catch let error as ConsoleError {
            #expect(error.description.contains("needs JSON for Int"))
            #expect(error.description.contains("^"))
        }
        await #expect(throws: ConsoleError.refused("time is real: apply virtual or freeze to clock.now to move it")) {
            try await controller.advanceTime(by: .seconds(3600))
        }
    }

    @Test func savingWritesAProfileFileThatLoadsBack() async throws {
        try await controller.apply("return(7)", to: "test.answer")
        let path = try await controller.saveProfile(named: "Lucky Seven", overwrite: false)
        #expect(path.hasSuffix("lucky-seven.yaml"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("test.answer: return(7)"))
        let data = await controller.shown()
        #expect(data.seams.first?.behaviourText == "return(7)")
        #expect(data.target.name == "runner test")
    }
}
