import Mischief

extension Console {
    /// The command lines the palette offers, with the key that does the same on the main screen.
    static let paletteCommands: [(title: String, key: String, run: PaletteItem.Run)] = [
        ("apply SEAM SPEC [ttl D]", "⏎", .complete("apply ")),
        ("revert SEAM", "r", .complete("revert ")),
        ("revert all", "R", .line(.revertAll)),
        ("release SEAM (the calls a pause holds)", "u", .complete("release ")),
        ("pause SEAM (hold its calls)", "", .complete("pause ")),
        ("reset SEAM | all (the counters)", "z Z", .complete("reset ")),
        ("ttl SEAM D | off (revert after a time)", "T", .complete("ttl ")),
        ("advance D (virtual time)", "] }", .complete("advance ")),
        ("profile NAME [on | off]", "1…9", .complete("profile ")),
        ("theme [NAME]", "t", .complete("theme ")),
        ("save recording", "W", .line(.saveRecording)),
        ("save profile NAME", "s", .complete("save profile ")),
        ("help", "?", .line(.help)),
        ("quit", "q", .line(.quit)),
    ]

    /// Everything the palette finds, in the order it lists them before anything is typed: commands, keys, seams,
    /// actions, profiles, themes.
    static func paletteItems(_ state: ConsoleState) -> [PaletteItem] {
        var items = paletteCommands.map { PaletteItem(kind: .command, title: $0.title, key: $0.key, run: $0.run) }
        // Every key's action by name, once for each thing it does (`R` and `a` share a row and do two).
        for row in KeyBindings.sections.flatMap(\.rows) {
            guard case .browse(let commands) = row.commands else { continue }
            var byCommand: [(BrowseCommand, [Key])] = []
            for (key, command) in commands.sorted(by: { keyName($0.key) < keyName($1.key) }) {
                if let index = byCommand.firstIndex(where: { $0.0 == command }) {
                    byCommand[index].1.append(key)
                } else {
                    byCommand.append((command, [key]))
                }
            }
            for (command, keys) in byCommand where paletteRuns(command) {
                let title =
                    byCommand.count == 1
                    ? row.help
                    : paletteTitle(command) ?? "\(row.help) (\(keys.map(keyName).joined(separator: " ")))"
                items.append(
                    PaletteItem(
                        kind: .key, title: title, key: keys.map(keyName).joined(separator: " "), run: .browse(command)))
            }
        }
        let seams = state.data?.seams ?? []
        for seam in seams {
            items.append(
                PaletteItem(
                    kind: .seam, title: "\(seam.id) · \(seam.title)", key: "",
                    run: .pick(seam.id, action: nil, edit: false)))
        }
        for seam in seams {
            for (index, action) in seam.actions.enumerated() {
                let parameters = action.parameters.map(\.name).joined(separator: ", ")
                items.append(
                    PaletteItem(
                        kind: .action, title: "\(seam.id) \(action.name)(\(parameters)) · \(action.summary)", key: "",
                        run: .pick(seam.id, action: index, edit: true)))
            }
        }
        for status in state.data?.profiles ?? [] {
            let name = status.profile.name
            items.append(
                PaletteItem(
                    kind: .profile, title: "profile \(name) (\(status.isActive ? "on" : "off"))",
                    key: status.profile.key.map { "\($0)" } ?? "", run: .line(.profile(name, on: nil))))
        }
        for name in state.themeNames {
            items.append(PaletteItem(kind: .theme, title: "theme \(name)", key: "", run: .line(.theme(name))))
        }
        return items
    }

    /// Whether a key's action makes sense from the palette (moving and profile numbers do not: the palette lists
    /// the profiles by name).
    private static func paletteRuns(_ command: BrowseCommand) -> Bool {
        switch command {
        case .move, .page, .first, .last, .profile, .palette, .dismiss: false
        default: true
        }
    }

    /// A name of its own for a key's action whose help row it shares with others (`u o x c`, `r U Ctrl-R`), so the
    /// palette lists `undo your last change` rather than the row's text three times; nil for the rest.
    static func paletteTitle(_ command: BrowseCommand) -> String? {
        switch command {
        case .revert: "revert the seam"
        case .undo: "undo your last change"
        case .redo: "redo the change you undid"
        case .release: "held call: release it unchanged"
        case .answer: "held call: answer it (type what it returns)"
        case .fail: "held call: fail it"
        case .letRestRun: "held call: release it and let later calls run"
        case .nextTest: "changes go to the next running test"
        case .hideEndedTests: "hide or show the tests that ended"
        case .advanceTime(let seconds):
            seconds >= 86_400 ? "advance virtual time a day" : "advance virtual time an hour"
        default: nil
        }
    }

    /// A key as the help writes it.
    static func keyName(_ key: Key) -> String {
        switch key {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let number): "F\(number)"
        case .control(let character): "Ctrl-\(character.uppercased())"
        default: "\(key)"
        }
    }
}
