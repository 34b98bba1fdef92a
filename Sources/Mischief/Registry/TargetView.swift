/// A small text view a target publishes of its own state, for consoles to show beside the seams.
///
/// ```swift
/// registry.publish(TargetView(title: "Weather", lines: [.init("Tokyo 21°C"), .init("offline", role: "error")]))
/// ```
public struct TargetView: Hashable, Sendable, Codable {
    /// One line of the view.
    public struct Line: Hashable, Sendable, Codable {
        /// The line's text.
        public var text: String
        /// A console style role for the line (`title`, `muted`, `warning`, `error`, `accent`…), or nil for text.
        public var role: String?

        /// A line of `text`, styled as `role`.
        public init(_ text: String, role: String? = nil) {
            self.text = text
            self.role = role
        }
    }

    /// The view's title, shown on its pane's border.
    public var title: String
    /// The lines, top first.
    public var lines: [Line]

    /// A view titled `title` showing `lines`.
    public init(title: String = "", lines: [Line] = []) {
        self.title = title
        self.lines = lines
    }
}
