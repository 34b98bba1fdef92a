import Mischief

/// One event shown whole (Enter in the event log): its time, kind, seam, source, the session seed, how often it
/// happened, and its message wrapped to the screen.
enum EventDetailView {
    static func draw(_ line: EventLog.Line, _ state: ConsoleState, in rect: Rect, on canvas: inout Canvas) {
        let event = line.event
        canvas.pane(rect, title: event.id >= 0 ? "Event #\(event.id)" : "Problem at start", focused: true)
        let inner = rect.inner
        let x = inner.x + 1
        let width = inner.width - 2
        var rows: [[Canvas.Span]] = []
        func field(_ name: String, _ value: String, _ role: StyleRole = .text) {
            rows.append([.init(name.padding(to: 8), .muted), .init(value, role, bold: role != .text)])
        }
        var time = Format.elapsed(event.time) + " after the target started"
        if line.count > 1 { time += " (the last of \(line.count); the first at \(Format.elapsed(line.firstTime)))" }
        field("time", time)
        if let target = state.data?.target {
            field("wall", Format.dateTime(Format.wallDate(at: event.time, of: target), in: state.timeZone))
        }
        field("kind", event.kind.rawValue, EventLogView.role(event.kind))
        if let seam = event.seam {
            let title = state.data?.seams.first { $0.id == seam }?.title
            field("seam", seam.rawValue + (title.map { " · \($0)" } ?? ""), .accent)
        }
        field("source", event.source ?? "the target")
        if let seed = state.data?.target.sessionSeed { field("seed", "\(seed) (the session's)") }
        rows.append([])
        let messageRole: StyleRole = EventLogView.role(event.kind) == .error ? .error : .text
        for text in TextWrap.lines(event.message, width: width) { rows.append([.init(text, messageRole)]) }
        if let commands = ChangeCommands.lines(for: event, socket: state.socketPath) {
            // The same change from a shell: `y` copies the first line, `Y` the second.
            rows.append([])
            rows.append([.init("The same from a shell (y copies, Y the curl line)", .title, bold: true)])
            for text in TextWrap.lines(commands.cli, width: width) { rows.append([.init(text, .accent)]) }
            for text in TextWrap.lines(commands.curl, width: width) { rows.append([.init(text, .muted)]) }
        }
        for (row, spans) in rows.prefix(inner.height).enumerated() {
            canvas.spans(spans, x: x, y: inner.y + row, maxWidth: width)
        }
        if rows.count > inner.height {
            canvas.text("↓", x: rect.maxX - 3, y: rect.maxY - 1, .accent)
        }
    }
}
