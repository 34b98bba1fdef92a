import Mischief

/// Something ``Console/update(_:_:)`` asks the driver to do; the driver reports the outcome back as
/// ``ConsoleEvent/commandFinished(_:_:)``.
public enum ConsoleCommand: Sendable, Equatable {
    /// Apply a spec to a seam.
    case apply(seam: SeamID, spec: String)
    /// Revert a seam.
    case revert(SeamID)
    /// Release the calls a pause holds on a seam.
    case release(SeamID)
    /// End the calls a pause holds on a seam as a breakpoint: each returns or throws what `spec` gives (nil: goes
    /// on unchanged); `holdNext` false reverts the pause so the rest run.
    case answer(seam: SeamID, spec: String?, holdNext: Bool)
    /// Revert these layers of a seam, leaving its others (undo of this console's apply).
    case revertLayers(seam: SeamID, layers: [LayerID])
    /// Give the layers on a seam a time to live from now, or (nil) none.
    case setTTL(seam: SeamID, ttl: Duration?)
    /// Revert everything.
    case revertAll
    /// Reset a seam's counters (calls, chaos calls, errors), or every seam's when nil.
    case resetCounters(SeamID?)
    /// Switch a profile on or off.
    case toggleProfile(String)
    /// Move virtual time forward.
    case advanceTime(Duration)
    /// Save the current state as a profile of this name, unless that would replace a file the console did not
    /// write for it (then the result is ``CommandResult/needsConfirmation(_:)``).
    case saveProfile(String)
    /// Save the current state as a profile of this name, replacing its file whatever it holds (the user said yes).
    case overwriteProfile(String)
    /// Save the session's recording to a new file (the result's text is its path).
    case saveRecording
    /// Switch to the next theme (the driver owns the themes; report the new theme's name as the success text).
    case cycleTheme
    /// Switch to the theme of this name (one of ``ConsoleState/themeNames``), as ``cycleTheme`` does.
    case selectTheme(String)
    /// Put this text on the terminal's clipboard (the driver owns the terminal).
    case copy(String)
    /// Leave the console.
    case quit
    /// An ``apply(seam:spec:)``, ``revert(_:)``, ``release(_:)`` or ``answer(seam:spec:holdNext:)`` sent to the
    /// running tests the pattern names (a live test session's scopes), and to no other test or the process.
    indirect case inTests(String, ConsoleCommand)

    /// Whether the command changes the target (what it runs, counts or its time), so the changes the console
    /// sees while it is in flight may be its own.
    public var changesTarget: Bool {
        switch self {
        case .apply, .revert, .release, .answer, .revertLayers, .setTTL, .revertAll, .resetCounters, .toggleProfile,
            .advanceTime, .inTests:
            true
        case .saveProfile, .overwriteProfile, .saveRecording, .cycleTheme, .selectTheme, .copy, .quit: false
        }
    }

