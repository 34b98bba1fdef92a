import Mischief

/// The selected seam in detail: what it is and does now, then the guards on it, its actions and recent events
/// (which scroll).
enum DetailView {
    /// Rows above the scrolling part.
    static let fixedRows = 5
    /// The most events listed.
    static let eventLimit = 30

    static func draw(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas, focused: Bool) {
        let seam = state.selectedSeam
        canvas.pane(rect, title: seam.map { $0.id.rawValue } ?? "Detail", focused: focused)
        let inner = rect.inner
        guard inner.height > 0, inner.width > 1 else { return }
        let x = inner.x + 1
        let width = inner.width - 1
        guard let seam else {
            canvas.text("no seam selected", x: x, y: inner.y, .muted, maxWidth: width)
            return
        }
        let fixed = fixedLines(of: seam, in: state)
        for (row, spans) in fixed.prefix(inner.height).enumerated() {
            canvas.spans(spans, x: x, y: inner.y + row, maxWidth: width)
        }
        let rows = inner.height - fixed.count
        guard rows > 0 else { return }
        let lines = scrollingLines(of: seam, in: state, width: width)
        let scroll = max(0, min(state.detailScroll, lines.count - rows))
        for (row, spans) in lines.dropFirst(scroll).prefix(rows).enumerated() {
            canvas.spans(spans, x: x, y: inner.y + fixed.count + row, maxWidth: width)
        }
        if lines.count > rows {
            let arrows = (scroll > 0 ? "↑" : " ") + (scroll + rows < lines.count ? "↓" : " ")
            canvas.text(arrows, x: rect.maxX - 4, y: rect.maxY - 1, focused ? .accent : .border)
        }
    }

    /// What the seam is and does now.
    static func fixedLines(of seam: SeamSnapshot, in state: ConsoleState) -> [[Canvas.Span]] {
        let (mark, role) = SeamListView.mark(seam.status)
        var now: [Canvas.Span] = [.init(mark + " ", role)]
        if let behaviour = seam.behaviourText {
            now.append(.init(behaviour, role, bold: true))
        } else {
            now.append(.init("original", .muted))
        }
        let status = SeamListView.statusText(seam.status)
        if !status.isEmpty {
            now.append(.init("  " + status, role))
        }
        if seam.status == .active, let left = state.timeLeft(of: seam) {
            now.append(.init("  reverts in \(Format.uptime(.seconds(left.seconds.rounded(.up))))", .reverting))
        }
        var counts: [Canvas.Span] = [
            .init("calls ", .muted), .init(Format.count(seam.calls)),
            .init("  chaos ", .muted), .init(Format.count(seam.chaosCalls), seam.chaosCalls > 0 ? .accent : .text),
        ]
        if seam.held > 0 {  // before the rest, so a narrow pane still shows it (the hints say `u` releases)
            counts += [.init("  held ", .muted), .init(String(seam.held), .reverting)]
        }
        // The mean of the windows the list's sparkline shows, so the row and the detail tell the same rate.
        if !state.isStale, let rate = state.rates[seam.id]?.mean(ofLast: SeamListView.Columns.rateWidth) {
            counts += [.init("  rate ", .muted), .init(Format.rate(rate))]
        }
        if seam.errors > 0 {
            counts += [.init("  errors ", .muted), .init(Format.count(seam.errors), .error)]
        }
        if seam.inFlight > 0 {
            counts += [.init("  in flight ", .muted), .init(String(seam.inFlight), .reverting)]
        }

        return [
            [.init(seam.title, .title, bold: true), .init("  " + seam.category, .muted)],
            [.init(seam.summary.isEmpty ? "—" : seam.summary)],
            [.init(seam.signature, .muted)],
            now,
            counts,
        ]
    }

