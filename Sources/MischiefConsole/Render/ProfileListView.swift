import Mischief

/// The profile list (`p`), full screen: every profile with its key, whether it is on, its name, its description
/// and the seams it changes, wrapped rather than cut; the selected one highlighted.
enum ProfileListView {
    /// One profile's lines, and which profile they belong to.
    struct Line {
        let profile: Int
        let spans: [Canvas.Span]
    }

    static func draw(_ selected: Int, _ state: ConsoleState, size: ScreenSize, on canvas: inout Canvas) {
        let profiles = state.data?.profiles ?? []
        let rect = Rect(x: 0, y: 0, width: size.columns, height: size.rows - 1)
        let on = profiles.count { $0.isActive }
        canvas.pane(rect, title: "Profiles · \(profiles.count) · \(on) on", focused: true)
        let inner = rect.inner
        guard !profiles.isEmpty else {
            canvas.text(
                "no profiles defined: s saves what is applied now as one", x: inner.x + 1, y: inner.y, .muted,
                maxWidth: inner.width - 1)
            return
        }
        let lines = self.lines(of: profiles, width: inner.width - 1)
        let top = firstLine(selected: selected, lines: lines, rows: inner.height)
        for (row, line) in lines.dropFirst(top).prefix(inner.height).enumerated() {
            let y = inner.y + row
            let isSelected = line.profile == selected
            if isSelected { canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), .selection) }
            canvas.spans(
                line.spans, x: inner.x + 1, y: y, maxWidth: inner.width - 1, override: isSelected ? .selection : nil)
        }
        if lines.count > inner.height {
            let arrows = (top > 0 ? "↑" : " ") + (top + inner.height < lines.count ? "↓" : " ")
            canvas.text(arrows, x: rect.maxX - 4, y: rect.maxY - 1, .accent)
        }
    }

    /// The profile drawn on screen row `y` of the list (with `selected` selected), if any.
    static func profile(atRow y: Int, _ state: ConsoleState, selected: Int) -> Int? {
        let profiles = state.data?.profiles ?? []
        let inner = Rect(x: 0, y: 0, width: state.size.columns, height: state.size.rows - 1).inner
        let lines = self.lines(of: profiles, width: inner.width - 1)
        let index = firstLine(selected: selected, lines: lines, rows: inner.height) + y - inner.y
        guard y >= inner.y, y < inner.maxY, lines.indices.contains(index) else { return nil }
        return lines[index].profile
    }

    /// The first line shown: the selected profile's lines in view, as low on the screen as they need.
    static func firstLine(selected: Int, lines: [Line], rows: Int) -> Int {
        guard let last = lines.lastIndex(where: { $0.profile == selected }),
            let first = lines.firstIndex(where: { $0.profile == selected })
        else { return 0 }
        return max(0, min(first, last + 1 - rows))
    }

    /// Every profile's lines at `width` columns: key, state, name and description (wrapped under itself), then
    /// the seams it changes.
    static func lines(of profiles: [ProfileStatus], width: Int) -> [Line] {
        let nameWidth = min(28, profiles.reduce(4) { max($0, DisplayWidth.of($1.profile.name)) })
        let indent = 3 + 6 + nameWidth + 2
        let textWidth = max(10, width - indent)
        let pad = String(repeating: " ", count: indent)
        var lines: [Line] = []
        for (index, profile) in profiles.enumerated() {
            let key = profile.profile.key.map { " \($0) " } ?? "   "
            let state: Canvas.Span = profile.isActive ? .init("● on  ", .active, bold: true) : .init("○ off ", .muted)
            let name = DisplayWidth.truncate(profile.profile.name, to: nameWidth, ellipsis: true)
            let described = TextWrap.lines(profile.profile.description ?? "no description", width: textWidth)
            let head: [Canvas.Span] = [
                .init(key, .accent, bold: true), state,
                .init(name.padding(to: nameWidth) + "  ", profile.isActive ? .active : .text, bold: true),
                .init(described[0], profile.profile.description == nil ? .muted : .text),
            ]
            lines.append(Line(profile: index, spans: head))
            for more in described.dropFirst() { lines.append(Line(profile: index, spans: [.init(pad + more)])) }
            let seams =
                profile.seams.isEmpty
                ? "\(profile.profile.entries.count) entries"
                : profile.seams.map(\.rawValue)
                    .joined(separator: ", ")
            for (row, text) in TextWrap.lines(seams, width: max(1, textWidth - 9)).enumerated() {
                let label = row == 0 ? "changes  " : "         "
                lines.append(Line(profile: index, spans: [.init(pad + label, .muted), .init(text, .accent)]))
            }
        }
        return lines
    }
}
