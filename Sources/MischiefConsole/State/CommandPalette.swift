import Mischief

/// The command palette (`:`): a line that fuzzy-finds every command, seam, action, profile, theme and key, or runs
/// a whole command line (``ConsoleLine``) such as `apply clock.now shift(+3h) ttl 10m`.
public struct CommandPalette: Sendable, Equatable {
    /// What is typed.
    public internal(set) var field = TextField()
    /// The highlighted match, an index into the matches of ``field``.
    public internal(set) var selected = 0
    /// Why the last Enter did nothing (a line that is not a command); cleared by typing.
    public internal(set) var error: String?

    /// A palette holding `field`, the first match highlighted.
    public init(field: TextField = TextField()) {
        self.field = field
    }
}

/// One thing the palette finds: what it is, the key that does it on the main screen, and what Enter does.
struct PaletteItem: Sendable, Equatable {
    /// What kind of thing it is, shown at the end of its row.
    enum Kind: String, Sendable {
        case command, key, seam, action, profile, theme
    }

    /// What Enter on the item does.
    enum Run: Sendable, Equatable {
        /// Puts this text in the palette, to finish typing a command (`apply `).
        case complete(String)
        /// Does what a key of the main screen does.
        case browse(BrowseCommand)
        /// Runs a command line.
        case line(ConsoleLine)
        /// Selects the seam and opens its action picker at this action (an index), editing its spec when
        /// `edit` is true.
        case pick(SeamID, action: Int?, edit: Bool)
    }

    /// What kind of thing it is.
    var kind: Kind
    /// The row's text, which the query matches.
    var title: String
    /// The key that does it on the main screen, or an empty text.
    var key: String
    /// What Enter does.
    var run: Run
}
