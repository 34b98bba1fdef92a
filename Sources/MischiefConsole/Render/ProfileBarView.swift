import Mischief

/// The profile bar: every profile with its hot key, on ones marked; it wraps onto more rows rather than cut a
/// profile, and when even those are full it says how many more there are and that `p` lists them all.
enum ProfileBarView {
    /// The label before the first profile; wrapped rows are indented by its width.
    static let label = " Profiles "

    /// The most rows the bar may take on a screen of `rows` rows.
    static func maxRows(screenRows: Int) -> Int {
        screenRows < 20 ? 1 : screenRows < 30 ? 2 : 3
    }

    /// One profile's spans: its key, its mark and name.
    static func item(_ profile: ProfileStatus) -> [Canvas.Span] {
        var spans: [Canvas.Span] = [.init(" ")]
        if let key = profile.profile.key {
            spans.append(.init(String(key) + " ", .accent, bold: true))
        }
        let name = (profile.isActive ? "●" : "○") + profile.profile.name
        spans.append(profile.isActive ? .init(name, .active, bold: true) : .init(name, .muted))
        spans.append(.init(" "))
        return spans
    }

    /// The marker ending the last row when profiles did not fit: `+N more · p`.
    static func marker(hidden: Int) -> String { " +\(hidden) more · p lists all" }

    /// The profiles (indices) on each row at `width` columns, at most `maxRows` rows, and how many did not fit.
    static func rows(_ profiles: [ProfileStatus], width: Int, maxRows: Int) -> (rows: [[Int]], hidden: Int) {
        let room = max(1, width - DisplayWidth.of(label))
        var rows: [[Int]] = [[]]
        var used = 0
        for (index, profile) in profiles.enumerated() {
            let itemWidth = item(profile).reduce(0) { $0 + DisplayWidth.of($1.text) }
            if used + itemWidth > room, !rows[rows.count - 1].isEmpty {
                guard rows.count < maxRows else { return fitMarker(rows, profiles, room: room) }
                rows.append([])
                used = 0
            }
            rows[rows.count - 1].append(index)
            used += itemWidth
        }
        return (rows, 0)
    }

    /// Drops profiles from the end of the last row until the marker for everything left out fits after them.
    private static func fitMarker(
        _ rows: [[Int]], _ profiles: [ProfileStatus], room: Int
    ) -> (rows: [[Int]], hidden: Int) {
        var rows = rows
        func width(_ row: [Int]) -> Int {
            row.reduce(0) { sum, index in sum + item(profiles[index]).reduce(0) { $0 + DisplayWidth.of($1.text) } }
        }
        func hidden() -> Int { profiles.count - rows.reduce(0) { $0 + $1.count } }
        while rows[rows.count - 1].count > 1,
            width(rows[rows.count - 1]) + DisplayWidth.of(marker(hidden: hidden())) > room
        {
            rows[rows.count - 1].removeLast()
        }
        return (rows, hidden())
    }

    /// How many rows the bar takes for `state` on a screen of `size`.
    static func rowCount(_ state: ConsoleState, size: ScreenSize) -> Int {
        rows(state.data?.profiles ?? [], width: size.columns, maxRows: maxRows(screenRows: size.rows)).rows.count
    }

    /// The profile drawn under the mouse on a bar in `rect`, if any.
    static func profile(at mouse: Mouse, _ state: ConsoleState, in rect: Rect) -> ProfileStatus? {
        let profiles = state.data?.profiles ?? []
        let row = mouse.y - rect.y
        let shown = rows(profiles, width: rect.width, maxRows: rect.height).rows
        guard shown.indices.contains(row) else { return nil }
        var x = rect.x + DisplayWidth.of(label)
        for index in shown[row] {
            let width = item(profiles[index]).reduce(0) { $0 + DisplayWidth.of($1.text) }
            if mouse.x >= x, mouse.x < x + width { return profiles[index] }
            x += width
        }
        return nil
    }

    static func draw(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas) {
        let profiles = state.data?.profiles ?? []
        canvas.text(label, x: rect.x, y: rect.y, .muted, maxWidth: rect.width)
        let x = rect.x + DisplayWidth.of(label)
        guard !profiles.isEmpty else {
            canvas.text("none defined", x: x, y: rect.y, .muted, maxWidth: rect.maxX - x)
            return
        }
        let (rows, hidden) = self.rows(profiles, width: rect.width, maxRows: rect.height)
        for (row, indices) in rows.enumerated() {
            var spans = indices.flatMap { item(profiles[$0]) }
            if hidden > 0, row == rows.count - 1 { spans.append(.init(marker(hidden: hidden), .accent, bold: true)) }
            canvas.spans(spans, x: x, y: rect.y + row, maxWidth: rect.maxX - x)
        }
    }
}
