import Mischief

/// The action picker of one seam: first choose an action, then edit its spec and apply it.
public struct ActionPicker: Sendable, Equatable {
    /// The seam the spec goes to.
    public var seam: SeamID
    /// The highlighted action, an index into the seam's actions.
    public internal(set) var choice: Int
    /// The spec being edited; nil while an action is being chosen.
    public internal(set) var field: TextField?
    /// The last refusal: the spec's own error text (message, spec, caret line).
    public internal(set) var error: String?
    /// The spec sent with ``ConsoleCommand/apply(seam:spec:)``, while waiting for its result.
    public internal(set) var applying: String?
    /// What the last Tab chose among, when it found several (shown under the field).
    public internal(set) var completions: [String] = []
    /// Which spec of the history ↑/↓ show (an index into the seam's history), or nil for the text being typed.
    public internal(set) var historyIndex: Int?
    /// The text being typed, kept while ↑/↓ show the history.
    public internal(set) var typed: String?
    /// Whether the highlighted action's whole description and examples are shown (`i` while choosing, F1 while
    /// typing).
    public internal(set) var describing = false

    /// A picker choosing among the seam's actions, starting at `choice`.
    public init(seam: SeamID, choice: Int = 0) {
        self.seam = seam
        self.choice = choice
    }

    /// Whether keys go to the spec text.
    public var isEditing: Bool { field != nil }
}
