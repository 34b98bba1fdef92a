/// Gathers printable characters read together into one ``Key/typed(_:)``, keeping every other key, and the order.
///
/// A terminal without bracketed paste delivers a paste as keys, thousands in one read; the console drew a frame
/// for each, and a 5,000-character paste took half a minute. Keys read in one go are gathered: a run of two or more
/// characters is one `.typed` (which means what its characters typed one by one mean), a single one stays a
/// ``Key/character(_:)``.
/// ```swift
/// var run = TypedRun()
/// var keys: [Key] = []
/// for key in [Key.character("a"), .character("b"), .enter] { run.add(key) { keys.append($0) } }
/// run.flush { keys.append($0) }  // [.typed("ab"), .enter]
/// ```
public struct TypedRun: Sendable {
    private var text = ""
    private var count = 0

    /// An empty run.
    public init() {}

    /// Adds a key read: a character joins the run; any other key ends it (emitting it first), then is emitted.
    public mutating func add(_ key: Key, emit: (Key) -> Void) {
        if case .character(let character) = key {
            text.append(character)
            count += 1
            return
        }
        flush(emit: emit)
        emit(key)
    }

    /// Emits the run gathered so far, if any.
    public mutating func flush(emit: (Key) -> Void) {
        switch count {
        case 0: return
        case 1: emit(.character(text.first!))
        default: emit(.typed(text))
        }
        text = ""
        count = 0
    }
}
