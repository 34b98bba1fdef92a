import Mischief

extension Console {
    /// How many lines a turn of the wheel moves.
    static let wheelLines = 3

    /// A click or a turn of the wheel: on the main screen a click selects a seam (and focuses its pane), focuses
    /// the pane under it, or switches the profile under it on the bar; a double click on a seam opens the action
    /// picker; the wheel moves in the pane under the pointer. In the profile list a click chooses a profile and a double
    /// click switches it; in the event log and the help the wheel scrolls.
    static func mouse(_ mouse: Mouse, in state: inout ConsoleState) -> [ConsoleCommand] {
        let wheel = mouse.action == .wheelUp ? -wheelLines : mouse.action == .wheelDown ? wheelLines : 0
        switch state.mode {
        case .browse:
            if wheel != 0 {
                // The pane under the pointer moves, as in every other program with a wheel; focus stays.
                let focus = state.focus
                state.focus = pane(at: mouse, in: ConsoleLayout(state)) ?? focus
                move(.by(wheel), in: &state)
                state.focus = focus
                return []
            }
            return click(mouse, in: &state)
        case .profileList(let selected):
            if wheel != 0 {
                let count = state.data?.profiles.count ?? 0
                state.mode = .profileList(selected: max(0, min(selected + wheel, count - 1)))
                return []
            }
            guard let index = ProfileListView.profile(atRow: mouse.y, state, selected: selected) else { return [] }
            state.mode = .profileList(selected: index)
            if mouse.action == .doubleClick, let profile = state.data?.profiles[index] {
                return [.toggleProfile(profile.profile.name)]
            }
            return []
        case .eventLog, .help:
            if wheel != 0 { _ = handle(wheel < 0 ? .up : .down, times: abs(wheel), in: &state) }
            return []
        case .palette(var palette):
            let count = paletteMatches(palette.field.text, in: state).count
            if wheel != 0 {
                palette.selected = max(0, min(count - 1, palette.selected + wheel))
                state.mode = .palette(palette)
                return []
            }
            guard let index = PaletteView.match(atRow: mouse.y, palette, state) else { return [] }
            palette.selected = index
            state.mode = .palette(palette)
            guard mouse.action == .doubleClick else { return [] }
            return runPalette(palette, matches: paletteMatches(palette.field.text, in: state), in: &state)
        case .filter, .picker, .saveName, .timeToLive, .answer, .confirmOverwrite:
            return []
        }
    }

    /// A key pressed `times` times.
    private static func handle(_ key: Key, times: Int, in state: inout ConsoleState) -> [ConsoleCommand] {
        (0..<times).flatMap { _ in handle(key, in: &state) }
    }

    /// The pane of the main screen at the pointer, if any.
    private static func pane(at mouse: Mouse, in layout: ConsoleLayout) -> ConsoleState.Pane? {
        func contains(_ rect: Rect?) -> Bool {
            guard let rect else { return false }
            return mouse.x >= rect.x && mouse.x < rect.maxX && mouse.y >= rect.y && mouse.y < rect.maxY
        }
        if contains(layout.list) { return .list }
        if contains(layout.detail) { return .detail }
        if contains(layout.target) { return .target }
        return nil
    }

    /// A click on the main screen.
    private static func click(_ mouse: Mouse, in state: inout ConsoleState) -> [ConsoleCommand] {
        let layout = ConsoleLayout(state)
        func contains(_ rect: Rect?) -> Bool {
            guard let rect else { return false }
            return mouse.x >= rect.x && mouse.x < rect.maxX && mouse.y >= rect.y && mouse.y < rect.maxY
        }
        if contains(layout.list) {
            state.focus = .list
            let inner = layout.list.inner
            let rows = max(1, inner.height - 1)
            let top = ConsoleState.listTop(
                previous: state.listTop, selected: state.selectedLine, rows: rows, lines: state.lines)
            let line = top + mouse.y - inner.y - 1
            guard mouse.y > inner.y, line < min(state.lines.count, top + rows), case .seam = state.lines[line] else {
                return []
            }
            state.select(line: line)
            if mouse.action == .doubleClick { openPicker(in: &state) }
        } else if contains(layout.detail) {
            state.focus = .detail
        } else if contains(layout.target) {
            state.focus = .target
        } else if contains(layout.profiles),
            let profile = ProfileBarView.profile(at: mouse, state, in: layout.profiles)
        {
            return [.toggleProfile(profile.profile.name)]
        } else if mouse.y == state.size.rows - 1,
            let hint = StatusLineView.hint(atColumn: mouse.x, state, size: state.size),
            let key = hint.click
        {
            // A hint on the status line does what its key does: `: commands` opens the palette.
            return handle(key, in: &state)
        }
        return []
    }
}
