import Mischief

extension Console {
    /// A key on the main screen: what ``KeyBindings`` binds it to.
    static func browseKey(_ key: Key, in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let command = KeyBindings.browse[key] else { return [] }
        return browse(command, in: &state)
    }

    /// Does what a key of the main screen asks for (the palette runs these by name too).
    static func browse(_ command: BrowseCommand, in state: inout ConsoleState) -> [ConsoleCommand] {
        if command != .quit { state.quitAsked = false }
        switch command {
        case .move(let rows):
            move(.by(rows), in: &state)
        case .page(let pages):
            move(.by(pages * page(of: state)), in: &state)
        case .first:
            move(.first, in: &state)
        case .last:
            move(.last, in: &state)
        case .focus(let next):
            let panes = ConsoleLayout(state).panes
            let index = panes.firstIndex(of: state.focus) ?? 0
            state.focus = panes[(index + (next ? 1 : panes.count - 1)) % panes.count]
        case .toggle:
            return toggle(in: &state)
        case .pick:
            openPicker(in: &state)
        case .nudge(let steps):
            return nudge(by: steps, in: &state)
        case .profile(let number):
            return toggleProfile(key: number, in: &state)
        case .revert:
            return revertSelected(in: &state)
        case .release:
            return releaseSelected(in: &state)
        case .answer:
            askAnswer(in: &state)
        case .fail:
            return failHeld(in: &state)
        case .letRestRun:
            return letRestRun(in: &state)
        case .undo:
            return undo(in: &state)
        case .redo:
            return redo(in: &state)
        case .resetCounters(all: false):
            return state.selectedSeam.map { [.resetCounters($0.id)] } ?? []
        case .resetCounters(all: true):
            return [.resetCounters(nil)]
        case .timeToLive:
            askTimeToLive(in: &state)
        case .revertAll:
            return [.revertAll]
        case .nextTest:
            nextTest(in: &state)
        case .hideEndedTests:
            state.hidesEndedTests.toggle()
            state.message = .init(
                state.hidesEndedTests ? "tests that ended are hidden (H shows them)" : "tests that ended are shown")
        case .applyAgain:
            return applyAgain(in: &state)
        case .advanceTime(let seconds):
            return [.advanceTime(.seconds(seconds))]
        case .filter:
            state.mode = .filter
        case .saveProfile:
            state.mode = .saveName(TextField())
        case .saveRecording:
            return [.saveRecording]
        case .eventLog:
            state.mode = .eventLog(EventLog())
        case .profileList:
            state.mode = .profileList(selected: 0)
        case .nextTheme:
            return [.cycleTheme]
        case .invisibleMarks:
            state.showsInvisibleMarks.toggle()
            state.message = .init(
                state.showsInvisibleMarks
                    ? "invisible characters shown as marks such as ⟨RLO⟩ (I hides them)"
                    : "invisible characters hidden (I shows them as marks)")
        case .copy(all: false):
            return copySelected(in: &state)
        case .copy(all: true):
            return copyAll(in: &state)
        case .help:
            state.mode = .help(scroll: 0)
        case .palette:
            state.mode = .palette(CommandPalette())
        case .quit:
            // Changes this console made and has not written: say so once; the next q quits (Ctrl-C always does).
            if state.hasUnsavedLayers && !state.quitAsked {
                state.quitAsked = true
                state.message = .init("this session's changes are not saved: W writes its recording, q quits")
                return []
            }
            return [.quit]
        case .dismiss:
            if state.filter.text.isEmpty {
                state.message = nil
            } else {
                state.filter = TextField()
                state.rebuildLines()
            }
        }
        return []
    }

    /// A move within a list or a scrolling pane.
    enum Movement: Equatable {
        case by(Int), first, last

        /// `value` moved, kept within `0...limit`.
        func applied(to value: Int, limit: Int) -> Int {
            let moved =
                switch self {
                case .by(let delta): value + delta
                case .first: 0
                case .last: limit
                }
            return max(0, min(moved, max(0, limit)))
        }
    }

