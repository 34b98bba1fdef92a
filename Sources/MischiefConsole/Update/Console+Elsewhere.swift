import Mischief

extension Console {
    /// Says in one line when something other than this console changed the target (another console, the CLI, a
    /// profile switched from elsewhere, a guard, a time to live), so the status line never keeps a message the
    /// target no longer bears out ("profile Tomorrow switched on" after a guard reverted it).
    ///
    /// A revert names who asked (its source); one whose time to live ran out is the target's own doing even on
    /// this console's change. While this console has commands in flight, an apply may be its own (a profile it
    /// switched on applies under the profile's name), so only reverts others asked for and trips are told then.
    static func noteChangesFromElsewhere(_ events: [Event], in state: inout ConsoleState) {
        let quiet = state.commandsInFlight == 0
        let elsewhere = events.filter { event in
            switch event.kind {
            case .guardTripped:
                true
            case .reverted:
                event.source != state.source || event.message.contains(": expired after its ttl")
            case .applied:
                quiet && event.source != state.source
            default:
                false
            }
        }
        // A trip says what it reverted; the reverts that follow it are its own.
        guard let last = elsewhere.last(where: { $0.kind == .guardTripped }) ?? elsewhere.last else { return }
        let more = elsewhere.count > 1 ? " (and \(elsewhere.count - 1) more in the log, e)" : ""
        let line = last.message.split(separator: "\n").first.map(String.init) ?? ""
        let seam = last.seam?.rawValue ?? "the target"
        let who = last.source ?? "someone else"
        let text =
            switch last.kind {
            case .guardTripped: line
            case .reverted where line.contains(": expired after its ttl"): "\(seam) reverted: \(line)"
            case .reverted: "\(seam) reverted by \(who): \(line)"
            default: "\(seam) changed by \(who): \(line)"
            }
        state.message = .init(text + more)
    }
}
