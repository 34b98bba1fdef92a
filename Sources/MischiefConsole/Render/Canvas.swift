/// A grid being drawn, with the theme's conventions for selection and focus.
struct Canvas {
    /// A piece of text in one role.
    struct Span: Sendable, Equatable {
        var text: String
        var role: StyleRole
        var bold = false

        init(_ text: String, _ role: StyleRole = .text, bold: Bool = false) {
            self.text = text
            self.role = role
            self.bold = bold
        }
    }

    var grid: CellGrid
    let theme: ThemeInfo

    init(_ size: ScreenSize, theme: ThemeInfo) {
        grid = CellGrid(width: size.columns, height: size.rows, fill: .background)
        self.theme = theme
    }

    /// The style of a role; selection is also reverse video in monochrome themes.
    func style(_ role: StyleRole, bold: Bool = false) -> Style {
        Style(role, bold: bold, reverse: role == .selection && theme.isMonochrome)
    }

    /// Writes text from (x, y), at most `maxWidth` columns; returns the columns used.
    @discardableResult
    mutating func text(
        _ text: String, x: Int, y: Int, _ role: StyleRole = .text, bold: Bool = false, maxWidth: Int? = nil
    ) -> Int {
        grid.put(text, x: x, y: y, style: style(role, bold: bold), maxWidth: maxWidth)
    }

    /// Writes spans one after the other within `maxWidth` columns, the last one cut with "…" when they do not
    /// fit; every span is drawn in `override` when given (a selected row). Returns the columns used.
    @discardableResult
    mutating func spans(_ spans: [Span], x: Int, y: Int, maxWidth: Int, override: StyleRole? = nil) -> Int {
        var used = 0
        for span in spans {
            let room = maxWidth - used
            guard room > 0 else { break }
            let shown = DisplayWidth.truncate(span.text, to: room, ellipsis: true)
            used += text(shown, x: x + used, y: y, override ?? span.role, bold: span.bold, maxWidth: room)
        }
        return used
    }

    /// Writes text ending just before column `right`, cut from the left with "…" when wider than `maxWidth`.
    mutating func rightAligned(_ text: String, right: Int, y: Int, _ role: StyleRole, maxWidth: Int) {
        guard maxWidth > 0 else { return }
        let shown = DisplayWidth.truncate(text, to: maxWidth, ellipsis: true)
        self.text(shown, x: right - DisplayWidth.of(shown), y: y, role)
    }

    /// Fills a rectangle with blanks in `role`.
    mutating func fill(_ rect: Rect, _ role: StyleRole = .background) {
        grid.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height, style: style(role))
    }

    /// The mark before a focused pane's title, so the focus shows without colour (`NO_COLOR`, mono themes).
    static let focusMark = "▶ "

    /// Draws a pane's border and title; a focused pane's border is in the accent role (and bold), and its title
    /// starts with ``focusMark``.
    ///
    /// - Parameter clear: blanks the inside first, for panes drawn over others (a fresh grid is blank already).
    mutating func pane(_ rect: Rect, title: String?, focused: Bool = false, clear: Bool = false) {
        if clear {
            fill(rect)
        }
        let title = focused ? title.map { Self.focusMark + $0 } : title
        let role: StyleRole = focused ? .accent : .border
        grid.box(
            x: rect.x, y: rect.y, width: rect.width, height: rect.height, style: style(role, bold: focused),
            title: title)
        if let title, rect.width >= 7 {
            // The title itself in the title role, over the border's.
            let shown = DisplayWidth.truncate(title, to: rect.width - 6, ellipsis: true)
            text(shown, x: rect.x + 3, y: rect.y, focused ? .accent : .title, bold: true, maxWidth: rect.width - 6)
        }
    }
}
