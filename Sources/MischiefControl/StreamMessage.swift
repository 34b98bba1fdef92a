import Mischief

/// One message of the events stream.
public enum StreamMessage: Sendable, Equatable {
    /// The first message: the target the stream is from, and the session it holds open.
    case hello(StreamHello)
    /// Something that happened in the target (a layer applied or reverted, a guard tripped), as the event log has it.
    case event(Event)
    /// The seams whose counters moved since the previous `counters` message, so a client's rates keep up.
    case counters([SeamUpdate])
    /// A delta: what changed since the previous one (a `changes` message, on streams opened with `changes: true`).
    case delta(StreamDelta)
    /// A message this client does not know (a newer target); its name and data.
    case other(String, String)
}
