/// A theme as lines of text: one per role, the role's name drawn in its look, then what the look is.
///
/// ```
/// title       #ffd75f bold
/// selection   #000000 on #87afd7
/// ```
/// Without a depth the lines are plain text (no escape sequences), for pipes and `NO_COLOR`.
public enum ThemePreview: Sendable {
    /// The width role names are padded to (the longest, `background`).
    static let nameWidth = StyleRole.allCases.map(\.rawValue.count).max()!

    /// One line per role, in ``StyleRole`` order, each starting with `indent`.
    ///
    /// - Parameter depth: draw role names with ANSI escapes at this depth; nil for plain text.
    public static func lines(for theme: Theme, depth: ColourDepth?, indent: String = "  ") -> [String] {
        StyleRole.allCases.map { role in
            let entry = theme.palette[role]
            let name = role.rawValue.padding(toLength: nameWidth)
            let shown = depth.map { ANSIStyle.styled(name, entry, depth: $0) } ?? name
            return indent + shown + "  " + summary(of: entry)
        }
    }

    /// How an entry is defined, in theme-file words: `#ffd75f bold`, `#000000 on #87afd7`, `default reverse`.
    public static func summary(of entry: Palette.Entry) -> String {
        var words = [entry.foreground.themeText]
        if entry.background != .default { words += ["on", entry.background.themeText] }
        if entry.bold { words.append("bold") }
        if entry.dim { words.append("dim") }
        if entry.reverse { words.append("reverse") }
        return words.joined(separator: " ")
    }
}

extension String {
    /// The string with spaces added up to `length` characters (unchanged when already as long).
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
