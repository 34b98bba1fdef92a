import Mischief

extension Console {
    /// A key in the action picker (``KeyBindings/picker``, ``KeyBindings/pickerSpec`` while editing): choose an
    /// action, then edit its spec; Enter applies, Esc leaves.
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
            switch KeyBindings.picker[key] {
            case .back where picker.describing:
                picker.describing = false
            case .back, .close:
                state.mode = .browse
            case .describe:
                picker.describing.toggle()
            case .accept:
                let action = seam.actions[min(picker.choice, seam.actions.count - 1)]
                // The spec applied now when it starts with this action (`shift(2d)`, not the draft's `shift(1d)`).
                if let applied = state.spec(of: seam), Self.firstAction(of: applied) == action.name {
                    picker.field = TextField(applied)
                } else {
                    let draft = action.draft(now: state.data?.target.targetTime ?? state.data?.target.wallTime)
                    picker.field = TextField(draft.text, cursor: draft.cursor)
                }
                picker.error = nil
                picker.describing = false
            case .move(let navigation):
                picker.choice = navigation.movement(page: 5).applied(to: picker.choice, limit: seam.actions.count - 1)
            case .complete, .history, nil:
                break
            }
            return []
        }
        let command = KeyBindings.pickerSpec[key]
        switch command {
        case .back where picker.describing:
            picker.describing = false
        case .back, .close:
            state.mode = .browse
        case _ where picker.applying != nil:
            break  // waiting for the result
        case .describe:
            picker.describing.toggle()
        case .complete:
            complete(&picker, field, actions: seam.actions)
        case .history(let up):
            walkHistory(&picker, field, up: up, history: state.specHistory.specs(for: seam.id))
        case .accept:
            let spec = field.text.trimmingSpaces()
            guard !spec.isEmpty else {
                picker.error = "type a spec such as \(seam.defaultSpec ?? "off"), or Esc"
                return []
            }
            picker.applying = spec
            return [.apply(seam: seam.id, spec: spec)]
        case .move, nil:
            if edit(&field, with: key, limit: FieldLimit.spec, name: "a spec", in: &state) {
                if field != picker.field {
                    picker.error = nil
                    picker.completions = []
                    picker.historyIndex = nil
                }
                picker.field = field
            }
        }
        return []
    }

    /// Tab: completes the word before the cursor (an action, a parameter, a city, a duration's unit); several
    /// candidates are listed under the field.
    static func complete(_ picker: inout ActionPicker, _ field: TextField, actions: [ActionSignature]) {
        let before = String(field.text.prefix(field.cursor))
        let after = String(field.text.dropFirst(field.cursor))
        guard let result = Completion.spec(before, actions: actions) else {
            picker.completions = []
            return
        }
        picker.field = TextField(result.text + after, cursor: result.text.count)
        picker.completions = result.options
        picker.historyIndex = nil
    }

    /// ↑/↓: the seam's specs applied before, newest first; ↓ past the newest brings back what was being typed.
    static func walkHistory(_ picker: inout ActionPicker, _ field: TextField, up: Bool, history: [String]) {
        guard !history.isEmpty else { return }
        let current = picker.historyIndex ?? history.count
        let next = up ? max(0, current - 1) : current + 1
        if picker.historyIndex == nil { picker.typed = field.text }
        if next >= history.count {
            picker.historyIndex = nil
            picker.field = TextField(picker.typed ?? field.text)
        } else {
            picker.historyIndex = next
            picker.field = TextField(history[next])
        }
        picker.completions = []
        picker.error = nil
    }
}
