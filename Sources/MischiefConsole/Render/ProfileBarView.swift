/// The profile bar: every profile with its hot key, on ones marked.
enum ProfileBarView {
    static func draw(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas) {
        var spans: [Canvas.Span] = [.init(" Profiles ", .muted)]
        let profiles = state.data?.profiles ?? []
        if profiles.isEmpty {
            spans.append(.init("none defined", .muted))
        }
        for profile in profiles {
            spans.append(.init(" "))
            if let key = profile.key {
                spans.append(.init(String(key) + " ", .accent, bold: true))
            }
            let name = (profile.isOn ? "●" : "○") + profile.name
            spans.append(profile.isOn ? .init(name, .active, bold: true) : .init(name, .muted))
            spans.append(.init(" "))
        }
        canvas.spans(spans, x: rect.x, y: rect.y, maxWidth: rect.width)
    }
}
