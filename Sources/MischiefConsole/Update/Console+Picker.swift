import Mischief

extension Console {
    /// A key in the action picker: choose an action, then edit its spec; Enter applies, Esc leaves.
    static func pickerKey(_ key: Key, _ picker: ActionPicker, in state: inout ConsoleState) -> [ConsoleCommand] {
        var picker = picker
        guard let seam = state.data?.seams.first(where: { $0.id == picker.seam }), !seam.actions.isEmpty else {
            state.mode = .browse  // the seam went away
            return []
        }
        defer {
            if case .picker = state.mode {
                state.mode = .picker(picker)
            }
        }
        guard var field = picker.field else {
            switch key {
            case .escape, .character("q"):
                state.mode = .browse
            case .enter:
                let action = seam.actions[min(picker.choice, seam.actions.count - 1)]
                // The spec applied now when it starts with this action (`shift(2d)`, not the draft's `shift(1d)`).
                if let applied = state.spec(of: seam), Self.firstAction(of: applied) == action.name {
                    picker.field = TextField(applied)
                } else {
                    let draft = action.draft(now: state.data?.target.targetTime ?? state.data?.target.wallTime)
                    picker.field = TextField(draft.text, cursor: draft.cursor)
                }
                picker.error = nil
            default:
                if let movement = movement(for: key, page: 5) {
                    picker.choice = movement.applied(to: picker.choice, limit: seam.actions.count - 1)
                }
            }
            return []
        }
        switch key {
        case .escape:
            state.mode = .browse
        case _ where picker.applying != nil:
            break  // waiting for the result
        case .enter:
            let spec = field.text.trimmingSpaces()
            guard !spec.isEmpty else {
                picker.error = "type a spec such as \(seam.defaultSpec ?? "off"), or Esc"
                return []
            }
            picker.applying = spec
            return [.apply(seam: seam.id, spec: spec)]
        default:
            if edit(&field, with: key, limit: FieldLimit.spec, name: "a spec", in: &state) {
                picker.field = field
            }
        }
        return []
    }
}
