import Mischief

/// A pause as a breakpoint: the selected seam's held call shows its input in the detail pane; `u` releases it
/// unchanged, `o` asks what it returns (a spec of the seam), `x` fails it, `c` releases it and reverts the pause so
/// the rest run.
extension Console {
    /// The most characters an answer holds: a model's JSON, edited.
    static let answerLimit = TextField.maximumLength

    /// `o`: asks what the selected seam's held calls return, starting from `return(INPUT)` when the seam gives back
    /// what it is given (a model passed through), so editing the input is editing the answer.
    static func askAnswer(in state: inout ConsoleState) {
        guard let seam = heldSeam(in: &state, verb: "o answers") else { return }
        var start = ""
        // The registry's held call, else the chosen test's: `o` answers where `u` releases.
        if let input = (seam.heldCalls.first ?? state.testHeldCalls(on: seam.id).first)?.input, returnsItsInput(seam),
            seam.actions.contains(where: { $0.name == "return" })
        {
            start = "return(\(JSONLayout.compact(input) ?? input))"  // the text shown, on the field's one line
        }
        state.mode = .answer(seam.id, TextField(start))
    }

    /// `x`: fails the selected seam's held calls with the seam's error (spec `throw`).
    static func failHeld(in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let seam = heldSeam(in: &state, verb: "x fails it") else { return [] }
        guard seam.info.canThrow else {
            state.message = .init("\(seam.id) cannot fail (its type throws nothing); o gives what it returns")
            return []
        }
        return [.answer(seam: seam.id, spec: "throw", holdNext: true)]
    }

    /// `c`: releases the selected seam's held calls unchanged and reverts the pause, so the next calls run.
    static func letRestRun(in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let seam = heldSeam(in: &state, verb: "c lets it and the rest run") else { return [] }
        return [.answer(seam: seam.id, spec: nil, holdNext: false)]
    }

    /// A key while typing what held calls return (``KeyBindings/answer``): Enter sends it (they stay held when the
    /// spec does not fit), Esc cancels.
    static func answerKey(_ key: Key, seam: SeamID, _ field: TextField, in state: inout ConsoleState)
        -> [ConsoleCommand]
    {
        var field = field
        switch KeyBindings.answer[key] {
        case .accept:
            let spec = field.text.trimmingSpaces()
            guard !spec.isEmpty else {
                state.message = .init(
                    "type what the held call returns, such as return(42) or throw, or Esc", isError: true)
                return []
            }
            state.mode = .browse
            state.message = .init("\(seam): answering \(spec)…")
            return [.answer(seam: seam, spec: spec, holdNext: true)]
        case .cancel:
            state.mode = .browse
        case .move, nil:
            if edit(&field, with: key, limit: answerLimit, name: "an answer", in: &state) {
                state.mode = .answer(seam, field)
            }
        }
        return []
    }

    /// The selected seam when a pause holds calls on it; else nil, with a message saying so.
    private static func heldSeam(in state: inout ConsoleState, verb: String) -> SeamSnapshot? {
        guard let seam = state.selectedSeam else { return nil }
        guard seam.held > 0 || state.testHeld(on: seam.id) > 0 else {
            state.message = .init("no call is held on \(seam.id): apply pause, and when a call is held \(verb)")
            return nil
        }
        return seam
    }

    /// Whether the seam's signature gives back the type it takes: `(DemoUser) -> DemoUser`.
    static func returnsItsInput(_ seam: SeamSnapshot) -> Bool {
        var signature = Substring(seam.signature)
        guard signature.hasPrefix("(") else { return false }
        signature = signature.dropFirst()
        let parts = signature.split(separator: ")", maxSplits: 1)
        guard parts.count == 2 else { return false }
        let input = parts[0]
        let output = parts[1].hasPrefix(" async -> ") ? parts[1].dropFirst(10) : parts[1].dropFirst(4)
        guard parts[1].hasPrefix(" -> ") || parts[1].hasPrefix(" async -> ") else { return false }
        return !input.isEmpty && input == output
    }
}
