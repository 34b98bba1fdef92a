import Mischief
import MischiefConsole
import MischiefControl

extension ConsoleData {
    /// Applies a `changes` message of the events stream (see ``StreamChanges``): the header as sent, the seams listed
    /// replaced or added in place (keeping their actions when the message leaves them out), those removed dropped,
    /// the profiles, the guards and the view when sent, and the events not seen yet appended, keeping the newest
    /// `eventLimit`.
    mutating func apply(_ message: StreamChanges, eventLimit: Int) {
        let changes = message.changes
        target = message.target
        // Actions are only in the stream's first message; a later one with everything (the server's feed starting
        // afresh) lists the seams without them.
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
