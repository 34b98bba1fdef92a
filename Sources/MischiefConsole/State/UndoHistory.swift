import Mischief

/// This console's changes, for `U` to undo and `Ctrl-R` to redo: only what this console did, as far back as its
/// session goes (at most ``limit`` steps). A new change clears what was undone.
///
/// Each step says how to undo and redo itself in terms of what to reach, not which command to send, so it still
/// does the right thing when others changed the target meanwhile: undoing an apply gives the seam back the spec this
/// console had on it before (or reverts only this console's layer, leaving a profile's beneath), undoing a revert
/// applies again the spec the seam had (the same spec gives the same seed), undoing a profile switch puts the
/// profile back as it was.
public struct UndoHistory: Sendable, Equatable {
    /// What a step reaches.
    public enum Target: Sendable, Equatable {
        /// This console's spec on a seam, with the time it lives when one was set with it, or (nil) none of its
        /// layers there.
        case ownSpec(SeamID, String?, ttl: Duration? = nil)
        /// The seam runs this spec (applied by this console), or (nil) its original.
        case seamSpec(SeamID, String?)
        /// The profile is on or off.
        case profile(String, on: Bool)
    }

    /// One change this console made.
    public struct Step: Sendable, Equatable {
        /// What it did, for the status line: `apply clock.now shift(+3h)`.
        public var label: String
        /// What undoing it reaches.
        public var undo: Target
        /// What redoing it reaches.
        public var redo: Target
    }

    /// A change sent and not yet answered, with its step.
    struct Pending: Sendable, Equatable {
        var command: ConsoleCommand
        var step: Step
    }

    /// The most steps kept; older ones are forgotten.
    public static let limit = 100

    /// Steps done, oldest first: `U` undoes the last.
    public internal(set) var done: [Step] = []
    /// Steps undone, oldest first: `Ctrl-R` redoes the last.
    public internal(set) var undone: [Step] = []
    var pending: [Pending] = []
    /// What the status line says once the commands an undo or redo sent have worked (their own results would
    /// otherwise say only `clock.now: original`).
    var echo: (commands: [ConsoleCommand], message: String)? {
        get { echoCommands.isEmpty ? nil : (echoCommands, echoMessage) }
        set {
            echoCommands = newValue?.commands ?? []
            echoMessage = newValue?.message ?? ""
        }
    }
    private var echoCommands: [ConsoleCommand] = []
    private var echoMessage = ""

    /// The message to show after `command` worked, when it was the last an undo or redo sent.
    mutating func echoed(after command: ConsoleCommand) -> String? {
        guard let index = echoCommands.firstIndex(of: command) else { return nil }
        echoCommands.remove(at: index)
        return echoCommands.isEmpty ? echoMessage : nil
    }

    /// Notes a change the user asked for, with what the target was like before it (`data`).
    mutating func note(_ command: ConsoleCommand, data: ConsoleData?, source: String) {
        // A time to live sent with an apply (the palette's `apply SEAM SPEC ttl 10m`) belongs to that apply's step, so
        // redoing it sets the time again: a redone change still reverts by itself.
        if case .setTTL(let seam, let ttl?) = command, let last = pending.indices.last,
            case .ownSpec(seam, let spec?, _) = pending[last].step.redo
        {
            pending[last].step.redo = .ownSpec(seam, spec, ttl: ttl)
            pending[last].step.label += " ttl \(SpecDuration(ttl))"
            return
        }
        guard let step = Self.step(for: command, data: data, source: source) else { return }
        pending.append(Pending(command: command, step: step))
    }

    /// A command ended: a noted change that worked becomes a step (and what was undone is gone).
    mutating func finished(_ command: ConsoleCommand, _ result: CommandResult) {
        guard let index = pending.firstIndex(where: { $0.command == command }) else { return }
        let step = pending.remove(at: index).step
        guard case .success = result else { return }
        done.append(step)
        if done.count > Self.limit { done.removeFirst(done.count - Self.limit) }
        undone.removeAll()
    }

    static func step(for command: ConsoleCommand, data: ConsoleData?, source: String) -> Step? {
        switch command {
        case .apply(let seam, let spec):
            let before = data?.seams.first { $0.id == seam }?.activeLayers.last { $0.source == source }?.spec
            return Step(label: "apply \(seam) \(spec)", undo: .ownSpec(seam, before), redo: .ownSpec(seam, spec))
        case .revert(let seam):
            guard let spec = data?.seams.first(where: { $0.id == seam })?.spec else { return nil }
            return Step(label: "revert \(seam) (\(spec))", undo: .seamSpec(seam, spec), redo: .seamSpec(seam, nil))
        case .toggleProfile(let name):
            let wasOn = data?.profiles.first { $0.profile.name == name }?.isActive ?? false
            return Step(
                label: "switch profile \(name) \(wasOn ? "off" : "on")", undo: .profile(name, on: wasOn),
                redo: .profile(name, on: !wasOn))
        default:
            return nil
        }
    }

    /// The commands that reach `target` from what `data` shows; empty when it is reached already.
    static func commands(reaching target: Target, data: ConsoleData?, source: String) -> [ConsoleCommand] {
        switch target {
        case .ownSpec(let seam, let spec?, let ttl):
            return [.apply(seam: seam, spec: spec)] + (ttl.map { [.setTTL(seam: seam, ttl: $0)] } ?? [])
        case .seamSpec(let seam, let spec?):
            return [.apply(seam: seam, spec: spec)]
        case .ownSpec(let seam, nil, _):
            let own = data?.seams.first { $0.id == seam }?.activeLayers.filter { $0.source == source }.map(\.id) ?? []
            return own.isEmpty ? [] : [.revertLayers(seam: seam, layers: own)]
        case .seamSpec(let seam, nil):
            let active = data?.seams.first { $0.id == seam }?.behaviourText != nil
            return active ? [.revert(seam)] : []
        case .profile(let name, let on):
            let isOn = data?.profiles.first { $0.profile.name == name }?.isActive ?? false
            return isOn == on ? [] : [.toggleProfile(name)]
        }
    }
}
