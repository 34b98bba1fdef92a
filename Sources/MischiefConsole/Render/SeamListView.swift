import Mischief

/// The seam list: one line per seam under its category, with its behaviour, counts, rate and status.
enum SeamListView {
    /// Where each column of a list line goes, for an inner width.
    struct Columns {
        let title: Int, titleWidth: Int
        let behaviour: Int, behaviourWidth: Int
        /// Right edges (exclusive); nil when the column is left out for lack of room.
        let calls: Int, chaos: Int?, rate: Int?, status: Int

        static let statusWidth = 9
        static let countWidth = 6
        static let rateWidth = 6

        /// - Parameter longestTitle: the widest title to show, in columns.
        init(x: Int, width: Int, longestTitle: Int) {
            status = x + width - 1
            var right = status - Self.statusWidth - 1
            if width >= 64 {
                rate = right
                right -= Self.rateWidth + 1
            } else {
                rate = nil
            }
            if width >= 56 {
                chaos = right
                right -= Self.countWidth + 1
            } else {
                chaos = nil
            }
            calls = right
            right -= Self.countWidth + 1
            title = x + 3
            let flexible = max(0, right - title - 1)
            titleWidth = max(8, min(longestTitle, 28, flexible - 14))
            behaviour = title + titleWidth + 1
            behaviourWidth = max(0, right - behaviour)
        }
    }

    static func draw(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas, focused: Bool) {
        let total = state.data?.seams.count ?? 0
        let shown = state.lines.count(where: { if case .seam = $0 { true } else { false } })
        let title =
            state.filter.text.isEmpty
            ? "Seams · \(total)"
            : "Seams · \(shown) of \(total) match “\(state.filter.text)”"
        canvas.pane(rect, title: title, focused: focused)
        let inner = rect.inner
        guard inner.height > 0, inner.width > 0 else { return }
        let rows = max(1, inner.height - 1)
        let top = ConsoleState.listTop(
            previous: state.listTop, selected: state.selectedLine, rows: rows, lines: state.lines)
        let visible = state.lines[top..<min(state.lines.count, top + rows)]
        let longestTitle = visible.reduce(0) { longest, line in
            guard case .seam(let index) = line, let data = state.data else { return longest }
            return max(longest, DisplayWidth.of(data.seams[index].title))
        }
        let columns = Columns(x: inner.x, width: inner.width, longestTitle: longestTitle)
        header(columns, y: inner.y, on: &canvas)
        guard let data = state.data else {
            canvas.text("waiting for data…", x: inner.x + 1, y: inner.y + 1, .muted, maxWidth: inner.width - 1)
            return
        }
        if state.lines.isEmpty {
            let text = total == 0 ? "the target has no seams" : "no seam matches “\(state.filter.text)”; Esc clears"
            canvas.text(text, x: inner.x + 1, y: inner.y + 1, .muted, maxWidth: inner.width - 1)
            return
        }
        for row in 0..<min(rows, state.lines.count - top) {
            let line = top + row
            let y = inner.y + 1 + row
            switch state.lines[line] {
            case .category(let name, let count):
                canvas.spans(
                    [.init(name, .accent, bold: true), .init(" \(count)", .muted)],
                    x: inner.x + 1, y: y, maxWidth: inner.width - 1)
            case .seam(let index):
                let selected = line == state.selectedLine
                seamLine(
                    data.seams[index], state: state, columns: columns, y: y, selected: selected,
                    inner: inner, on: &canvas)
            }
        }
        if let selectedLine = state.selectedLine, state.lines.count > rows {
            let position = state.lines[...selectedLine].count(where: { if case .seam = $0 { true } else { false } })
            canvas.rightAligned(
                " \(position)/\(shown) ", right: rect.maxX - 2, y: rect.maxY - 1, .muted,
                maxWidth: rect.width - 4)
        }
    }

