import Mischief

// A live test session (`MISCHIEF_SERVE=1 swift test`): where the console's changes go, one running test's scope or
// the whole process.

extension ConsoleState {
    /// The tests the data lists, without those that ended when ``hidesEndedTests``.
    var shownTests: [ScopeSnapshot] {
        let scopes = data?.scopes ?? []
        return hidesEndedTests ? scopes.filter { $0.status == .running } : scopes
    }

    /// The running tests changes go to (those ``testScope`` names).
    var chosenTests: [ScopeSnapshot] {
        guard let testScope else { return [] }
        return (data?.scopes ?? []).filter { $0.status == .running && $0.isNamed(by: testScope) }
    }

    /// The calls the chosen tests' pauses hold on `seam`.
    func testHeld(on seam: SeamID) -> Int {
        chosenTests.reduce(0) { $0 + ($1.seams.first { $0.seam == seam }?.held ?? 0) }
    }

    /// The calls the chosen tests' pauses hold on `seam`, each with its input, oldest first within a test.
    func testHeldCalls(on seam: SeamID) -> [HeldCall] {
        chosenTests.flatMap { $0.seams.first { $0.seam == seam }?.heldCalls ?? [] }
    }
}

extension Console {
    /// `test PATTERN` in the palette: changes go to the running tests the pattern names; `test all`, to the process.
    static func chooseTests(_ pattern: String?, in state: inout ConsoleState) {
        state.testScope = pattern
        guard let pattern else {
            state.message = .init("changes go to the whole process")
            return
        }
        let named = state.chosenTests.map { "#\($0.id) \($0.name)" }
        state.message = .init(
            named.isEmpty
                ? "no running test matches \(pattern) now; changes go to those that do when they are made"
                : "changes go to \(named.joined(separator: ", ")) alone")
    }

    /// `n`: changes go to the next running test after the one they go to now; after the last, to the whole process.
    static func nextTest(in state: inout ConsoleState) {
        let running = (state.data?.scopes ?? []).filter { $0.status == .running }
        guard !running.isEmpty else {
            state.testScope = nil
            state.message = .init("no test is running here: changes go to the whole process")
            return
        }
        let current = running.firstIndex { "#\($0.id)" == state.testScope }
        let next = current.map { $0 + 1 } ?? 0
        guard next < running.count else {
            state.testScope = nil
            state.message = .init("changes go to the whole process (n: a running test)")
            return
        }
        state.testScope = "#\(running[next].id)"
        state.message = .init("changes go to test #\(running[next].id) \(running[next].name) alone (n: the next)")
    }
}
