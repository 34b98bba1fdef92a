import Mischief

/// The action picker, over the main screen: a list of actions, then the spec being edited with the grammar's cheat
/// sheet above it and, under it, a live check of what is typed (its canonical form, or the error with a caret at
/// its column), Tab's candidates, or the target's answer.
enum PickerView {
    /// One line of text and the role it is drawn in.
    typealias Line = (text: String, role: StyleRole)

    static func draw(_ picker: ActionPicker, _ state: ConsoleState, size: ScreenSize, on canvas: inout Canvas) {
        guard let seam = state.data?.seams.first(where: { $0.id == picker.seam }), !seam.actions.isEmpty else {
            return
        }
        let width = min(size.columns - 4, 78)
        let maxHeight = size.rows - 4
        let textWidth = width - 4  // the text width inside the box
        let choice = min(picker.choice, seam.actions.count - 1)
        let action = seam.actions[choice]
        let description = picker.describing ? describeLines(action, width: textWidth) : []
        let contentHeight: Int
        var lines: [[Canvas.Span]] = []
        var outcome: [Line] = []
        if picker.field == nil {
            contentHeight = picker.describing ? description.count : seam.actions.count
        } else {
            outcome = picker.describing ? [] : outcomeLines(picker, seam: seam, width: textWidth)
            let cheat = cheatLines(seam.actions, width: textWidth).map { [Canvas.Span($0, .muted)] }
            // What fits: the action, its parameters (dropped first when the screen is short), the cheat sheet.
            let room = maxHeight - 2 - 3 - max(1, outcome.count)
            if picker.describing {
                lines = description.map { [Canvas.Span($0)] } + [[]]
            } else {
                let header = headerLines(action).dropLast()
                lines = (header.count + cheat.count <= room ? Array(header) : [header[0]]) + cheat + [[]]
            }
            contentHeight = lines.count + 2 + max(1, outcome.count)
        }
        let height = min(maxHeight, contentHeight + 2)
        let rect = Rect(
            x: (size.columns - width) / 2, y: max(2, (size.rows - height) / 2), width: width,
            height: height)
        canvas.pane(rect, title: "Apply to \(seam.id)", focused: true, clear: true)
        let inner = rect.inner
        let x = inner.x + 1
        guard let field = picker.field else {
            if picker.describing {
                for (row, line) in description.prefix(inner.height).enumerated() {
                    canvas.text(line, x: x, y: inner.y + row, .text, maxWidth: textWidth)
                }
                return
            }
            let top = max(0, min(choice - inner.height / 2, seam.actions.count - inner.height))
            for row in 0..<min(inner.height, seam.actions.count - top) {
                let index = top + row
                let selected = index == choice
                if selected {
                    canvas.fill(Rect(x: inner.x, y: inner.y + row, width: inner.width, height: 1), .selection)
                    if canvas.theme.isMonochrome {
                        canvas.text(">", x: inner.x, y: inner.y + row, .selection, bold: true)
                    }
                }
                canvas.spans(
                    DetailView.actionLine(seam.actions[index], indent: ""), x: x, y: inner.y + row,
                    maxWidth: textWidth, override: selected ? .selection : nil)
            }
            return
        }
        // Description and parameters at the top, the check at the bottom; the field between them.
        let fieldRow = min(lines.count, inner.height - 1)
        for (row, spans) in lines.prefix(fieldRow).enumerated() {
            canvas.spans(spans, x: x, y: inner.y + row, maxWidth: textWidth)
        }
        canvas.text("› ", x: x, y: inner.y + fieldRow, .accent, bold: true)
        FieldView.draw(field, x: x + 2, y: inner.y + fieldRow, width: textWidth - 2, on: &canvas)
        let below = inner.height - fieldRow - 2
        guard below > 0 else { return }
        for (row, line) in outcome.prefix(below).enumerated() {
            canvas.text(line.text, x: x, y: inner.y + fieldRow + 2 + row, line.role, maxWidth: textWidth)
        }
    }

    /// The chosen action's summary and parameters, and a blank line before the field.
    static func headerLines(_ action: ActionSignature) -> [[Canvas.Span]] {
        var lines: [[Canvas.Span]] = [DetailView.actionLine(action, indent: "")]
        for parameter in action.parameters {
            lines.append(DetailView.parameterLine(parameter, indent: "  "))
        }
        return lines + [[]]
    }

