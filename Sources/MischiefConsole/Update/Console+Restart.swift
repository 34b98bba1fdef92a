import Mischief

extension Console {
    /// Everything again from the controller: the first data, or the target found again after it was lost. A target
    /// that restarted (another pid) lost what this console had applied there: the console says so, and `a` applies
    /// it again.
    static func reset(to delta: StreamDelta, in state: inout ConsoleState) {
        let previous = state.data
        receive(ConsoleData(everything: delta, eventLimit: state.eventLimit), in: &state)
        guard let previous, case .lost = previous.connection else { return }
        let target = delta.target
        guard previous.target.pid != target.pid else {
            state.message = .init("attached again to \(target.name) (pid \(target.pid))")
            return
        }
        state.lostLayers = previous.seams.flatMap { seam in
            seam.activeLayers.filter { $0.source == state.source }.compactMap { layer in
                layer.spec.map { ConsoleCommand.apply(seam: seam.id, spec: $0) }
            }
        }
        state.lostLayers += previous.profiles.filter { $0.isActive && state.switchedOn.contains($0.profile.name) }
            .map { ConsoleCommand.toggleProfile($0.profile.name) }
        state.switchedOn = []
        let count = state.lostLayers.count
        let again =
            count == 0
            ? "; this console had changed nothing there"
            : ", without this console's \(count) change\(count == 1 ? "" : "s") (a applies again)"
        // Short, so the hints keep room: `a apply again` shows there until it is used.
        state.message = .init("\(target.name) restarted: pid \(previous.target.pid) → \(target.pid)" + again)
    }

    /// `a`: applies again, on a restarted target, what this console had applied on the process before it.
    static func applyAgain(in state: inout ConsoleState) -> [ConsoleCommand] {
        guard !state.lostLayers.isEmpty else {
            state.message = .init("nothing to apply again: a is for a target that restarted")
            return []
        }
        defer { state.lostLayers = [] }
        return state.lostLayers
    }
}