    /// The seam's layers when more than one is applied (see ``layerLines(of:in:width:)``), the guards on the seam
    /// (each with its state, then what it reverts or, tripped, the figures wrapped at `width`), what it reaches (its
    /// notes, such as a system seam's coverage), its whole summary when
    /// the fixed row cuts it, the seam's actions
    /// with their parameters, then its recent events, newest first (repeats one after the other folded with ×N).
    static func scrollingLines(of seam: SeamSnapshot, in state: ConsoleState, width: Int) -> [[Canvas.Span]] {
        var lines = HeldCallLines.lines(of: seam, width: width)
        lines += HeldCallLines.lines(
            inTests: state.data?.scopes ?? [], of: seam.id, chosen: Set(state.chosenTests.map(\.id)), width: width)
        lines += layerLines(of: seam, in: state, width: width)
        let guards = (state.data?.guards ?? []).filter { $0.definition.condition.seam == seam.id }
        if !guards.isEmpty {
            lines.append([.init("Guards", .title, bold: true)])
            for status in guards {
                let (mark, role) = GuardBarView.mark(status)
                lines.append([
                    .init(" " + mark + " ", role, bold: status.isTripped), .init("\(status.id) ", .accent),
                    .init(status.definition.condition.description),
                    .init("  " + status.stateName, role, bold: status.isTripped),
                ])
                if case .tripped(let time, let reason) = status.state {
                    let at = "    " + Format.elapsed(time) + "  "
                    let pad = String(repeating: " ", count: DisplayWidth.of(at))
                    for (row, text) in TextWrap.lines(reason, width: max(10, width - DisplayWidth.of(at))).enumerated()
                    {
                        lines.append([.init(row == 0 ? at : pad, .muted), .init(text, .error)])
                    }
                } else {
                    lines.append([.init("    reverts \(status.definition.reverts)", .muted)])
                }
            }
            lines.append([])
        }
        // What the seam reaches now, as its owner says (a system seam's coverage), wrapped whole under itself.
        if !seam.notes.isEmpty {
            lines.append([.init("Reach", .title, bold: true)])
            for note in seam.notes {
                lines += TextWrap.lines(note, width: max(10, width - 3)).enumerated().map { row, text in
                    [.init((row == 0 ? " " : "   ") + text, row == 0 ? .text : .muted)]
                }
            }
            lines.append([])
        }
        // A summary too long for its fixed row (cut there) is here whole, so it can be read; after what the seam
        // does now, which matters more.
        if DisplayWidth.of(seam.summary) > width {
            lines.append([.init("About", .title, bold: true)])
            lines += TextWrap.lines(seam.summary, width: max(10, width)).map { [.init($0, .muted)] }
            lines.append([])
        }
        lines.append([.init("Actions", .title, bold: true)])
        // Whole descriptions, wrapped under themselves: a line cut with … could not be read anywhere.
        for action in seam.actions {
            lines += wrapped(actionLine(action, indent: " "), width: width, hang: 3)
            for parameter in action.parameters {
                lines += wrapped(parameterLine(parameter, indent: "     "), width: width, hang: 7)
            }
        }
        lines.append([])
        lines.append([.init("Recent events", .title, bold: true)])
        // Folded as the event log folds them (only repeats one after the other), newest first.
        let events = EventLog().lines(of: (state.data?.events ?? []).filter { $0.seam == seam.id })
        if events.isEmpty {
            lines.append([.init(" none yet", .muted)])
        }
        for line in events.reversed().prefix(eventLimit) {
            let event = line.event
            var spans: [Canvas.Span] = [
                .init(" " + Format.elapsed(event.time), .muted),
                .init("  " + event.kind.rawValue, EventLogView.role(event.kind)),
            ]
            if line.count > 1 { spans.append(.init("  ×\(line.count)", .warning, bold: true)) }
            spans.append(.init("  " + (event.message.split(separator: "\n").first.map(String.init) ?? "")))
            if let source = event.source { spans.append(.init("  [\(source)]", .muted)) }
            lines.append(spans)
        }
        return lines
    }

