extension Registry {
    /// The readers of ``Registry/eventStream(bufferingNewest:)``, and the events held back from them while a change
    /// is half made. A part of ``Registry/State``, under the registry's one lock.
    struct EventSubscribers {
        private var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
        private var lastKey = 0
        /// Events logged while a change is half made, delivered once it is whole; nil when events go out as they
        /// are logged.
        private var held: [Event]?

        /// Adds a reader; returns the key that removes it.
        mutating func add(_ continuation: AsyncStream<Event>.Continuation) -> Int {
            lastKey += 1
            continuations[lastKey] = continuation
            return lastKey
        }

        /// Removes the reader with `key`.
        mutating func remove(_ key: Int) {
            continuations[key] = nil
        }

        /// Ends every reader's stream.
        func finishAll() {
            for continuation in continuations.values { continuation.finish() }
        }

        /// Sends `event` to every reader, or holds it while events are held.
        mutating func deliver(_ event: Event) {
            if held != nil {
                held!.append(event)
            } else {
                for continuation in continuations.values { continuation.yield(event) }
            }
        }

        /// Holds the events delivered from now on; returns what was held before, for ``release(restoring:)``.
        mutating func hold() -> [Event]? {
            defer { held = [] }
            return held
        }

        /// Delivers, in order, the events held since ``hold()``, which returned `outer`.
        mutating func release(restoring outer: [Event]?) {
            let events = held ?? []
            held = outer
            for event in events { deliver(event) }
        }
    }
}
