import Mischief

extension Console {
    /// The most characters the palette's line holds.
    static let paletteLimit = 1_000

    /// A key in the command palette (``KeyBindings/palette``): typing filters the matches, ↑/↓ choose, Tab completes, Enter runs the line
    /// when it is a command (``ConsoleLine``) or else the chosen match, Esc closes.
    static func paletteKey(_ key: Key, _ palette: CommandPalette, in state: inout ConsoleState) -> [ConsoleCommand] {
        var palette = palette
        let matches = paletteMatches(palette.field.text, in: state)
        switch KeyBindings.palette[key] {
        case .close:
            state.mode = .browse
            return []
        case .run:
            return runPalette(palette, matches: matches, in: &state)
        case .choose(let step):
            palette.selected = max(0, min(matches.count - 1, palette.selected + step))
        case .complete:
            if let completed = completePaletteLine(
                palette.field.text, matches: matches, selected: palette.selected, in: state)
            {
                palette.field = TextField(completed)
                palette.selected = 0
            }
        case nil:
            var field = palette.field
            guard edit(&field, with: key, limit: paletteLimit, name: "the palette", in: &state) else { return [] }
            if field != palette.field {
                palette.field = field
                palette.selected = 0
                palette.error = nil
            }
        }
        state.mode = .palette(palette)
        return []
    }

    /// Enter in the palette: the line when it starts with a command's word, else the chosen match.
    static func runPalette(_ palette: CommandPalette, matches: [PaletteItem], in state: inout ConsoleState)
        -> [ConsoleCommand]
    {
        var palette = palette
        let text = palette.field.text.trimmingSpaces()
        if ConsoleLine.startsWithVerb(text) {
            do throws(ConsoleLine.ParseError) {
                let line = try ConsoleLine(parsing: text)
                if let problem = check(line, in: state) {
                    palette.error = problem
                    state.mode = .palette(palette)
                    return []
                }
                state.mode = .browse
                return run(line, in: &state)
            } catch {
                palette.error = error.message
                state.mode = .palette(palette)
                return []
            }
        }
        guard !matches.isEmpty else {
            palette.error = text.isEmpty ? nil : "nothing matches \(text); a command starts with apply, revert, …"
            state.mode = .palette(palette)
            return []
        }
        let item = matches[min(palette.selected, matches.count - 1)]
        state.mode = .browse
        switch item.run {
        case .complete(let text):
            state.mode = .palette(CommandPalette(field: TextField(text)))
            return []
        case .browse(let command):
            return browse(command, in: &state)
        case .line(let line):
            return run(line, in: &state)
        case .pick(let seam, let action, let edit):
            select(seam, in: &state)
            openPicker(in: &state)
            guard case .picker(var picker) = state.mode, let action else { return [] }
            picker.choice = action
            state.mode = .picker(picker)
            if edit { return pickerKey(.enter, picker, in: &state) }
            return []
        }
    }

    /// What is wrong with a line before it is sent: a seam the target does not have, or a spec that does not fit
    /// the seam's actions (checked as the target checks it, so `apply … ttl D` never sends a ttl for a refused spec);
    /// nil when it looks right.
    static func check(_ line: ConsoleLine, in state: ConsoleState) -> String? {
        let seamID: SeamID
        switch line {
        case .apply(let seam, _, _), .revert(let seam), .release(let seam), .reset(let seam?), .timeToLive(let seam, _):
            seamID = seam
        default:
            return nil
        }
        let seams = state.data?.seams ?? []
        guard let seam = seams.first(where: { $0.id == seamID }) else {
            let known = suggestion(for: seamID.rawValue, among: seams.map(\.id.rawValue)).map { " (\($0)?)" } ?? ""
            return "the target has no seam \(seamID)\(known)"
        }
        guard case .apply(_, let spec, _) = line, !spec.isEmpty else { return nil }
        if case .failure(let error) = PickerView.check(spec, actions: seam.actions, seam: seam.id) {
            return "\(error.message) (at column \(error.column) of \(spec))"
        }
        return nil
    }

    /// Does what a command line asks.
    static func run(_ line: ConsoleLine, in state: inout ConsoleState) -> [ConsoleCommand] {
        switch line {
        case .apply(let seam, let spec, let ttl):
            guard !spec.isEmpty else {
                state.message = .init("apply \(seam) needs a spec", isError: true)
                return []
            }
            return [.apply(seam: seam, spec: spec)] + (ttl.map { [.setTTL(seam: seam, ttl: $0)] } ?? [])
        case .revert(let seam): return [.revert(seam)]
        case .revertAll: return [.revertAll]
        case .release(let seam): return [.release(seam)]
        case .reset(let seam): return [.resetCounters(seam)]
        case .timeToLive(let seam, let ttl): return [.setTTL(seam: seam, ttl: ttl)]
        case .advance(let duration): return [.advanceTime(duration)]
        case .profile(let name, let on):
            let profiles = state.data?.profiles ?? []
            guard
                let profile = profiles.first(where: { $0.profile.name == name })
                    ?? profiles.first(where: { $0.profile.name.lowercased() == name.lowercased() })
            else {
                let known = suggestion(for: name, among: profiles.map(\.profile.name)).map { " (\($0)?)" } ?? ""
                state.message = .init("no profile \(name)\(known)", isError: true)
                return []
            }
            if let on, on == profile.isActive {
                state.message = .init("profile \(profile.profile.name) is already \(on ? "on" : "off")")
                return []
            }
            return [.toggleProfile(profile.profile.name)]
        case .theme(nil): return [.cycleTheme]
        case .theme(let name?):
            guard let theme = state.themeNames.first(where: { $0.lowercased() == name.lowercased() }) else {
                state.message = .init(
                    "no theme \(name); the themes: \(state.themeNames.joined(separator: ", "))", isError: true)
                return []
            }
            return [.selectTheme(theme)]
        case .saveRecording: return [.saveRecording]
        case .saveProfile(let name): return [.saveProfile(name)]
        case .help:
            state.mode = .help(scroll: 0)
            return []
        case .quit:
            return browse(.quit, in: &state)
        case .test(let pattern):
            chooseTests(pattern, in: &state)
            return []
        }
    }

    /// Selects a seam in the list (clearing a filter that hides it).
    static func select(_ seam: SeamID, in state: inout ConsoleState) {
        if !state.lines.contains(where: { line in
            if case .seam(let index) = line { state.data?.seams[index].id == seam } else { false }
        }) {
            state.filter = TextField()
            state.rebuildLines()
        }
        state.selection = seam
        state.rebuildLines()
    }

    /// The palette's matches for `query`, best first: everything when it is empty.
    static func paletteMatches(_ query: String, in state: ConsoleState) -> [PaletteItem] {
        let items = paletteItems(state)
        let query = query.trimmingSpaces()
        guard !query.isEmpty else { return items }
        return FuzzyMatch.ranked(query, items) { "\($0.title) \($0.kind.rawValue)" }
    }

    /// Tab in the palette: finishes the word being typed of a command line (a command, a seam, an action, a profile
    /// or theme name), or else takes the chosen match's text; nil when there is nothing to add.
    static func completePaletteLine(
        _ text: String, matches: [PaletteItem], selected: Int, in state: ConsoleState
    ) -> String? {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.count >= 2 || (words.count == 1 && ConsoleLine.verbs.contains(where: { $0.hasPrefix(words[0]) })),
            let done = Completion.complete(line: words, in: state)
        {
            return done
        }
        guard !matches.isEmpty else { return nil }
        let item = matches[min(selected, matches.count - 1)]
        if case .complete(let line) = item.run { return line }
        return nil
    }
}
