import Mischief

/// Who owns which change: the bookkeeping of sessions, as a plain value so leases are tested with any clock.
///
/// A change made without a session is lasting. A change made with one belongs to it until the session ends;
/// then the server reverts what it still owns. Guards are owned the same way: one added in a session is removed
/// when the session ends, so a console that went away leaves no guard to trip on someone else's changes. A session
/// lives while an events stream holds it open, or until its lease lapses without a renewal.
struct SessionTable: Sendable {
    struct Session: Sendable {
        let id: String
        let name: String
        let lease: Duration
        let keep: Bool
        /// When the lease lapses, on the server's lease clock (its monotonic clock less the time it was paused).
        var expires: Duration
        var streams = 0
        var layers: Set<LayerID> = []
        var profiles: Set<String> = []
        /// The ids of the guards it added.
        var guards: Set<Int> = []

        var info: SessionInfo {
            SessionInfo(
                id: id, name: name, lease: lease.seconds,
                keep: keep, streams: streams, changes: layers.count + profiles.count)
        }
    }

    /// What an ended session leaves to revert.
    struct Ended: Sendable {
        let session: Session
        let reason: String
    }

    private(set) var sessions: [String: Session] = [:]
    private var nextID = 1

    mutating func open(name: String?, lease: Duration, keep: Bool, now: Duration) -> Session {
        let id = "s\(nextID)"
        nextID += 1
        let session = Session(
            id: id, name: name.map { "\($0) (\(id))" } ?? "session \(id)", lease: lease, keep: keep,
            expires: now + lease)
        sessions[id] = session
        return session
    }

    subscript(id: String) -> Session? { sessions[id] }

    mutating func renew(_ id: String, now: Duration) -> Session? {
        guard var session = sessions[id] else { return nil }
        session.expires = now + session.lease
        sessions[id] = session
        return session
    }

    mutating func attachStream(_ id: String) -> Bool {
        guard sessions[id] != nil else { return false }
        sessions[id]!.streams += 1
        return true
    }

    /// A stream closed; when it was the last, the session ends.
    mutating func detachStream(_ id: String) -> Ended? {
        guard var session = sessions[id] else { return nil }
        session.streams -= 1
        sessions[id] = session
        guard session.streams <= 0 else { return nil }
        return end(id, reason: "its events stream closed")
    }

    /// A stream closed because the process was paused, not because its client went: when it was the last, the
    /// session lives on its lease from `now`. Returns the session when it is left without a stream.
    mutating func loseStream(_ id: String, now: Duration) -> Session? {
        guard var session = sessions[id] else { return nil }
        session.streams -= 1
        if session.streams <= 0 { session.expires = now + session.lease }
        sessions[id] = session
        return session.streams <= 0 ? session : nil
    }

    mutating func end(_ id: String, reason: String) -> Ended? {
        guard let session = sessions.removeValue(forKey: id) else { return nil }
        return Ended(session: session, reason: reason)
    }

    /// Ends every session (the server stops), so streams that close afterwards find nothing to revert.
    mutating func endAll(reason: String) -> [Ended] {
        sessions.keys.sorted().compactMap { end($0, reason: reason) }
    }

    /// Ends every session without an open stream whose lease has lapsed by `now`.
    mutating func expire(now: Duration) -> [Ended] {
        let lapsed = sessions.values.filter { $0.streams <= 0 && $0.expires <= now }.map(\.id).sorted()
        return lapsed.compactMap { end($0, reason: "its lease lapsed") }
    }

    /// Records that `session` (nil: nobody, a lasting change) applied `layers`.
    mutating func own(_ layers: [LayerID], by session: String?) {
        guard let session, sessions[session]?.keep == false else { return }
        sessions[session]!.layers.formUnion(layers)
    }

    /// Records who switched a profile on; the latest switch owns it.
    mutating func own(profile: String, by session: String?) {
        disown(profile: profile)
        guard let session, sessions[session]?.keep == false else { return }
        sessions[session]!.profiles.insert(profile)
    }

    /// A profile was switched off: nobody owns it.
    mutating func disown(profile: String) {
        for id in sessions.keys { sessions[id]!.profiles.remove(profile) }
    }

    /// Records that `session` (nil: nobody, a lasting guard) added guard `id`.
    mutating func own(guard id: Int, by session: String?) {
        guard let session, sessions[session]?.keep == false else { return }
        sessions[session]!.guards.insert(id)
    }

    /// A guard was removed: nobody owns it.
    mutating func disown(guard id: Int) {
        for session in sessions.keys { sessions[session]!.guards.remove(id) }
    }

    /// Everything was reverted: nobody owns any change (guards stay, and stay owned).
    mutating func disownAll() {
        for id in sessions.keys {
            sessions[id]!.layers.removeAll()
            sessions[id]!.profiles.removeAll()
        }
    }

    /// The session that owns a layer, if any: directly, or through the profile (`source` "profile NAME") it
    /// switched on.
    func owner(of layer: LayerID, source: String) -> String? {
        if let direct = sessions.values.first(where: { $0.layers.contains(layer) }) { return direct.id }
        guard source.hasPrefix("profile ") else { return nil }
        let profile = String(source.dropFirst("profile ".count))
        return sessions.values.first { $0.profiles.contains(profile) }?.id
    }
}
