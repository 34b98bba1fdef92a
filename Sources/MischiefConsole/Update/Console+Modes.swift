import Mischief

extension Console {
    /// A key while typing the filter (``KeyBindings/filter``): text goes to the filter, arrows move the selection.
    static func filterKey(_ key: Key, in state: inout ConsoleState) {
        switch KeyBindings.filter[key] {
        case .accept:
            state.mode = .browse
        case .cancel:
            state.filter = TextField()
            state.mode = .browse
            state.rebuildLines()
        case .move(.step(let rows)):
            state.moveSelection(by: rows)
        case .move(.page(let pages)):
            state.moveSelection(by: pages * ConsoleLayout(state).listRows)
        case .move(.first), .move(.last):
            break  // not bound: Home and End move the cursor
        case nil:
            var field = state.filter
            if edit(&field, with: key, limit: FieldLimit.filter, name: "the filter", in: &state), field != state.filter
            {
                state.filter = field
                state.rebuildLines()
            }
        }
    }

    /// A key while typing a profile name (``KeyBindings/saveName``).
    static func saveNameKey(_ key: Key, _ field: TextField, in state: inout ConsoleState) -> [ConsoleCommand] {
        var field = field
        switch KeyBindings.saveName[key] {
        case .accept:
            let name = field.text.trimmingSpaces()
            guard !name.isEmpty else {
                state.message = .init("type a name for the profile, or Esc", isError: true)
                return []
            }
            state.mode = .browse
            state.message = .init("saving \(name)…")
            return [.saveProfile(name)]
        case .cancel:
            state.mode = .browse
        case .move, nil:
            if edit(&field, with: key, limit: FieldLimit.profileName, name: "a name", in: &state) {
                state.mode = .saveName(field)
            }
        }
        return []
    }

    /// `T`: asks how long the selected seam's layers last, when it has any.
    static func askTimeToLive(in state: inout ConsoleState) {
        guard let seam = state.selectedSeam else { return }
        guard state.behaviour(of: seam) != nil else {
            state.message = .init(
                "\(seam.id) runs its original; apply a behaviour first, then T reverts it after a time")
            return
        }
        state.mode = .timeToLive(seam.id, TextField())
    }

    /// A key while typing a time to live (``KeyBindings/timeToLive``): Enter sets it (`off`, `none` or `0` takes it
    /// away), Esc cancels.
    static func timeToLiveKey(_ key: Key, seam: SeamID, _ field: TextField, in state: inout ConsoleState)
        -> [ConsoleCommand]
    {
        var field = field
        switch KeyBindings.timeToLive[key] {
        case .accept:
            let text = field.text.trimmingSpaces()
            guard !text.isEmpty else {
                state.message = .init("type how long, such as 30s or 10m (off: never), or Esc", isError: true)
                return []
            }
            if ["off", "none", "never", "0"].contains(text.lowercased()) {
                state.mode = .browse
                state.message = .init("\(seam): no longer reverted by itself…")
                return [.setTTL(seam: seam, ttl: nil)]
            }
            let ttl: Duration
            do throws(SpecError) {
                ttl = try SpecDuration(parsing: text).duration
            } catch {
                state.message = .init(error.message, isError: true)
                return []
            }
            do throws(MischiefError) {
                try Registry.check(ttl: ttl)
            } catch {
                state.message = .init(error.description, isError: true)
                return []
            }
            state.mode = .browse
            state.message = .init("\(seam): reverting in \(SpecDuration(ttl))…")
            return [.setTTL(seam: seam, ttl: ttl)]
        case .cancel:
            state.mode = .browse
        case .move, nil:
            if edit(&field, with: key, limit: FieldLimit.timeToLive, name: "a time", in: &state) {
                state.mode = .timeToLive(seam, field)
            }
        }
        return []
    }

    /// A key while asking whether to overwrite a profile file (``KeyBindings/confirmOverwrite``): `y` overwrites,
    /// any other key keeps the file.
    static func confirmOverwriteKey(
        _ key: Key, name: String, question: String, in state: inout ConsoleState
    ) -> [ConsoleCommand] {
        state.mode = .browse
        guard KeyBindings.confirmOverwrite[key] == .yes else {
            state.message = .init("not saved: \(question)")
            return []
        }
        state.message = .init("saving \(name)…")
        return [.overwriteProfile(name)]
    }

    /// A key in the help screen (``KeyBindings/help``).
    static func helpKey(_ key: Key, scroll: Int, in state: inout ConsoleState) {
        let limit = HelpView.lineCount(state.size) - (state.size.rows - 3)
        switch KeyBindings.help[key] {
        case .close:
            state.mode = .browse
        case .move(let navigation):
            state.mode = .help(scroll: navigation.movement(page: state.size.rows - 3).applied(to: scroll, limit: limit))
        case nil:
            break
        }
    }
}
