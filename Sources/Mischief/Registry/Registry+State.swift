extension Registry {
    /// Everything a registry guards with its one lock.
    struct State: @unchecked Sendable {
        // @unchecked: only ever touched inside the registry's lock. The non-Sendable parts are the
        // type-erased compiled runs, which are Sendable closures.
        /// This registry's mark on the boxes it installs in seam cores (see `SeamCore+Ownership.swift`).
        let owner: Int
        var records: [SeamID: SeamRecord] = [:]
        var order: [SeamID] = []
        var history: [EntryID: LayerSnapshot] = [:]
        var events: EventLog
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextSubscriber = 0
        var observers = 0
        var countsAlways = false
        var view = TargetView()
        var profiles: [String: Profile] = [:]
        var profileOrder: [String] = []
        /// The file access each profile was defined with, when it is not ``FileAccess/unrestricted``.
        var profileFileAccess: [String: FileAccess] = [:]
        var appliedProfiles: [String: Applied] = [:]
        var nextEntry = 1
        var nextGroup = 1
        /// How many reverted entries the history keeps.
        let revertedHistoryLimit = 200

        init(eventCapacity: Int, owner: Int) {
            events = EventLog(capacity: eventCapacity)
            self.owner = owner
        }

        var isCounting: Bool { observers > 0 || countsAlways }

        mutating func log(_ time: Duration, _ kind: Event.Kind, _ seam: SeamID?, _ source: String?, _ message: String) {
            let event = events.append(time: time, kind: kind, seam: seam, source: source, message: message)
            for continuation in subscribers.values { continuation.yield(event) }
        }

        mutating func updateCounting() {
            for record in records.values { record.seam.core.setCounting(isCounting) }
        }

        /// Builds and installs the box for the seam's current layers; the seam's core retires the previous
        /// box until its calls have returned.
        func reinstall(_ id: SeamID) {
            let record = records[id]!
            let box = record.layers.isEmpty ? nil : record.seam.makeBox(layers: record.layers.reversed().map(\.run))
            record.seam.core.install(box, entries: Set(record.layers.map(\.entry)), owner: owner)
        }

        /// Frees retired boxes whose calls have all returned, and marks their entries reverted.
        mutating func settle(time: Duration, quietFor quiet: Set<EntryID> = []) {
            var waiting: Set<EntryID> = []
            for id in order {
                let core = records[id]!.seam.core
                let state = core.reclaim(owner: owner)
                records[id]!.isRetiring = state.isRetiring
                waiting.formUnion(state.entries)
            }
            for (entry, snapshot) in history where snapshot.status == .reverting {
                guard !waiting.contains(entry) else { continue }
                history[entry] = snapshot.with(status: .reverted)
                if !quiet.contains(entry) {
                    log(time, .revertCompleted, snapshot.seam, snapshot.source,
                        "\(snapshot.behaviour): the last call inside it has returned")
                }
            }
            pruneHistory()
        }

        private mutating func pruneHistory() {
            let reverted = history.values.filter { $0.status == .reverted }
            guard reverted.count > revertedHistoryLimit else { return }
            for old in reverted.sorted(by: { $0.id < $1.id }).prefix(reverted.count - revertedHistoryLimit) {
                history[old.id] = nil
            }
        }
    }

    /// A registered seam and what is applied to it.
    struct SeamRecord {
        let seam: any RegisteredSeam
        /// Active changes, oldest first.
        var layers: [Layer] = []
        /// Whether replaced boxes were waiting for their calls at the last settle (the seam's core owns them).
        var isRetiring = false
        var lastCalls = 0
        var lastCalled: Duration?

        init(seam: any RegisteredSeam) { self.seam = seam }

        func snapshot(counters: SeamCounters, history: [EntryID: LayerSnapshot]) -> SeamSnapshot {
            let status: RevertStatus
            if !layers.isEmpty {
                status = .active
            } else if isRetiring {
                status = .reverting
            } else if history.values.contains(where: { $0.seam == seam.info.id }) {
                status = .reverted
            } else {
                status = .neverApplied
            }
            let behaviour: String?
            switch (layers.count, seam.info.stacking) {
            case (0, _): behaviour = nil
            case (_, .replace): behaviour = layers.last!.description
            case (_, .merge): behaviour = layers.reversed().map(\.description).joined(separator: " -> ")
            }
            let seeds = seam.info.stacking == .replace ? (layers.last?.seeds ?? []) : layers.flatMap(\.seeds)
            return SeamSnapshot(
                info: seam.info, counters: counters, behaviour: behaviour, spec: spec,
                layers: layers.compactMap { history[$0.entry] }, seeds: seeds, status: status, lastCalled: lastCalled)
        }

        /// The spec of what calls get now (the last layer's on a replacing seam, every layer's newest first joined
        /// with `->` on a merging one); nil when nothing is applied or a layer was built in code and has no spec.
        var spec: String? {
            guard !layers.isEmpty else { return nil }
            let current = seam.info.stacking == .replace ? [layers.last!] : layers.reversed()
            let specs = current.compactMap(\.spec)
            return specs.count == current.count ? specs.joined(separator: " -> ") : nil
        }
    }

    /// One applied change on a seam.
    struct Layer {
        let entry: EntryID
        /// The compiled behaviour (a SyncRun or AsyncRun of the seam's types).
        let run: any Sendable
        let description: String
        /// The canonical spec, when the change was made from one.
        let spec: String?
        let source: String
        let group: Int
        let appliedAt: Duration
        let seeds: [UInt64]

        func snapshot(seam: SeamID, status: RevertStatus, revertedAt: Duration? = nil) -> LayerSnapshot {
            LayerSnapshot(
                id: entry, seam: seam, behaviour: description, spec: spec, source: source, group: group,
                appliedAt: appliedAt,
                revertedAt: revertedAt, status: status, seeds: seeds)
        }
    }

    /// A replaced box, kept alive until every call that could be using it has returned.
    struct Retired {
        let box: AnyObject
        let phase: Int
        let entries: Set<EntryID>
    }
}

extension LayerSnapshot {
    func with(status: RevertStatus) -> LayerSnapshot {
        LayerSnapshot(
            id: id, seam: seam, behaviour: behaviour, spec: spec, source: source, group: group, appliedAt: appliedAt,
            revertedAt: revertedAt, status: status, seeds: seeds)
    }
}