    /// The column headings.
    static func header(_ columns: Columns, y: Int, on canvas: inout Canvas) {
        canvas.text("Seam", x: columns.title, y: y, .muted, maxWidth: columns.titleWidth)
        canvas.text("Behaviour", x: columns.behaviour, y: y, .muted, maxWidth: columns.behaviourWidth)
        canvas.rightAligned("Calls", right: columns.calls, y: y, .muted, maxWidth: Columns.countWidth)
        if let chaos = columns.chaos {
            canvas.rightAligned("Chaos", right: chaos, y: y, .muted, maxWidth: Columns.countWidth)
        }
        if let rate = columns.rate {
            canvas.text("Rate", x: rate - Columns.rateWidth, y: y, .muted, maxWidth: Columns.rateWidth)
        }
        canvas.text("Status", x: columns.status - Columns.statusWidth, y: y, .muted, maxWidth: Columns.statusWidth)
    }

    /// One seam's line.
    static func seamLine(
        _ seam: SeamSnapshot, state: ConsoleState, columns: Columns, y: Int, selected: Bool, inner: Rect,
        on canvas: inout Canvas
    ) {
        // A lost target's rows stay as last seen, dimmed, with no rate: nothing there is known to be true now.
        let override: StyleRole? = selected ? .selection : state.isStale ? .muted : nil
        func role(_ role: StyleRole) -> StyleRole { override ?? role }
        if selected {
            canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), .selection)
            if canvas.theme.isMonochrome {
                canvas.text(">", x: inner.x, y: y, .selection, bold: true)
            }
        }
        let (mark, markRole) = Self.mark(seam.status)
        canvas.text(mark, x: inner.x + 1, y: y, role(markRole))
        canvas.text(
            DisplayWidth.truncate(seam.title, to: columns.titleWidth, ellipsis: true), x: columns.title,
            y: y, role(.text), maxWidth: columns.titleWidth)
        // A replacing seam shows the layer that answers; how many wait underneath follows it (`+1`).
        let under = seam.info.stacking == .replace ? max(0, seam.activeLayers.count - 1) : 0
        let suffix = under > 0 && columns.behaviourWidth > 8 ? " +\(under)" : ""
        let room = columns.behaviourWidth - DisplayWidth.of(suffix)
        let behaviour = seam.behaviourText.map { DisplayWidth.truncate($0, to: room, ellipsis: true) }
        canvas.text(
            behaviour ?? "—", x: columns.behaviour, y: y, role(behaviour == nil ? .muted : markRole),
            maxWidth: room)
        if let behaviour, !suffix.isEmpty {
            canvas.text(
                suffix, x: columns.behaviour + DisplayWidth.of(behaviour), y: y, role(.muted), maxWidth: suffix.count)
        }
        canvas.rightAligned(
            Format.count(seam.calls), right: columns.calls, y: y, role(.text),
            maxWidth: Columns.countWidth)
        if let chaos = columns.chaos {
            canvas.rightAligned(
                Format.count(seam.chaosCalls), right: chaos, y: y,
                role(seam.chaosCalls > 0 ? .accent : .muted), maxWidth: Columns.countWidth)
        }
        if let rate = columns.rate, !state.isStale {
            let samples = state.rates[seam.id]?.samples ?? []
            let line = Format.sparkline(samples, width: Columns.rateWidth, ascii: canvas.theme.isMonochrome)
            canvas.text(line, x: rate - Columns.rateWidth, y: y, role(.accent), maxWidth: Columns.rateWidth)
        }
        // Held calls matter more than the status while there are any: the target is waiting on them. Then the time
        // an active layer has left before the target reverts it.
        let left = seam.status == .active ? state.timeLeft(of: seam) : nil
        let status =
            seam.held > 0
            ? "\(Format.count(seam.held)) held"
            : left.map { "\(Format.timeLeft($0)) left" } ?? Self.statusText(seam.status)
        canvas.rightAligned(
            status, right: columns.status, y: y, role(seam.held > 0 ? .reverting : markRole),
            maxWidth: Columns.statusWidth)
    }

    /// The mark before a seam's title and the role of its status.
    static func mark(_ status: RevertStatus) -> (String, StyleRole) {
        switch status {
        case .active: ("●", .active)
        case .reverting: ("◐", .reverting)
        case .reverted: ("○", .reverted)
        case .neverApplied: ("·", .muted)
        }
    }

    /// The status column's text.
    static func statusText(_ status: RevertStatus) -> String {
        switch status {
        case .active: "active"
        case .reverting: "reverting"
        case .reverted: "reverted"
        case .neverApplied: ""
        }
    }
}
