import Mischief

extension Console {
    /// Draws the state into a grid of `size`: a pure function of its arguments.
    ///
    /// The main screen has a header, the seam list, the selected seam's detail, the target's own view, the
    /// guard bar (while there are guards), the profile bar and a status line; the action picker opens over it;
    /// help, the event log and the profile list take the whole screen. Below ``ScreenSize/minimum`` the grid says which size the console needs.
    ///
    /// Invisible characters in the target's text are drawn as marks, or dropped, as ``ConsoleState/showsInvisibleMarks``
    /// says (``InvisibleMarks``).
    public static func render(_ state: ConsoleState, size: ScreenSize, theme: ThemeInfo) -> CellGrid {
        InvisibleMarks.$areShown.withValue(state.showsInvisibleMarks) { draw(state, size: size, theme: theme) }
    }

    private static func draw(_ state: ConsoleState, size: ScreenSize, theme: ThemeInfo) -> CellGrid {
        var canvas = Canvas(size, theme: theme)
        guard size.isUsable else {
            TooSmallView.draw(size: size, on: &canvas)
            return canvas.grid
        }
        let status = Rect(x: 0, y: size.rows - 1, width: size.columns, height: 1)
        switch state.mode {
        case .help(let scroll):
            HelpView.draw(scroll, state, theme: theme, size: size, on: &canvas)
        case .eventLog(let log):
            EventLogView.draw(log, state, size: size, on: &canvas)
        case .profileList(let selected):
            ProfileListView.draw(selected, state, size: size, on: &canvas)
        case .browse, .filter, .saveName, .timeToLive, .answer, .confirmOverwrite, .picker, .palette:
            let layout = ConsoleLayout(state, size: size)
            let focus = layout.panes.contains(state.focus) ? state.focus : .list
            HeaderView.draw(state, in: layout.header, on: &canvas)
            SeamListView.draw(state, in: layout.list, on: &canvas, focused: focus == .list)
            if let detail = layout.detail {
                DetailView.draw(state, in: detail, on: &canvas, focused: focus == .detail)
            }
            if let target = layout.target {
                TargetPaneView.draw(state, in: target, on: &canvas, focused: focus == .target)
            }
            if let guards = layout.guards {
                GuardBarView.draw(state, in: guards, on: &canvas)
            }
            ProfileBarView.draw(state, in: layout.profiles, on: &canvas)
            if case .picker(let picker) = state.mode {
                PickerView.draw(picker, state, size: size, on: &canvas)
            }
            if case .palette(let palette) = state.mode {
                PaletteView.draw(palette, state, size: size, on: &canvas)
            }
        }
        StatusLineView.draw(state, in: status, on: &canvas)
        return canvas.grid
    }
}
