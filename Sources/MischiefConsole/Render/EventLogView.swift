import Mischief

/// The event log, full screen: one line per event (identical ones in a row folded with a count), oldest first, the newest
/// at the bottom; the selected line highlighted, `/` filtering, Enter showing the event whole (``EventDetailView``).
enum EventLogView {
    /// Width of the kind column.
    static let kindWidth = 16

    static func draw(_ log: EventLog, _ state: ConsoleState, size: ScreenSize, on canvas: inout Canvas) {
        let events = state.events
        let lines = log.lines(of: events)
        let rect = Rect(x: 0, y: 0, width: size.columns, height: size.rows - 1)
        if log.showsDetail, !lines.isEmpty {
            let index = lines.count - 1 - min(log.selected, lines.count - 1)
            EventDetailView.draw(lines[index], state, in: rect, on: &canvas)
            return
        }
        let shown = lines.reduce(0) { $0 + $1.count }
        let title =
            log.filter.text.isEmpty
            ? "Events · \(events.count)"
            : "Events · \(shown) of \(events.count) match “\(log.filter.text)”"
        canvas.pane(rect, title: title, focused: true)
        let inner = rect.inner
        guard !lines.isEmpty else {
            let text = events.isEmpty ? "no events yet" : "no event matches “\(log.filter.text)”; Esc clears"
            canvas.text(text, x: inner.x + 1, y: inner.y, .muted, maxWidth: inner.width - 1)
            return
        }
        let rows = inner.height
        let selected = lines.count - 1 - min(log.selected, lines.count - 1)
        // The newest lines fill the bottom; the selection stays in view.
        let bottom = min(lines.count, max(rows, selected + 1 + max(0, rows - 1 - (lines.count - 1 - selected))))
        let top = max(0, min(bottom - rows, selected))
        let seamWidth = seamWidth(of: lines.map(\.event))
        for (row, index) in (top..<min(lines.count, top + rows)).enumerated() {
            let y = inner.y + row
            let isSelected = index == selected
            if isSelected { canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), .selection) }
            let time = Format.eventTime(
                lines[index].event.time, wallClock: log.showsWallClock, data: state.data, timeZone: state.timeZone)
            canvas.spans(
                spans(of: lines[index], time: time, seamWidth: seamWidth), x: inner.x + 1, y: y,
                maxWidth: inner.width - 1,
                override: isSelected ? .selection : nil)
        }
        if lines.count > rows {
            let arrows = (top > 0 ? "↑" : " ") + (top + rows < lines.count ? "↓" : " ")
            canvas.text(arrows, x: rect.maxX - 4, y: rect.maxY - 1, .accent)
        }
    }

    /// A line: time (of the latest in a run of repeats), kind, seam, how many, the message's first line (`…` when it
    /// has more), source (who made the change; for a revert, who asked).
    static func spans(of line: EventLog.Line, time: String, seamWidth: Int) -> [Canvas.Span] {
        let event = line.event
        let messageLines = event.message.split(separator: "\n", omittingEmptySubsequences: false)
        let name = event.kind.rawValue
        let kind = name + String(repeating: " ", count: max(1, kindWidth + 1 - name.count))
        let seam = (event.seam?.rawValue ?? "").padding(to: seamWidth) + " "
        var spans: [Canvas.Span] = [
            .init(time + "  ", .muted), .init(kind, role(event.kind)), .init(seam, .accent),
        ]
        if line.count > 1 { spans.append(.init("×\(line.count) ", .warning, bold: true)) }
        spans.append(.init(String(messageLines.first ?? "") + (messageLines.count > 1 ? " …" : "")))
        if let source = event.source {
            spans.append(.init("  [\(source)]", .muted))
        }
        return spans
    }

    /// The width of the seam column: the longest seam id, at most 24.
    static func seamWidth(of events: [Event]) -> Int {
        min(24, events.reduce(0) { max($0, $1.seam?.rawValue.utf8.count ?? 0) })
    }

    /// The role of an event kind.
    static func role(_ kind: Event.Kind) -> StyleRole {
        switch kind {
        case .applied: .active
        case .reverted: .reverting
        case .revertCompleted: .reverted
        case .refused, .problem, .guardTripped: .error
        case .registered: .muted
        case .report: .text
        }
    }
}
