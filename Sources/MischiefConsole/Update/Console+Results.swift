import Mischief

extension Console {
    /// Shows how a command ended: in the action picker when it applied the picker's spec, else in the status
    /// line. The driver reports it once the data shows what the command did.
    static func finish(_ command: ConsoleCommand, _ result: CommandResult, in state: inout ConsoleState) {
        if case .failure(let message) = result {
            state.message = .init(message, isError: true)
        }
        if command.changesTarget, case .success = result { state.hasUnsavedLayers = true }
        state.history.finished(command, result)
        defer {
            if case .success = result, let echo = state.history.echoed(after: command) { state.message = .init(echo) }
        }
        switch command {
        case .apply(let seam, let spec):
            if case .success = result {
                state.lastUsed[seam] = spec
                state.specHistory.add(spec, for: seam)
                state.message = .init("\(seam): \(spec)")
            }
            closePicker(applying: spec, to: seam, result, in: &state)
        case .revert(let seam):
            succeeded(result, "\(seam): original", in: &state)
        case .release(let seam):
            succeeded(result, "\(seam): released", in: &state)
        case .answer(let seam, _, _):
            succeeded(result, "\(seam): released", in: &state)
        case .revertLayers(let seam, _):
            succeeded(result, "\(seam): this console's change reverted", in: &state)
        case .resetCounters(let seam):
            succeeded(result, seam.map { "\($0): counters reset" } ?? "every seam's counters reset", in: &state)
        case .setTTL(let seam, let ttl):
            succeeded(
                result,
                ttl.map { "\(seam): reverted by itself in \(SpecDuration($0))" } ?? "\(seam): lasts until reverted",
                in: &state)
        case .revertAll:
            succeeded(result, "everything reverted", in: &state)
        case .toggleProfile(let name):
            // The data that carries the toggle came first: it says which way it went.
            if case .success = result {
                let isOn = state.data?.profiles.first { $0.profile.name == name }?.isActive ?? false
                if isOn { state.switchedOn.insert(name) } else { state.switchedOn.remove(name) }
            }
            succeeded(result, "profile \(name) switched", in: &state)
        case .advanceTime(let duration):
            succeeded(result, "virtual time moved forward by \(SpecDuration(duration))", in: &state)
        case .saveProfile(let name), .overwriteProfile(let name):
            switch result {
            case .success(let path):
                state.message = .init(
                    "saved \(name) to \(path ?? "its profile file")"
                        + underneathNote(state.data?.seams.map(\.id) ?? [], in: state))
            case .needsConfirmation(let question):
                state.mode = .confirmOverwrite(name: name, question: question)
                state.message = nil
            case .failure:
                break
            }
        case .saveRecording:
            if case .success(let path) = result {
                state.hasUnsavedLayers = false
                // The file's name first: a narrow status line cuts the end, the folder, which the help names.
                let file = (path ?? "a file").split(separator: "/").last.map(String.init) ?? "a file"
                let folder = path.map { String($0.dropLast(file.count + 1)) } ?? ""
                state.message = .init(
                    "recording \(file) saved" + (folder.isEmpty ? "" : " in \(Format.homeRelative(folder))"))
            }
        case .cycleTheme, .selectTheme:
            if case .success(let name) = result {
                state.message = .init("theme \(name ?? "changed")")
            }
        case .copy(let text) where text.hasPrefix("mischief ") || text.hasPrefix("curl "):
            succeeded(result, "copied: \(text)", in: &state)  // a change's command line, from the event log
        case .copy(let text):
            // `y` copies the selected seam's spec, `Y` every seam's as `seam=spec;…`.
            let selected = state.selectedSeam
            let seams =
                selected.flatMap { state.spec(of: $0) } == text
                ? selected.map { [$0.id] } ?? [] : state.data?.seams.map(\.id) ?? []
            succeeded(result, "copied: \(text)" + underneathNote(seams, in: state), in: &state)
        case .inTests(_, let inner):
            if case .apply(let seam, let spec) = inner { closePicker(applying: spec, to: seam, result, in: &state) }
            succeeded(result, "done in the test's scope", in: &state)
        case .quit:
            break
        }
    }

    /// Closes the action picker that applied `spec` to `seam` when it succeeded, or shows it its error.
    private static func closePicker(
        applying spec: String, to seam: SeamID, _ result: CommandResult, in state: inout ConsoleState
    ) {
        guard case .picker(var picker) = state.mode, picker.seam == seam, picker.applying == spec else { return }
        switch result {
        case .success:
            state.mode = .browse
        case .failure(let message), .needsConfirmation(let message):
            picker.applying = nil
            picker.error = message
            state.mode = .picker(picker)
            state.message = nil
        }
    }

    /// Shows `text`, or the success text the driver gave, when the command succeeded.
    private static func succeeded(_ result: CommandResult, _ text: String, in state: inout ConsoleState) {
        if case .success(let given) = result {
            state.message = .init(given ?? text)
        }
    }

    /// What a copy or a save of `seams` leaves out: the layers waiting underneath the one that answers on a replacing
    /// seam (they answer only once those above them are reverted). Empty when there are none.
    static func underneathNote(_ seams: [SeamID], in state: ConsoleState) -> String {
        let wanted = Set(seams)
        let under = (state.data?.seams ?? []).filter { wanted.contains($0.id) && $0.info.stacking == .replace }
            .compactMap { seam in seam.activeLayers.count > 1 ? (seam.id, seam.activeLayers.count - 1) : nil }
        guard !under.isEmpty else { return "" }
        let count = under.map(\.1).reduce(0, +)
        return "; left out \(count) layer\(count == 1 ? "" : "s") underneath (on "
            + under.map { $0.0.rawValue }.joined(separator: ", ") + "), which do not answer now"
    }
}