    /// The grammar in a line, then the seam's actions with their parameters, wrapped to `width`.
    static func cheatLines(_ actions: [ActionSignature], width: Int) -> [String] {
        let grammar = "20%A a fifth of calls · 3*A the first 3 · A -> B then · A + B both · seq(A, B) · F1 more"
        // Parameters most actions share (a network rule's url, host, path…) are named once, at the end.
        let withParameters = actions.filter { !$0.parameters.isEmpty }
        let shared = Set(withParameters.flatMap { $0.parameters.map(\.name) }).filter { name in
            withParameters.count >= 3
                && withParameters.filter { $0.parameters.contains { $0.name == name } }.count * 2
                    > withParameters.count
        }
        let names = actions.map { action in
            let own = action.parameters.map(\.name).filter { !shared.contains($0) }
            return own.isEmpty ? action.name : "\(action.name)(\(own.joined(separator: ",")))"
        }
        let sharedNames = withParameters.first?.parameters.map(\.name).filter(shared.contains) ?? []
        let also = sharedNames.isEmpty ? "" : " · most also take " + sharedNames.joined(separator: ",")
        return TextWrap.lines(grammar, width: max(10, width))
            + TextWrap.lines("actions: " + names.joined(separator: " ") + also, width: max(10, width))
    }

    /// An action's whole description: its summary, every parameter with its kind, default, step and summary, and
    /// examples of it alone and with the grammar's parts.
    static func describeLines(_ action: ActionSignature, width: Int) -> [String] {
        var lines = TextWrap.lines("\(action.name): \(action.summary)", width: max(10, width))
        for parameter in action.parameters {
            let text = DetailView.parameterLine(parameter, indent: "  ").map(\.text).joined()
            lines += TextWrap.lines(text, width: max(10, width - 4)).enumerated().map { $0 == 0 ? $1 : "    " + $1 }
        }
        let draft = action.draft(now: nil).text
        lines.append("examples:")
        lines.append("  \(draft)")
        lines.append("  20%\(draft)    a fifth of the calls, drawn from the seeded generator")
        lines.append("  3*\(draft)    the first 3 calls, then the seam's original")
        lines.append("  \(draft) -> off    once, then the original")
        if action.composes { lines.append("  \(draft) + delay(100ms)    both at once (it composes)") }
        lines.append("Esc back; Writing specs (DocC) has the whole grammar")
        return lines
    }

    /// What goes under the field: the spec being applied, the last refusal, Tab's candidates, or the live check of
    /// what is typed: its canonical form, or the error with the spec and a caret under its column.
    static func outcomeLines(_ picker: ActionPicker, seam: SeamSnapshot, width: Int) -> [Line] {
        if let applying = picker.applying { return [("applying \(applying)…", .muted)] }
        if let error = picker.error { return errorLines(error, width: width) }
        if !picker.completions.isEmpty {
            return TextWrap.lines("Tab: " + picker.completions.joined(separator: "  "), width: max(10, width)).map {
                ($0, .muted)
            }
        }
        let text = picker.field?.text.trimmingSpaces() ?? ""
        guard !text.isEmpty else { return [] }
        switch check(text, actions: seam.actions, seam: seam.id) {
        case .success(let canonical): return [("✓ \(canonical)  ⏎ applies", .accent)]
        case .failure(let error): return errorLines(error.description, width: width)
        }
    }

    /// A spec error's text: the message wrapped between words (never cut), the spec and its caret as they are, so
    /// the caret stays under its column.
    static func errorLines(_ text: String, width: Int) -> [Line] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let message = lines.first else { return [] }
        return (TextWrap.lines(message, width: max(10, width)) + lines.dropFirst()).map { ($0, .error) }
    }

    /// The spec `text` checked as the target checks it for a seam with `actions`: its canonical form, or the error.
    static func check(_ text: String, actions: [ActionSignature], seam: SeamID) -> Result<String, SpecError> {
        do throws(SpecError) {
            let spec = try Spec(parsing: text)
            _ = try spec.bind(to: actions, seam: seam.rawValue)
            return .success(spec.description)
        } catch {
            return .failure(error)
        }
    }
}