    /// Runs a command that goes to the target; nil for ``cycleTheme``, ``copy(_:)`` and ``quit``, which the driver
    /// handles.
    ///
    /// Returns how it ended and the registry generation that shows it (0 when it failed or changed nothing): the
    /// console shows the result once its data is of that generation. Errors become ``CommandResult/failure(_:)``
    /// with the error's description (a ``ConsoleError``'s message as it is); ``saveProfile(_:)`` and
    /// ``overwriteProfile(_:)`` succeed with the path written, and a save that would replace another file ends in
    /// ``CommandResult/needsConfirmation(_:)``.
    public func perform(with controller: some ConsoleController) async -> (result: CommandResult, generation: UInt64)? {
        do {
            switch self {
            case .apply(let seam, let spec):
                return (.success(nil), try await controller.apply(spec, to: seam))
            case .revert(let seam):
                return (.success(nil), try await controller.revert(seam))
            case .setTTL(let seam, let ttl):
                return (.success(nil), try await controller.setTTL(ttl, on: seam))
            case .release(let seam):
                let (count, generation) = try await controller.release(seam)
                return (.success("\(seam): released \(count) held call\(count == 1 ? "" : "s")"), generation)
            case .answer(let seam, let spec, let holdNext):
                let (count, generation) = try await controller.release(seam, answer: spec, holdNext: holdNext)
                var text = "\(seam): released \(count) held call\(count == 1 ? "" : "s")"
                if let spec { text += " answering \(spec)" }
                if !holdNext { text += "; the pause is reverted" }
                return (.success(text), generation)
            case .revertLayers(let seam, let layers):
                return (.success(nil), try await controller.revert(layers: layers, on: seam))
            case .revertAll:
                return (.success(nil), try await controller.revertAll())
            case .resetCounters(let seam):
                return (.success(nil), try await controller.resetCounters(seam))
            case .toggleProfile(let name):
                let (isOn, generation) = try await controller.toggleProfile(name)
                return (.success("profile \(name) switched \(isOn ? "on" : "off")"), generation)
            case .advanceTime(let duration):
                return (.success(nil), try await controller.advanceTime(by: duration))
            case .saveProfile(let name):
                return (.success(try await controller.saveProfile(named: name, overwrite: false)), 0)
            case .overwriteProfile(let name):
                return (.success(try await controller.saveProfile(named: name, overwrite: true)), 0)
            case .saveRecording:
                let recording = try await controller.recording()
                return (.success(try RecordingFiles.save(recording)), 0)
            case .inTests(let pattern, let command):
                return try await command.perform(inTests: pattern, with: controller)
            case .cycleTheme, .selectTheme, .copy, .quit:
                return nil
            }
        } catch ConsoleError.wouldReplace(let what) {
            return (.needsConfirmation(what), 0)
        } catch {
            return (.failure("\(error)"), 0)
        }
    }
}

extension ConsoleCommand {
    /// Runs a change in the running tests `pattern` names; other commands are refused.
    func perform(inTests pattern: String, with controller: some ConsoleController) async throws -> (
        result: CommandResult, generation: UInt64
    ) {
        switch self {
        case .apply(let seam, let spec):
            return (
                .success("\(seam): \(spec) in test \(pattern)"),
                try await controller.apply(spec, to: seam, inTests: pattern)
            )
        case .revert(let seam):
            return (
                .success("\(seam): changes from outside reverted in test \(pattern)"),
                try await controller.revert(seam, inTests: pattern)
            )
        case .release(let seam):
            let (count, generation) = try await controller.release(seam, inTests: pattern, answer: nil, holdNext: true)
            return (
                .success("\(seam): released \(count) held call\(count == 1 ? "" : "s") in test \(pattern)"), generation
            )
        case .answer(let seam, let spec, let holdNext):
            let (count, generation) = try await controller.release(
                seam, inTests: pattern, answer: spec, holdNext: holdNext)
            var text = "\(seam): released \(count) held call\(count == 1 ? "" : "s") in test \(pattern)"
            if let spec { text += " answering \(spec)" }
            if !holdNext { text += "; the pause is reverted" }
            return (.success(text), generation)
        default:
            throw ConsoleError.refused("only apply, revert and release go to a test's scope")
        }
    }

    /// The command as it goes to the running tests `pattern` names: changes to one seam go there, the rest as
    /// they are.
    func inTests(_ pattern: String?) -> ConsoleCommand {
        guard let pattern else { return self }
        switch self {
        case .apply, .revert, .release, .answer: return .inTests(pattern, self)
        default: return self
        }
    }
}

/// How a command ended.
public enum CommandResult: Sendable, Equatable {
    /// It worked; the text, when given, is shown (a saved profile's path, the new theme's name).
    case success(String?)
    /// It failed; the message is shown as it is (a spec error keeps its caret line).
    case failure(String)
    /// It needs the user's yes first; the text says why (`tokyo.yaml exists (2 profiles: Tokyo, Osaka)`).
    case needsConfirmation(String)
}
