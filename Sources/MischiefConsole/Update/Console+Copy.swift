import Mischief

extension Console {
    /// `y`: copies the selected seam's spec.
    static func copySelected(in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let seam = state.selectedSeam else { return [] }
        guard let spec = state.spec(of: seam) else {
            let behaviour = state.behaviour(of: seam)
            state.message = .init(
                behaviour == nil
                    ? "\(seam.id) runs its original: no spec to copy"
                    : "\(seam.id) runs \(behaviour!), built in code: no spec to copy")
            return []
        }
        return [.copy(spec)]
    }

    /// `Y`: copies every seam's spec as one `MISCHIEF_APPLY` value, `seam=spec;seam=spec`, in list order.
    static func copyAll(in state: inout ConsoleState) -> [ConsoleCommand] {
        let entries = (state.data?.seams ?? []).compactMap { seam in
            state.spec(of: seam).map { SeamSpec(seam: seam.id, spec: $0) }
        }
        guard !entries.isEmpty else {
            state.message = .init("nothing applied from a spec: nothing to copy")
            return []
        }
        return [.copy(EnvironmentChaos.value(of: entries))]
    }
}
