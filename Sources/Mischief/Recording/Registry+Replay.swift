#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Registry {
    /// The environment variable that replays a recording on the process-wide registry from its start
    /// (`MISCHIEF_REPLAY=session.jsonl`).
    public static let replayVariable = "MISCHIEF_REPLAY"

    /// Makes a recorded session again: resets the counters, then applies and reverts each recorded layer at the
    /// same call number of its seam, with the same spec, seed, source and time to live, and advances time where the
    /// recording did. Returns once the last step is made, leaving the final state applied.
    ///
    /// ## How calls are matched
    /// The replay runs in the target, so it is exact: the seam's call that reaches a step's number makes the change
    /// from inside the call, before its own behaviour runs, and the next call finds it (see ``ReplaySchedule``).
    /// Call numbers are per seam and count calls in the order they enter it. With several threads calling one seam
    /// that order is not reproducible: the change still lands after the Nth call to enter, but which thread's call
    /// that is may differ from the recording, and a call that entered just before the change may finish with the
    /// old behaviour. A change before a seam's first call (`call: 0`) is made before its first call again when the
    /// recording saw the seam called; on a seam it never saw called, and an advance of time, at its time since the
    /// recording began, after every step before it.
    ///
    /// Every step is checked before anything is applied (the seam is registered, the spec applies to it): a
    /// recording that does not fit changes nothing. With ``ReplayOptions/waitsForSeams`` a step on a seam not yet
    /// registered is checked when it registers.
    ///
    /// ```swift
    /// let outcome = await registry.replay(try Recording(jsonLines: text))
    /// if let divergence = outcome.divergence { print(divergence) }  // diverged at step 4 of 9 …
    /// ```
    ///
    /// When the recording has decisions (``Recording/Decision``), the seams they are on are tapped and, once each
    /// has made the calls they cover, its calls' decisions are compared with them: between two of the seam's steps,
    /// in call order or as the same multiset (several threads on one seam), `live` values by outcome only.
    ///
    /// - Returns: How far it matched: every step and decision, or the first divergence (a seam that is missing, a
    ///   spec that no longer applies, a seed that does not reproduce, a decision that differs, calls that never came
    ///   within the timeout), with both values.
    public func replay(_ recording: Recording, options: ReplayOptions = ReplayOptions()) async -> ReplayOutcome {
        let schedule: ReplaySchedule
        do throws(RecordingError) {
            schedule = try ReplaySchedule(recording)
        } catch {
            return ReplayOutcome(
                steps: recording.entries.count, replayed: 0,
                divergence: ReplayDivergence(
                    step: 0, steps: recording.entries.count, matched: 0, line: error.line, seam: nil,
                    recorded: "a step to replay", replayed: error.reason))
        }
        return await replay(schedule: schedule, options: options)
    }

    /// Replays a schedule; see ``replay(_:options:)``.
    public func replay(schedule: ReplaySchedule, options: ReplayOptions = ReplayOptions()) async -> ReplayOutcome {
        await startReplay(schedule, options: options).outcome()
    }

    /// Starts replaying `schedule` and returns at once, with every seam it waits on armed: calls made from now on
    /// count toward its steps. Await ``ReplayRun/outcome()`` for how it ended; see ``replay(_:options:)``.
    ///
    /// A test makes its calls between the two, so that no call races the start:
    /// ```swift
    /// let run = registry.startReplay(schedule)
    /// for value in 1...5 { _ = double(value) }
    /// #expect(await run.outcome().matched)
    /// ```
    public func startReplay(_ schedule: ReplaySchedule, options: ReplayOptions = ReplayOptions()) -> ReplayRun {
        let replayer = Replayer(schedule, options: options, registry: self)
        if let problem = replayer.validate() {
            replayer.finish(problem)
            return ReplayRun(replayer)
        }
        // One replay a seam at a time: a second would take over the first's trigger and count its calls.
        let busy = replays.withLock { running -> SeamID? in
            let taken = running.filter { !$0.isFinished }.reduce(into: Set<SeamID>()) { $0.formUnion($1.seams) }
            if let seam = replayer.seams.intersection(taken).min() { return seam }
            running.append(replayer)
            return nil
        }
        if let busy {
            replayer.finish(
                ReplayDivergence(
                    step: 0, steps: replayer.count, matched: 0, line: 0, seam: busy,
                    recorded: "a replay of its own on \(busy)",
                    replayed:
                        "another replay is running on \(busy); wait for it to end (or cancel it) and replay again",
                    refused: true))
            return ReplayRun(replayer)
        }
        report(
            seam: nil, message: "replaying \(schedule.steps.count) step\(schedule.steps.count == 1 ? "" : "s")",
            kind: .report, source: "replay")
        replayer.start()
        if schedule.steps.isEmpty && schedule.decisions.isEmpty { replayer.finish(nil) }
        Task.detached { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await replayer.runTimedSteps() }
                group.addTask {
                    do {
                        try await Task.sleep(for: options.timeout ?? schedule.derivedTimeout)
                        replayer.timedOut()
                    } catch {}
                }
                await replayer.waitUntilDone(before: schedule.steps.count + 1)
                if let divergence = await replayer.compareDecisions() { replayer.finish(divergence) }
                replayer.finish(nil)  // only if it had not finished: disarms every seam
                replayer.stopComparingDecisions()
                group.cancelAll()
            }
            guard let self else { return }
            self.replays.withLock { $0.removeAll { $0 === replayer } }
            let outcome = replayer.outcome
            self.report(
                seam: nil, message: outcome.description, kind: outcome.matched ? .report : .problem, source: "replay")
        }
        return ReplayRun(replayer)
    }

    /// The change a step applies, built as the recorded target built it (its session seed).
    func replayChange(_ step: ReplayStep, sessionSeed recorded: UInt64, fileAccess: FileAccess)
        throws(MischiefError) -> Change
    {
        guard let seam = step.seam, let target = registered(seam) else { throw .unknownSeam(step.seam ?? "?") }
        do throws(SpecError) {
            let parsed = try Spec(parsing: step.spec ?? "")
            let (behaviour, canonical) = try target.behaviour(
                from: parsed, seed: step.seed, sessionSeed: recorded, fileAccess: fileAccess)
            return Change(seam: target, behaviour: behaviour, description: canonical, spec: canonical, seed: step.seed)
        } catch {
            throw .invalidSpec(seam, error)
        }
    }

    /// Applies a replayed change as a spec from `source` is applied (replacing that source's layer), with the
    /// recorded session seed; returns its layer and the seeds it drew.
    func applyReplayed(_ change: Change, source: String, ttl: Duration?, sessionSeed recorded: UInt64)
        throws(MischiefError) -> (LayerID, [UInt64])
    {
        try Self.check(ttl: ttl)
        let time = now
        let (applied, touched, seeds) = try state.withLock { (state) throws(MischiefError) in
            let (applied, touched) = try state.apply(
                [change], source: source, time: time, sessionSeed: recorded, reporter: reporter,
                replacingSource: true, ttls: [ttl])
            return (applied, touched, applied.layers.first.flatMap { state.history[$0]?.seeds } ?? [])
        }
        for core in touched { core.notifyChanged() }
        if ttl != nil { expiry?.wake() }
        return (applied.layers[0], seeds)
    }

    func isRegistered(_ seam: SeamID) -> Bool {
        state.withLock { $0.records[seam] != nil }
    }

    /// Wraps `seam`'s box so that each call enters `trigger` first (installing one where nothing is applied).
    func arm(_ seam: SeamID, with trigger: ReplayTrigger, from start: Int) {
        state.withLock { state in
            guard state.records[seam] != nil, state.replayTriggers[seam] !== trigger else { return }
            trigger.begin(at: start)
            state.replayTriggers[seam] = trigger
            state.reinstall(seam)
            state.updateTaps()  // calls are numbered now, on every seam
        }
    }

    /// Takes `seam`'s trigger away: its calls take their usual path again.
    func disarm(_ seam: SeamID) {
        state.withLock { state in
            guard state.replayTriggers.removeValue(forKey: seam) != nil, state.records[seam] != nil else { return }
            state.reinstall(seam)
            state.updateTaps()  // the last replay or recording gone: calls are no longer numbered
        }
    }

    /// Tells the replays running that `ids` registered.
    func replaysRegistered(_ ids: [SeamID]) {
        for replayer in replays.withLock({ $0 }) { replayer.registered(ids) }
    }

    /// Replays `$MISCHIEF_REPLAY` on this registry, when set, from now: steps wait for their seams to register.
    /// The outcome (or a file that cannot be read) goes to standard error and the event log.
    func replayFromEnvironment() {
        guard let path = Environment.value(Registry.replayVariable), !path.isEmpty else { return }
        let recording: Recording
        do throws(RecordingFileError) {
            recording = try Recording(file: path, limit: Recording.largestFileInTarget)
        } catch {
            let reason = error.description
            Registry.writeToStandardError("mischief: \(reason); not replaying")
            report(seam: nil, message: "\(reason); not replaying", kind: .problem, source: Registry.replayVariable)
            return
        }
        Registry.writeToStandardError("mischief: replaying \(path) (\(Registry.replayVariable))")
        Task.detached { [weak self] in
            guard let self else { return }
            let outcome = await self.replay(recording, options: ReplayOptions(waitsForSeams: true))
            Registry.writeToStandardError("mischief: \(Registry.replayVariable): \(outcome)")
        }
    }
}
