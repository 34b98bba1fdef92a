/// How a replay ended: every step made again, or the first place it diverged from the recording.
public struct ReplayOutcome: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The steps in the schedule.
    public var steps: Int
    /// The steps made before the replay ended (all of them when it matched).
    public var replayed: Int
    /// The first divergence, if any: the replay stopped there.
    public var divergence: ReplayDivergence?
    /// The recorded decisions compared with the replay's calls, all matching (nil: the recording has none, or it
    /// diverged).
    public var decisions: Int?

    /// An outcome.
    public init(steps: Int, replayed: Int, divergence: ReplayDivergence? = nil, decisions: Int? = nil) {
        self.steps = steps
        self.replayed = replayed
        self.divergence = divergence
        self.decisions = decisions
    }

    /// Whether every step was made again as recorded, and every recorded decision.
    public var matched: Bool { divergence == nil }

    /// `replayed 9 of 9 steps and 120 decisions: all matched`, or the divergence.
    public var description: String {
        let and = decisions.map { " and \($0) decision\($0 == 1 ? "" : "s")" } ?? ""
        return divergence?.description
            ?? "replayed \(replayed) of \(steps) step\(steps == 1 ? "" : "s")\(and): all matched"
    }
}

/// Where a replay stopped matching its recording: the step, what was recorded, what happened instead.
public struct ReplayDivergence: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The step that diverged, from 1.
    public var step: Int
    /// The steps in the schedule.
    public var steps: Int
    /// The steps made before it: how far the replay matched.
    public var matched: Int
    /// The step's line in the recording.
    public var line: Int
    /// Its seam, if it has one.
    public var seam: SeamID?
    /// What the recording says (`return(7) after call 3`).
    public var recorded: String
    /// What the target did or has instead.
    public var replayed: String
    /// For a decision that differs (every step was made): how many recorded decisions matched before it.
    public var decisionsMatched: Int?
    /// True when the replay never started because another replay was running on the seam (``seam``): a refusal,
    /// not a difference from the recording. The control API answers it with 409.
    public var refused: Bool?

    /// A divergence.
    public init(
        step: Int, steps: Int, matched: Int, line: Int, seam: SeamID?, recorded: String, replayed: String,
        decisionsMatched: Int? = nil, refused: Bool? = nil
    ) {
        self.step = step
        self.steps = steps
        self.matched = matched
        self.line = line
        self.seam = seam
        self.recorded = recorded
        self.replayed = replayed
        self.decisionsMatched = decisionsMatched
        self.refused = refused
    }

    /// `diverged at step 4 of 9 (line 7, 3 matched): test.double: recorded …; here …` on one line, controls
    /// escaped, or for a decision
    /// `diverged at a decision (line 40, 9 of 9 steps and 31 decisions matched): …`.
    public var description: String {
        let what =
            decisionsMatched.map {
                "at a decision (line \(line), \(matched) of \(steps) steps and \($0) decisions matched)"
            }
            ?? "at step \(step) of \(steps) (line \(line), \(matched) matched)"
        // What the recording holds (a spec, a seam) reaches a terminal, a log: controls and line breaks escaped.
        return Registry.printableLine(
            "diverged \(what): \(seam.map { "\($0): " } ?? "")recorded \(recorded); here \(replayed)")
    }
}

/// How ``Registry/replay(_:options:)`` runs.
public struct ReplayOptions: Sendable {
    /// How long the replay may take before the step it waits for counts as diverged (the target never made the
    /// calls, or never registered the seam). Nil, the default: derived from the recording
    /// (``ReplaySchedule/derivedTimeout``), so a session recorded for minutes is waited for as long.
    public var timeout: Duration?
    /// Moves the target's virtual time forward (a control server's `advance`); true when it moved. Nil: a
    /// recording that advanced time diverges there.
    public var advance: (@Sendable (Duration) async -> Bool)?
    /// Which files the specs may read (`respond(file:)`); confine a recording from outside.
    public var fileAccess: FileAccess = .unrestricted
    /// Whether steps on seams not registered yet wait for them to register (`MISCHIEF_REPLAY` at a target's
    /// start) instead of diverging at once.
    public var waitsForSeams = false
    /// Whether the counters of every seam are reset first, so that they count as the recording did.
    public var resetsCounters = true

    /// Options with the defaults.
    public init(
        timeout: Duration? = nil, advance: (@Sendable (Duration) async -> Bool)? = nil,
        fileAccess: FileAccess = .unrestricted, waitsForSeams: Bool = false
    ) {
        self.timeout = timeout
        self.advance = advance
        self.fileAccess = fileAccess
        self.waitsForSeams = waitsForSeams
    }
}

/// A replay under way (``Registry/startReplay(_:options:)``).
public final class ReplayRun: Sendable {
    let replayer: Replayer

    init(_ replayer: Replayer) {
        self.replayer = replayer
    }

    /// The schedule it runs.
    public var schedule: ReplaySchedule { replayer.schedule }

    /// Waits until the last step is made and the recorded decisions are compared, or the replay diverges or times
    /// out, and says how it ended.
    public func outcome() async -> ReplayOutcome {
        await replayer.waitUntilFinished()
        return replayer.outcome
    }

    /// Ends the replay where it is: the steps not made yet are not made (what was applied stays).
    public func cancel() {
        replayer.finish(
            ReplayDivergence(
                step: 0, steps: replayer.count, matched: replayer.outcome.replayed, line: 0, seam: nil,
                recorded: "the rest of the recording", replayed: "the replay was cancelled"))
    }
}