    /// Moves within the focused pane: the selection in the list, the scroll position elsewhere.
    static func move(_ movement: Movement, in state: inout ConsoleState) {
        let layout = ConsoleLayout(state)
        switch (state.focus, movement) {
        case (.list, .by(let delta)):
            state.moveSelection(by: delta)
        case (.list, _):
            state.selectEdge(last: movement == .last)
        case (.detail, _):
            let rows = max(1, (layout.detail?.inner.height ?? 1) - DetailView.fixedRows)
            let width = (layout.detail?.inner.width ?? 2) - 1
            let count = state.selectedSeam.map { DetailView.scrollingLines(of: $0, in: state, width: width).count } ?? 0
            state.detailScroll = movement.applied(to: state.detailScroll, limit: count - rows)
        case (.target, _):
            let rows = max(1, layout.target?.inner.height ?? 1)
            let tests = state.data?.scopes.isEmpty == false ? TestsPaneView.lines(state).count : nil
            let count = tests ?? state.data?.view.lines.count ?? 0
            state.targetScroll = movement.applied(to: state.targetScroll, limit: count - rows)
        }
    }

    /// How far PgUp and PgDn move in the focused pane.
    static func page(of state: ConsoleState) -> Int {
        let layout = ConsoleLayout(state)
        let rect =
            switch state.focus {
            case .list: layout.list
            case .detail: layout.detail ?? layout.list
            case .target: layout.target ?? layout.list
            }
        return max(1, rect.height - 4)
    }

    /// Space: the selected seam goes back to its original, or to its last-used spec (else its default spec).
    static func toggle(in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let seam = state.selectedSeam else { return [] }
        if state.behaviour(of: seam) != nil {
            return [.revert(seam.id)]
        }
        guard let spec = state.lastUsed[seam.id] ?? seam.defaultSpec else {
            state.message = .init("\(seam.id) has no action that needs no arguments; Enter picks one")
            return []
        }
        return [.apply(seam: seam.id, spec: spec)]
    }

    /// `+`/`-`: moves the main parameter of the selected seam's behaviour by a step.
    static func nudge(by steps: Int, in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let seam = state.selectedSeam else { return [] }
        guard let behaviour = state.behaviour(of: seam) else {
            state.message = .init("\(seam.id) runs its original; Space or Enter applies a behaviour first")
            return []
        }
        guard let current = state.spec(of: seam) else {
            state.message = .init("\(seam.id) runs \(behaviour), built in code; Enter picks an action to nudge")
            return []
        }
        guard let spec = seam.nudged(current, by: steps) else {
            state.message = .init("nothing in \(current) can be nudged")
            return []
        }
        return [.apply(seam: seam.id, spec: spec)]
    }

    /// `r`: reverts the selected seam.
    static func revertSelected(in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let seam = state.selectedSeam else { return [] }
        guard
            state.behaviour(of: seam) != nil
                || state.chosenTests.contains(where: { $0.layers.contains { $0.seam == seam.id } })
        else {
            state.message = .init("\(seam.id) already runs its original")
            return []
        }
        return [.revert(seam.id)]
    }

    /// `u`: lets the calls a pause holds on the selected seam go on.
    static func releaseSelected(in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let seam = state.selectedSeam else { return [] }
        guard state.behaviour(of: seam) != nil || seam.held > 0 || state.testHeld(on: seam.id) > 0 else {
            state.message = .init("\(seam.id) runs its original; only a pause holds calls")
            return []
        }
        return [.release(seam.id)]
    }

    /// A digit: switches the profile with that hot key.
    static func toggleProfile(key: Int, in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let profile = state.data?.profiles.first(where: { $0.profile.key == key }) else {
            state.message = .init("no profile has the key \(key)")
            return []
        }
        return [.toggleProfile(profile.profile.name)]
    }

    /// Enter: opens the action picker on the selected seam, at the action of its behaviour if it has one.
    static func openPicker(in state: inout ConsoleState) {
        guard let seam = state.selectedSeam else { return }
        guard !seam.actions.isEmpty else {
            state.message = .init("\(seam.id) has no actions")
            return
        }
        let action = state.spec(of: seam).flatMap(firstAction(of:))
        let choice = seam.actions.firstIndex { $0.name == action } ?? 0
        state.mode = .picker(ActionPicker(seam: seam.id, choice: choice))
    }

    /// The action of a spec's first term (`shift` in `shift(2d) + jitter`); nil when it does not parse.
    static func firstAction(of spec: String) -> String? {
        (try? Spec(parsing: spec))?.alternatives.first?.terms.first?.action
    }
}
