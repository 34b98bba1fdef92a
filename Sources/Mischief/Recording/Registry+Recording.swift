#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Registry {
    /// The environment variable that records the process-wide registry from its start to a file
    /// (`MISCHIEF_RECORD=session.jsonl`).
    public static let recordVariable = "MISCHIEF_RECORD"

    /// The environment variable that makes `MISCHIEF_RECORD` also record each chaos call's decision, up to that
    /// many (`MISCHIEF_RECORD_DECISIONS=100000`).
    public static let recordDecisionsVariable = "MISCHIEF_RECORD_DECISIONS"

    /// Starts recording every event to the file at `path` (created, or emptied; readable only by its owner), one
    /// line each as it happens (see ``Recording``): the recording survives the process being killed, up to its last
    /// whole line.
    ///
    /// - Parameters:
    ///   - path: the file to record to.
    ///   - target: the name the header gives the target; the executable's name when nil.
    ///   - decisions: the most chaos-call decisions to record (``Recording/Decision``), read from the calls every
    ///     100 ms and written then; 0 records none, and costs the calls nothing.
    /// - Throws: ``RecordingStartError`` when the file cannot be opened or written.
    @discardableResult
    public func startRecording(
        toFile path: String, target: String? = nil, decisions: Int = 0
    ) throws(RecordingStartError) -> Recorder {
        let recorder = try state.withLock { (state) throws(RecordingStartError) -> Recorder in
            let header = recordingHeader(state: state, target: target)
            var opened = header
            opened.decisions = decisions > 0 ? decisions : nil
            let descriptor = try Recorder.open(path, header: opened)
            return state.startRecording(
                Recorder(
                    sink: .file(descriptor, path: path, keeping: Recorder.fileEntriesKept), header: header,
                    registry: self, decisions: decisions))
        }
        if decisions > 0 { expiry?.wake() }
        return recorder
    }

    /// Starts recording every event in memory, up to `capacity` entries and `bytes` of them and their decisions
    /// (events after that are counted in ``Recording/Header/dropped``, not kept): what a control server keeps so that
    /// a console or `mischief record` can save the session at any time.
    ///
    /// - Parameters:
    ///   - capacity: the most entries kept.
    ///   - bytes: the most bytes of entries and decisions kept, as their text weighs: ``Recorder/memoryBudget``
    ///     (8 MiB) by default.
    ///   - target: the name the header gives the target; the executable's name when nil.
    ///   - decisions: the most chaos-call decisions kept (``Recording/Decision``); 0 keeps none, and costs the
    ///     calls nothing. Later ones are counted in ``Recording/Header/droppedDecisions``.
    @discardableResult
    public func startRecording(
        capacity: Int = 10_000, bytes: Int = Recorder.memoryBudget, target: String? = nil, decisions: Int = 0
    ) -> Recorder {
        let recorder = state.withLock { state in
            let header = recordingHeader(state: state, target: target)
            return state.startRecording(
                Recorder(
                    sink: .memory(capacity: max(0, capacity)), header: header, registry: self, decisions: decisions,
                    bytes: bytes))
        }
        if decisions > 0 { expiry?.wake() }
        return recorder
    }

    /// Logs that the time of the clock seams was moved forward by `duration` (a console's `]`, `POST
    /// /v1/target/advance`), so a recording can do it again.
    public func noteTimeAdvanced(by duration: Duration, source: String) {
        let time = now
        state.withLock { state in
            state.log(
                time, .report, nil, source, "time advanced by \(SpecDuration(duration))",
                detail: RecordingDetail(advanced: duration))
        }
    }

    func stopRecording(_ recorder: Recorder) {
        state.withLock { state in
            guard let index = state.recorders.firstIndex(where: { $0 === recorder }) else { return }
            state.drainDecisions()
            state.recorders.remove(at: index)
            recorder.close()
            state.observers -= 1
            state.updateCounting()
            state.updateTaps()
        }
    }

    /// The header of a recording starting now, with the layers active now.
    private func recordingHeader(state: State, target: String?) -> Recording.Header {
        let executable = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
        var header = Recording.Header(
            target: target ?? (executable.isEmpty ? "target" : executable), pid: Int(getpid()),
            sessionSeed: sessionSeed, started: RealClock.seconds(),
            seams: state.order.compactMap { id in
                state.records[id].map { record in
                    Recording.Header.Seam(
                        id: id, title: record.seam.info.title, actions: record.seam.actionSignatures.map(\.name))
                }
            })
        let active = state.order.flatMap { id in
            (state.records[id]?.layers ?? []).map { layer in
                Recording.Entry(
                    event: 0, kind: .applied, seam: id, source: layer.source,
                    message: Recording.redacted(layer.description), time: layer.appliedAt.seconds,
                    wall: header.started, call: 0, layer: layer.id.rawValue,
                    spec: layer.spec.map(Recording.redacted),
                    seed: layer.givenSeed, seeds: layer.seeds.isEmpty ? nil : layer.seeds, ttl: layer.ttl?.seconds)
            }
        }
        header.active = active.isEmpty ? nil : active
        return header
    }

    /// Starts recording the process-wide registry to `$MISCHIEF_RECORD`, when set; a file that cannot be opened is
    /// said on standard error and in the event log, and the program goes on.
    func recordFromEnvironment() {
        guard let path = Environment.value(Registry.recordVariable), !path.isEmpty else { return }
        let decisions = Environment.value(Registry.recordDecisionsVariable).flatMap { Int($0) } ?? 0
        if let text = Environment.value(Registry.recordDecisionsVariable), Int(text) == nil || decisions < 0 {
            Registry.writeToStandardError(
                "mischief: \(Registry.recordDecisionsVariable)=\(text) is not a count of decisions; not recording them")
        }
        do throws(RecordingStartError) {
            try startRecording(toFile: path, decisions: max(0, decisions))
            let what = decisions > 0 ? " with up to \(decisions) decisions" : ""
            Registry.writeToStandardError("mischief: recording to \(path)\(what) (\(Registry.recordVariable))")
        } catch {
            Registry.writeToStandardError("mischief: \(error); not recording")
            report(seam: nil, message: "\(error); not recording", kind: .problem, source: Registry.recordVariable)
        }
    }
}

