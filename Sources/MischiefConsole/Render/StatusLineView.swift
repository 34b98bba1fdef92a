/// The bottom line: what is being typed or the last message, and the keys that matter now.
enum StatusLineView {
    static func draw(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas) {
        var hints: [Canvas.Span] = []
        for (key, action) in KeyHelp.hints(for: state) {
            hints.append(.init(" " + key, .accent, bold: true))
            hints.append(.init(" " + action + " ", .muted))
        }
        let hintsWidth = hints.reduce(0) { $0 + DisplayWidth.of($1.text) }
        var used = 0
        switch state.mode {
        case .filter:
            used = canvas.text(" / ", x: rect.x, y: rect.y, .accent, bold: true)
            used += field(state.filter, at: rect.x + used, rect: rect, hintsWidth: hintsWidth, on: &canvas)
        case .saveName(let name):
            used = canvas.text(" Save as profile: ", x: rect.x, y: rect.y, .accent, bold: true)
            used += field(name, at: rect.x + used, rect: rect, hintsWidth: hintsWidth, on: &canvas)
        case .browse, .help, .eventLog, .picker:
            if let message = state.message {
                let text = " " + (message.text.split(separator: "\n").first.map(String.init) ?? "")
                used = canvas.spans([.init(text, message.isError ? .error : .text, bold: message.isError)],
                                    x: rect.x, y: rect.y, maxWidth: rect.width)
            }
        }
        if used + 2 + hintsWidth <= rect.width {
            canvas.spans(hints, x: rect.maxX - hintsWidth, y: rect.y, maxWidth: hintsWidth)
        } else if used == 0 {
            canvas.spans(hints, x: rect.x, y: rect.y, maxWidth: rect.width)
        }
    }

    /// Draws a field in the room the hints leave (at least 20 columns); returns the columns used.
    private static func field(
        _ field: TextField, at x: Int, rect: Rect, hintsWidth: Int, on canvas: inout Canvas
    ) -> Int {
        let room = rect.maxX - x
        let width = room - hintsWidth - 2 >= 20 ? room - hintsWidth - 2 : room
        FieldView.draw(field, x: x, y: rect.y, width: width, on: &canvas)
        return min(width, DisplayWidth.of(field.text) + 1)
    }
}
