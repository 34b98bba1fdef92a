/// What a replay of a ``Recording`` does, step by step: each applied or reverted layer and each advance of time,
/// with when it happens (after a seam's call number, or at a time since the recording began).
///
/// `mischief replay --dry-run` prints it (``description``); ``Registry/replay(_:options:)`` runs it.
///
/// ## When a step happens
/// A change recorded with `call: N` (N > 0) is made after the seam's Nth call and before its N+1th: exactly, on
/// one thread. A change on a seam that had not been called yet (`call: 0`), and an advance of time (no seam), is
/// made at its time since the recording began (`at +T s`), and after every step recorded before it. A seam's
/// steps always happen in their recorded order.
public struct ReplaySchedule: Sendable, Equatable, CustomStringConvertible {
    /// The steps, in recorded order.
    public var steps: [ReplayStep]
    /// The session seed of the recorded target, which random behaviours without a seed of their own derive from.
    public var sessionSeed: UInt64
    /// The recorded decisions the replay's calls are compared with (none when the recording has none).
    public var decisions: [Recording.Decision]
    /// The line of each of ``decisions`` in the recording.
    public var decisionLines: [Int]

    /// The schedule of `recording`: its `applied` and `reverted` events, and its advances of time; other events
    /// (reports, refusals, guards' trips) are not replayed; the layers active when it began (its header's `active`)
    /// come first; and a revert of a layer applied before the recording began and not in its header is left out
    /// (the replay never applied it).
    ///
    /// - Throws: ``RecordingError`` at the line of an event a replay cannot make: an applied layer without a spec
    ///   (built in code), or an event without its seam.
    public init(_ recording: Recording) throws(RecordingError) {
        sessionSeed = recording.header.sessionSeed
        steps = []
        decisions = []
        decisionLines = []
        // A recording built in code is checked as one read from a file is: no number out of range reaches a step.
        if let problem = recording.header.rangeProblem { throw RecordingError(line: 1, reason: problem) }
        var entryLines = Array(repeating: 0, count: recording.entries.count)
        for (offset, item) in recording.merged.enumerated() {
            switch item {
            case .entry(let index):
                entryLines[index] = offset + 2
                if let problem = recording.entries[index].rangeProblem {
                    throw RecordingError(line: offset + 2, reason: problem)
                }
            case .decision(let index):
                if let problem = recording.decisions[index].rangeProblem {
                    throw RecordingError(line: offset + 2, reason: problem)
                }
                decisions.append(recording.decisions[index])
                decisionLines.append(offset + 2)
            }
        }
        // Seams the recording saw called: a change made before their first call is made before it again (after
        // call 0), not at its time, which their first calls might beat.
        let called = Set(recording.entries.filter { ($0.call ?? 0) > 0 }.compactMap(\.seam))
            .union(recording.decisions.map(\.seam))
        var layers: Set<Int> = []
        // The layers active when the recording began come first, from the header (line 1).
        let active = (recording.header.active ?? []).map { (line: 1, entry: $0) }
        for (line, entry) in active
            + recording.entries.enumerated().map({ (line: entryLines[$0.offset], entry: $0.element) })
        {
            let at = max(0, entry.wall - recording.header.started)
            let after = entry.call.flatMap { call in
                call > 0 || entry.seam.map(called.contains) == true ? call : nil
            }
            var step = ReplayStep(number: steps.count + 1, line: line, action: .apply, seam: entry.seam, at: at)
            switch entry.kind {
            case .applied:
                guard let seam = entry.seam else {
                    throw RecordingError(line: line, reason: "an applied event without its seam")
                }
                guard let spec = entry.spec else {
                    throw RecordingError(
                        line: line,
                        reason: "the layer applied to \(seam) was built in code, not from a spec: it cannot be replayed"
                    )
                }
                step.afterCall = after
                step.spec = spec
                step.seed = entry.seed
                step.seeds = entry.seeds
                step.ttl = entry.ttl
                step.source = entry.source
                step.layer = entry.layer
                if let layer = entry.layer { layers.insert(layer) }
            case .reverted:
                guard let seam = entry.seam, let layer = entry.layer else {
                    throw RecordingError(line: line, reason: "a reverted event without its seam or layer")
                }
                guard layers.contains(layer) else { continue }  // applied before the recording began
                _ = seam
                step.action = .revert
                step.afterCall = after
                step.source = entry.source
                step.layer = layer
            case .report where entry.seam != nil && entry.ttl != nil:
                step.action = .setTTL
                step.afterCall = after
                step.ttl = entry.ttl
                step.source = entry.source
            case .report:
                guard let advanced = entry.advanced else { continue }
                guard advanced > 0, advanced.isFinite else {
                    throw RecordingError(line: line, reason: "time advanced by \(advanced) s: not a positive duration")
                }
                step.action = .advance
                step.seam = nil
                step.advanced = advanced
            default:
                continue
            }
            steps.append(step)
        }
    }

