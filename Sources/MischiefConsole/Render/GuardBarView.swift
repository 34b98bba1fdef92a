import Mischief

/// The guard bar, one row above the profile bar while the target has guards: each guard's mark, id, condition and
/// state, tripped ones first with the figures that tripped them; `+N more` when they do not all fit. A seam's
/// detail lists the guards on that seam, and the event log has each trip whole.
enum GuardBarView {
    /// The label before the first guard.
    static let label = " Guards "

    /// How many rows the bar takes for `state`: one while there are guards.
    static func rowCount(_ state: ConsoleState) -> Int {
        (state.data?.guards ?? []).isEmpty ? 0 : 1
    }

    /// A guard's mark and role: `✕` tripped, `●` watching, `○` armed with nothing to guard yet.
    static func mark(_ status: GuardStatus) -> (String, StyleRole) {
        status.isTripped ? ("✕", .error) : status.isWatching ? ("●", .active) : ("○", .muted)
    }

    /// One guard's spans: `✕ 2 check(health.db) tripped: health.db returned false; reverted everything (1 layer)`.
    static func item(_ status: GuardStatus) -> [Canvas.Span] {
        let (mark, role) = mark(status)
        var spans: [Canvas.Span] = [
            .init(" " + mark + " ", role, bold: status.isTripped), .init("\(status.id) ", .accent),
            .init(status.definition.condition.description + " "),
        ]
        if case .tripped(_, let reason) = status.state {
            spans.append(.init("tripped: ", .error, bold: true))
            spans.append(.init(reason, .error))
        } else {
            spans.append(.init(status.stateName, role))
        }
        spans.append(.init(" "))
        return spans
    }

    /// The guards in the order shown: tripped first (most recent trip first), then the others by id.
    static func ordered(_ guards: [GuardStatus]) -> [GuardStatus] {
        func trippedAt(_ status: GuardStatus) -> Duration? {
            if case .tripped(let time, _) = status.state { return time }
            return nil
        }
        return guards.filter(\.isTripped).sorted { (trippedAt($0) ?? .zero) > (trippedAt($1) ?? .zero) }
            + guards.filter { !$0.isTripped }
    }

    /// The marker for guards left out: ` +2 more`.
    static func marker(hidden: Int) -> String { " +\(hidden) more" }

    static func draw(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas) {
        let guards = ordered(state.data?.guards ?? [])
        guard rect.height > 0, !guards.isEmpty else { return }
        var x = rect.x + canvas.text(label, x: rect.x, y: rect.y, .muted, maxWidth: rect.width)
        for (index, status) in guards.enumerated() {
            let spans = item(status)
            let width = spans.reduce(0) { $0 + DisplayWidth.of($1.text) }
            let rest = guards.count - index - 1
            let room = rect.maxX - x - (rest > 0 ? DisplayWidth.of(marker(hidden: rest)) : 0)
            if width > room {
                // The first guard is drawn cut (a trip's figures are long); a later one is counted instead.
                let hidden = index == 0 ? rest : rest + 1
                if index == 0 { x += canvas.spans(spans, x: x, y: rect.y, maxWidth: max(0, room)) }
                if hidden > 0 {
                    canvas.text(marker(hidden: hidden), x: x, y: rect.y, .accent, bold: true, maxWidth: rect.maxX - x)
                }
                return
            }
            x += canvas.spans(spans, x: x, y: rect.y, maxWidth: width)
        }
    }
}
