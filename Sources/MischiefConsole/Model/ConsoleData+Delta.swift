import Mischief

extension ConsoleData {
    /// The data a delta since 0 (everything: a controller's first, or the first from a new connection) describes.
    public init(everything delta: StreamDelta, eventLimit: Int) {
        self.init(target: delta.target)
        apply(delta, eventLimit: eventLimit)
    }

    /// Applies a delta (see ``StreamDelta``) when it follows this data's ``generation``; returns whether it did. A
    /// delta older than the data, or one that starts after it (which would leave a gap), changes nothing.
    ///
    /// The header as sent; the seams listed replaced or added in place (keeping their actions when the delta leaves
    /// them out); those removed dropped; the profiles, the guards and the view when sent; the events not seen yet
    /// appended, keeping the newest `eventLimit`.
    @discardableResult
    public mutating func applying(_ delta: StreamDelta, eventLimit: Int) -> Bool {
        guard delta.follows(generation) || (generation == 0 && delta.changes.since == 0) else { return false }
        apply(delta, eventLimit: eventLimit)
        return true
    }

    private mutating func apply(_ delta: StreamDelta, eventLimit: Int) {
        let changes = delta.changes
        target = delta.target
        generation = changes.generation
        connection = .connected
        // Actions are only in a delta since 0; a later one lists the seams without them.
        var actions: [SeamID: [ActionSignature]] = [:]
        for seam in seams where !seam.actions.isEmpty { actions[seam.id] = seam.actions }
        if changes.since == 0 {
            seams = []
        } else if !changes.removed.isEmpty {
            let removed = Set(changes.removed)
            seams.removeAll { removed.contains($0.id) }
        }
        var index: [SeamID: Int] = [:]
        for (offset, seam) in seams.enumerated() { index[seam.id] = offset }
        for var seam in changes.seams {
            if seam.actions.isEmpty, let known = actions[seam.id] { seam.actions = known }
            if let offset = index[seam.id] {
                seams[offset] = seam
            } else {
                index[seam.id] = seams.count
                seams.append(seam)
            }
        }
        if let profiles = changes.profiles { self.profiles = profiles }
        if let guards = changes.guards { self.guards = guards }
        if let view = changes.view { self.view = view }
        let newest = events.last?.id ?? 0
        let fresh = changes.events.filter { $0.id > newest }
        if !fresh.isEmpty { events = Array((events + fresh).suffix(eventLimit)) }
    }
}
