import Mischief

/// A live test session's tests, in the target pane: each test's state and time, the seams it called with its own
/// counts, and its layers with their sources (`test: NAME` for its traits'); the test changes go to marked `▶`.
enum TestsPaneView {
    /// The pane's lines for `state`, each with its role.
    static func lines(_ state: ConsoleState) -> [(text: String, role: StyleRole)] {
        let uptime = state.data.map { Double($0.target.uptime.components.seconds) } ?? 0
        var lines: [(String, StyleRole)] = []
        for test in state.shownTests {
            let mark = test.status == .running && state.testScope.map(test.isNamed(by:)) == true ? "▶" : " "
            let tenths = Int((test.duration(now: uptime) * 10).rounded())
            let seconds = "\(tenths / 10).\(tenths % 10)s"
            let role: StyleRole =
                switch test.status {
                case .running: .text
                case .passed: .active
                case .failed: .error
                }
            lines.append(("\(mark) #\(test.id) \(test.status.rawValue) \(seconds)  \(test.name)", role))
            for counts in test.seams {
                var text = "     \(counts.seam) \(counts.calls) call\(counts.calls == 1 ? "" : "s")"
                if counts.errors > 0 { text += " · \(counts.errors) failed" }
                if counts.held > 0 { text += " · \(counts.held) held" }
                lines.append((text, counts.held > 0 ? .warning : .muted))
            }
            for layer in test.layers {
                lines.append(
                    ("     \(layer.seam): \(layer.spec)  (\(layer.source ?? test.ownSource))", .warning))
            }
        }
        return lines
    }

    /// The pane's title: how many tests run of how many, and where changes go (`to #2`, or `to all`: the process).
    static func title(_ state: ConsoleState) -> String {
        let scopes = state.data?.scopes ?? []
        let running = scopes.filter { $0.status == .running }.count
        let target = state.testScope.map { "to \($0)" } ?? "to all"
        return "Tests \(running)/\(scopes.count) running · \(target)" + (state.hidesEndedTests ? " · ended hidden" : "")
    }
}
