import Mischief

/// The target's own screen: its published title and lines, in the roles it names.
enum TargetPaneView {
    static func draw(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas, focused: Bool) {
        if let scopes = state.data?.scopes, !scopes.isEmpty {
            drawTests(state, in: rect, on: &canvas, focused: focused)
            return
        }
        let view = state.data?.view
        let title = view.map { $0.title.isEmpty ? "Target" : $0.title } ?? "Target"
        // A lost target's last picture stays, dimmed and said to be old.
        canvas.pane(rect, title: state.isStale ? title + " (last seen)" : title, focused: focused)
        let inner = rect.inner
        guard inner.height > 0, inner.width > 1 else { return }
        let lines = view?.lines ?? []
        guard !lines.isEmpty else {
            canvas.text("the target shows nothing", x: inner.x + 1, y: inner.y, .muted, maxWidth: inner.width - 1)
            return
        }
        let scroll = max(0, min(state.targetScroll, lines.count - inner.height))
        for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            canvas.spans(
                [.init(line.text, state.isStale ? .muted : role(named: line.role))], x: inner.x + 1, y: inner.y + row,
                maxWidth: inner.width - 1)
        }
        // What is above or below shows as arrows on the bottom border, as in the detail pane.
        if lines.count > inner.height, rect.width >= 6 {
            let arrows = (scroll > 0 ? "↑" : " ") + (scroll + inner.height < lines.count ? "↓" : " ")
            canvas.text(arrows, x: rect.maxX - 4, y: rect.maxY - 1, focused ? .accent : .border)
        }
    }

    /// A live test session's tests (``TestsPaneView``) in the pane, scrolled as the target's lines are.
    static func drawTests(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas, focused: Bool) {
        let title = TestsPaneView.title(state)
        canvas.pane(rect, title: state.isStale ? title + " (last seen)" : title, focused: focused)
        let inner = rect.inner
        guard inner.height > 0, inner.width > 1 else { return }
        let lines = TestsPaneView.lines(state)
        guard !lines.isEmpty else {
            canvas.text(
                "every test ended (H shows them)", x: inner.x + 1, y: inner.y, .muted, maxWidth: inner.width - 1)
            return
        }
        let scroll = max(0, min(state.targetScroll, lines.count - inner.height))
        for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            canvas.spans(
                [.init(line.text, state.isStale ? .muted : line.role)], x: inner.x + 1, y: inner.y + row,
                maxWidth: inner.width - 1)
        }
        if lines.count > inner.height, rect.width >= 6 {
            let arrows = (scroll > 0 ? "↑" : " ") + (scroll + inner.height < lines.count ? "↓" : " ")
            canvas.text(arrows, x: rect.maxX - 4, y: rect.maxY - 1, focused ? .accent : .border)
        }
    }

    /// The style role a target names, or text for names that are not roles.
    static func role(named name: String?) -> StyleRole {
        name.flatMap(StyleRole.init(rawValue:)) ?? .text
    }
}