extension Registry.State {
    /// Adds `recorder`, and counts calls while it records so its call numbers are exact.
    mutating func startRecording(_ recorder: Recorder) -> Recorder {
        recorders.append(recorder)
        observers += 1
        updateCounting()
        // Every seam's box is replaced here, so its numbers start exactly where the recording does.
        updateTaps(cuttingAll: true)
        let base = numberingBases
        recorder.state.withLock { $0.callBase = base }
        return recorder
    }

    /// Hands `event` to the recorders, with the seam's call number and `detail`: for a change (and a registration),
    /// the last call before it, exactly (the box was just replaced: its numbering's base); for anything else, the
    /// seam's last call so far.
    func record(_ event: Event, detail: RecordingDetail?) {
        let call = event.seam.flatMap { seam -> Int? in
            guard let numbering = numberings[seam] else { return nil }
            switch event.kind {
            case .applied, .reverted, .registered: return numbering.base
            default: return numbering.position
            }
        }
        let entry = Recording.Entry(
            event: event.id, kind: event.kind, seam: event.seam, source: event.source,
            message: Recording.redacted(event.message), time: event.time.seconds, wall: RealClock.seconds(),
            call: call, layer: detail?.layer.map(\.rawValue), spec: detail?.spec.map(Recording.redacted),
            seed: detail?.seed, seeds: detail?.seeds.flatMap { $0.isEmpty ? nil : $0 }, ttl: detail?.ttl?.seconds,
            advanced: detail?.advanced?.seconds)
        for recorder in recorders { recorder.record(entry) }
    }
}