    /// Every active layer of the seam, top first: whether it answers now (the top one on a replacing seam, every one
    /// on a merging seam, newest first), its behaviour text wrapped at `width`, who applied it and its time to live.
    /// Nothing when a single layer is applied: the line above says it all.
    static func layerLines(of seam: SeamSnapshot, in state: ConsoleState, width: Int) -> [[Canvas.Span]] {
        let layers = Array(seam.activeLayers.reversed())
        guard layers.count > 1 else { return [] }
        var lines: [[Canvas.Span]] = [[.init("Layers", .title, bold: true), .init("  top first", .muted)]]
        let merges = seam.info.stacking == .merge
        let uptime = state.data?.target.uptime
        for (index, layer) in layers.enumerated() {
            let answers = merges || index == 0
            var about: [Canvas.Span] = [
                .init(answers ? " ● answers" : " ○ underneath", answers ? .active : .muted),
                .init("  " + layer.source, .accent),
            ]
            if let expiresAt = layer.expiresAt, let uptime {
                let left = max(.zero, expiresAt - uptime)
                about.append(.init("  reverts in \(Format.uptime(.seconds(left.seconds.rounded(.up))))", .reverting))
            }
            lines.append(about)
            for text in TextWrap.lines(layer.behaviourText, width: max(10, width - 3)) {
                lines.append([.init("   " + text, answers ? .text : .muted)])
            }
        }
        lines.append([])
        return lines
    }

    /// `spans` as one line when it fits in `width`, else with its last span (a description) wrapped between words:
    /// as much as fits on the first line, the rest on lines indented by `hang` columns.
    static func wrapped(_ spans: [Canvas.Span], width: Int, hang: Int) -> [[Canvas.Span]] {
        let total = spans.reduce(0) { $0 + DisplayWidth.of($1.text) }
        guard total > width, spans.count > 1, let tail = spans.last else { return [spans] }
        let head = Array(spans.dropLast())
        let headWidth = head.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let text = String(tail.text.drop { $0 == " " })
        let lead = String(tail.text.prefix { $0 == " " })
        let room = width - headWidth - DisplayWidth.of(lead)
        var lines: [[Canvas.Span]] = []
        var rest = text
        if room >= 10 {
            let first = TextWrap.lines(text, width: room)
            lines.append(head + [.init(lead + (first.first ?? ""), tail.role, bold: tail.bold)])
            rest = first.dropFirst().joined(separator: " ")
        } else {
            lines.append(head)
        }
        let pad = String(repeating: " ", count: hang)
        for line in TextWrap.lines(rest, width: max(10, width - hang)) where !line.isEmpty {
            lines.append([.init(pad + line, tail.role, bold: tail.bold)])
        }
        return lines
    }

    /// An action's name, parameter names and summary.
    static func actionLine(_ action: ActionSignature, indent: String) -> [Canvas.Span] {
        var spans: [Canvas.Span] = [.init(indent + action.name, .accent, bold: true)]
        if !action.parameters.isEmpty {
            spans.append(.init("(" + action.parameters.map(\.name).joined(separator: ", ") + ")", .muted))
        }
        spans.append(.init("  " + action.summary))
        return spans
    }

    /// A parameter's name, kind, default, step and summary.
    static func parameterLine(_ parameter: ActionSignature.Parameter, indent: String) -> [Canvas.Span] {
        var spans: [Canvas.Span] = [.init(indent + parameter.name), .init(" " + parameter.kindText, .muted)]
        if let value = parameter.defaultValue {
            spans.append(.init(" = " + value.description, .muted))
        }
        if let step = parameter.step {
            // `+/-`, not `±`: a terminal without UTF-8 can only draw `±` as `+`, which says the wrong thing.
            spans.append(.init(" +/-" + step.description, .accent))
        }
        if !parameter.summary.isEmpty {
            spans.append(.init("  " + parameter.summary, .muted))
        }
        return spans
    }
}
