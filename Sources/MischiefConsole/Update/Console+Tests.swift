import Mischief

// A live test session (`MISCHIEF_SERVE=1 swift test`): where the console's changes go, one running test's scope or
// the whole process.

extension ConsoleState {
    /// The tests the data lists, without those that ended when ``hidesEndedTests``.
    var shownTests: [ScopeSnapshot] {
        let scopes = data?.scopes ?? []
        return hidesEndedTests ? scopes.filter { $0.status == .running } : scopes
    }

    /// The running test changes go to (``testScope``), when it still runs.
    var chosenTest: ScopeSnapshot? {
        guard let testScope else { return nil }
        return data?.scopes.first { "#\($0.id)" == testScope && $0.status == .running }
    }

    /// The calls the chosen test's pauses hold on `seam`.
    func testHeld(on seam: SeamID) -> Int {
        chosenTest?.seams.first { $0.seam == seam }?.held ?? 0
    }
}

extension Console {
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
