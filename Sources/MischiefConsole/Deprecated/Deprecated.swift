import Mischief

// The names issue 46 retired, kept for one release so code written against them still builds, with a warning that
// names the new one: a *delta* is what changed since a generation (never *changes*), and what a console applied is
// its *layers* (never its *changes*).

extension ConsoleUpdate {
    /// A delta.
    @available(*, deprecated, renamed: "delta")
    public static func changes(_ delta: StreamDelta) -> ConsoleUpdate { .delta(delta) }
}

extension ConsoleState {
    /// After the target restarted: what this console had applied and switched on, to apply again with `a`.
    @available(*, deprecated, renamed: "lostLayers")
    public var lostChanges: [ConsoleCommand] { lostLayers }

    /// Whether this console applied or reverted layers since its recording was last written.
    @available(*, deprecated, renamed: "hasUnsavedLayers")
    public var hasUnsavedChanges: Bool { hasUnsavedLayers }
}
