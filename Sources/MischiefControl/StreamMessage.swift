import Mischief

/// One message of the events stream.
public enum StreamMessage: Sendable, Equatable {
    case hello(StreamHello)
    case event(Event)
    case counters([SeamUpdate])
    /// What changed since the previous `changes` message (streams opened with `changes: true`).
    case changes(StreamDelta)
    /// A message this client does not know (a newer target); its name and data.
    case other(String, String)
}