    /// The latest recorded time of a step, in seconds since the recording began (0 without steps).
    public var lastRecordedTime: Double {
        steps.map(\.at).filter(\.isFinite).max() ?? 0
    }

    /// How long a replay waits by default (``ReplayOptions/timeout`` nil): the recording's own pace with a margin,
    /// the last step's recorded time × 1.5 plus 30 s, at least a minute and at most a day. A session whose first
    /// change came 76 s into its run is waited for 144 s, where a fixed minute diverged.
    public var derivedTimeout: Duration {
        let seconds = min(86_400, max(60, (lastRecordedTime * 1.5 + 30).rounded(.up)))
        return .seconds(Int64(seconds))
    }

    /// One line a step: `3. test.double after call 5: revert layer 2 [console]`. Controls and line breaks from the
    /// recording (a spec, a source) are escaped, so printing it moves no cursor.
    public var description: String {
        var lines = steps.map { $0.description(of: steps.count) }
        if !decisions.isEmpty {
            let seams = Set(decisions.map(\.seam)).sorted()
            lines.append(
                "then compare \(decisions.count) recorded decision\(decisions.count == 1 ? "" : "s") on "
                    + seams.map(\.description).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}

/// One step of a ``ReplaySchedule``.
public struct ReplayStep: Codable, Sendable, Equatable {
    /// What a step does.
    public enum Action: String, Codable, Sendable {
        /// Applies ``ReplayStep/spec`` to the seam.
        case apply
        /// Reverts the layer the step that applied ``ReplayStep/layer`` made.
        case revert
        /// Moves the target's virtual time forward by ``ReplayStep/advanced`` seconds.
        case advance
        /// Sets the time to live of the seam's layers to ``ReplayStep/ttl`` seconds (0: none).
        case setTTL
    }

    /// Its place in the schedule, from 1.
    public var number: Int
    /// Its line in the recording.
    public var line: Int
    /// What it does.
    public var action: Action
    /// The seam it changes (nil for an advance of time).
    public var seam: SeamID?
    /// Made after this call of the seam (0: before its first call); nil: at ``at``, for a seam the recording never
    /// saw called.
    public var afterCall: Int?
    /// When it was made, in seconds since the recording began: when it is made again if ``afterCall`` is nil.
    public var at: Double
    /// The spec an apply applies.
    public var spec: String?
    /// The seed the apply was given; nil when derived from the session seed.
    public var seed: UInt64?
    /// The seeds the applied layer's random parts used, which the replay must draw again.
    public var seeds: [UInt64]?
    /// The applied layer's time to live, in seconds.
    public var ttl: Double?
    /// Who made the change; the replayed layer has the same source.
    public var source: String?
    /// The recorded layer an apply made or a revert reverts.
    public var layer: Int?
    /// How far time was advanced, in seconds.
    public var advanced: Double?

    /// A step; the optional parts are set by ``ReplaySchedule/init(_:)``.
    public init(number: Int, line: Int, action: Action, seam: SeamID?, afterCall: Int? = nil, at: Double) {
        self.number = number
        self.line = line
        self.action = action
        self.seam = seam
        self.afterCall = afterCall
        self.at = at
    }

    /// When, in words: `after call 412`, `before call 1` or `at +1.25 s`.
    public var when: String {
        if let afterCall { return afterCall == 0 ? "before call 1" : "after call \(afterCall)" }
        return "at +\(ReplayStep.seconds(at)) s"
    }

    /// What, in words: `apply 30%return(7) (seed 42, ttl 30 s) [console]`.
    public var what: String {
        let by = source.map { " [\($0)]" } ?? ""
        switch action {
        case .apply:
            var notes = [seed.map { "seed \($0)" } ?? "seed from the session"]
            if let ttl { notes.append("ttl \(ReplayStep.seconds(ttl)) s") }
            return "apply \(spec ?? "?") (\(notes.joined(separator: ", ")))\(by)"
        case .revert: return "revert layer \(layer ?? 0)\(by)"
        case .advance: return "advance time by \(ReplayStep.seconds(advanced ?? 0)) s"
        case .setTTL:
            let ttl = ttl ?? 0
            return (ttl > 0 ? "set ttl \(ReplayStep.seconds(ttl)) s" : "take the ttl away") + by
        }
    }

    /// `3 of 9. test.double after call 5: revert layer 2 [console]`, on one line: controls and line breaks from the
    /// recording are escaped.
    public func description(of count: Int) -> String {
        Registry.printableLine("\(number) of \(count). \(seam.map { "\($0) " } ?? "")\(when): \(what)")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15
            ? String(Int(value)) : String((value * 100).rounded() / 100)
    }
}
