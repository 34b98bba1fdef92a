/// The semantic role of a cell; a ``Palette`` decides how each role looks.
public enum StyleRole: String, CaseIterable, Hashable, Sendable {
    case background, text, muted, border, title, selection, active, reverted, reverting, warning, error, accent

    /// The single character naming this role in ``CellGrid/roles`` snapshots.
    ///
    /// | role | char | role | char | role | char |
    /// |------|------|------|------|------|------|
    /// | background | `.` | selection | `s` | warning | `w` |
    /// | text | `t` | active | `a` | error | `e` |
    /// | muted | `m` | reverted | `r` | accent | `A` |
    /// | border | `b` | reverting | `R` | | |
    /// | title | `T` | | | | |
    ///
    /// Mostly the first letter; background is `.` so empty areas read as blank, and the second role of a
    /// clashing pair (title/text, reverting/reverted, accent/active) is upper-case.
    public var snapshotCharacter: Character {
        switch self {
        case .background: "."
        case .text: "t"
        case .muted: "m"
        case .border: "b"
        case .title: "T"
        case .selection: "s"
        case .active: "a"
        case .reverted: "r"
        case .reverting: "R"
        case .warning: "w"
        case .error: "e"
        case .accent: "A"
        }
    }
}
