import Mischief

/// The action picker, over the main screen: a list of actions, then the spec being edited and its error.
enum PickerView {
    static func draw(_ picker: ActionPicker, _ state: ConsoleState, size: ScreenSize, on canvas: inout Canvas) {
        guard let seam = state.data?.seams.first(where: { $0.id == picker.seam }), !seam.actions.isEmpty else {
            return
        }
        let width = min(size.columns - 4, 78)
        let maxHeight = size.rows - 4
        let choice = min(picker.choice, seam.actions.count - 1)
        let lines = picker.field == nil ? [] : headerLines(seam.actions[choice])
        let outcome = outcomeLines(picker, width: width - 4)  // the text width inside the box
        let contentHeight = picker.field == nil ? seam.actions.count : lines.count + 2 + max(1, outcome.count)
        let height = min(maxHeight, contentHeight + 2)
        let rect = Rect(
            x: (size.columns - width) / 2, y: max(2, (size.rows - height) / 2), width: width,
            height: height)
        canvas.pane(rect, title: "Apply to \(seam.id)", focused: true, clear: true)
        let inner = rect.inner
        let x = inner.x + 1
        let textWidth = inner.width - 2
        guard let field = picker.field else {
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
        // Description and parameters at the top, the error at the bottom; the field between them.
        let fieldRow = min(lines.count, inner.height - 1)
        for (row, spans) in lines.prefix(fieldRow).enumerated() {
            canvas.spans(spans, x: x, y: inner.y + row, maxWidth: textWidth)
        }
        canvas.text("› ", x: x, y: inner.y + fieldRow, .accent, bold: true)
        FieldView.draw(field, x: x + 2, y: inner.y + fieldRow, width: textWidth - 2, on: &canvas)
        let below = inner.height - fieldRow - 2
        guard below > 0 else { return }
        for (row, line) in outcome.prefix(below).enumerated() {
            canvas.text(
                line, x: x, y: inner.y + fieldRow + 2 + row, picker.applying == nil ? .error : .muted,
                maxWidth: textWidth)
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

    /// What goes under the field: the spec being applied, or the last error's lines.
    static func outcomeLines(_ picker: ActionPicker) -> [String] {
        if let applying = picker.applying {
            return ["applying \(applying)…"]
        }
        return picker.error.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    /// The outcome's lines at `width`: the message wrapped between words (never cut), the spec and its caret as
    /// they are, so the caret stays under its column.
    static func outcomeLines(_ picker: ActionPicker, width: Int) -> [String] {
        let lines = outcomeLines(picker)
        guard let message = lines.first, picker.applying == nil else { return lines }
        return TextWrap.lines(message, width: max(10, width)) + lines.dropFirst()
    }
}
