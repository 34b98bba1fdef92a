import Mischief

/// The event log, full screen: every recent event, oldest first, multi-line messages continued below.
enum EventLogView {
    /// Width of the kind column.
    static let kindWidth = 16

    static func draw(_ scroll: Int, _ state: ConsoleState, size: ScreenSize, on canvas: inout Canvas) {
        let events = state.data?.events ?? []
        let rect = Rect(x: 0, y: 0, width: size.columns, height: size.rows - 1)
        canvas.pane(rect, title: "Events · \(events.count)", focused: true)
        let inner = rect.inner
        guard !events.isEmpty else {
            canvas.text("no events yet", x: inner.x + 1, y: inner.y, .muted, maxWidth: inner.width - 1)
            return
        }
        // Only the newest events that can be on screen are laid out.
        let total = lineCount(of: events)
        let rows = inner.height
        let scroll = max(0, min(scroll, total - rows))
        var needed = rows + scroll
        var first = events.endIndex
        while first > events.startIndex, needed > 0 {
            first -= 1
            needed -= lineCount(of: events[first])
        }
        let lines = lines(of: events[first...], seamWidth: seamWidth(of: events))
        let start = max(0, lines.count - rows - scroll)
        for (row, spans) in lines[start..<min(lines.count, start + rows)].enumerated() {
            canvas.spans(spans, x: inner.x + 1, y: inner.y + row, maxWidth: inner.width - 1)
        }
        if total > rows {
            let arrows = (total - rows - scroll > 0 ? "↑" : " ") + (scroll > 0 ? "↓" : " ")
            canvas.text(arrows, x: rect.maxX - 4, y: rect.maxY - 1, .accent)
        }
    }

    /// How many lines the log takes.
    static func lineCount(of events: [EventRow]) -> Int {
        events.reduce(0) { $0 + lineCount(of: $1) }
    }

    /// How many lines an event takes: one per line of its message.
    static func lineCount(of event: EventRow) -> Int {
        1 + event.message.utf8.count { $0 == UInt8(ascii: "\n") }
    }

    /// The log's lines: time, kind, seam, message and source; further message lines indented under it.
    static func lines(of events: ArraySlice<EventRow>, seamWidth: Int) -> [[Canvas.Span]] {
        var lines: [[Canvas.Span]] = []
        lines.reserveCapacity(events.count)
        for event in events {
            let messageLines = event.message.split(separator: "\n", omittingEmptySubsequences: false)
            let kind = event.kind + String(repeating: " ", count: max(1, kindWidth + 1 - event.kind.count))
            let seam = (event.seam?.rawValue ?? "").padding(to: seamWidth) + " "
            var first: [Canvas.Span] = [
                .init(Format.elapsed(event.time) + "  ", .muted), .init(kind, role(event.kind)), .init(seam, .accent),
                .init(String(messageLines.first ?? "")),
            ]
            if let source = event.source {
                first.append(.init("  [\(source)]", .muted))
            }
            lines.append(first)
            let indent = String(repeating: " ", count: 10 + kindWidth + 1 + DisplayWidth.of(seam))
            for line in messageLines.dropFirst() {
                lines.append([.init(indent + line, role(event.kind) == .error ? .error : .text)])
            }
        }
        return lines
    }

    /// The width of the seam column: the longest seam id, at most 24.
    static func seamWidth(of events: [EventRow]) -> Int {
        min(24, events.reduce(0) { max($0, $1.seam?.rawValue.utf8.count ?? 0) })
    }

    /// The role of an event kind.
    static func role(_ kind: String) -> StyleRole {
        switch kind {
        case "applied": .active
        case "reverted": .reverting
        case "revert-completed": .reverted
        case "refused": .error
        case "registered": .muted
        default: .text
        }
    }
}
