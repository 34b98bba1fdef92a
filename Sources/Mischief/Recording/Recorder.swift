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

/// A recording in progress (``Registry/startRecording(capacity:bytes:target:decisions:)``, ``Registry/startRecording(toFile:target:decisions:)``): every
/// event the registry logs from its start until ``stop()``, with the seam's call number at that moment. While one
/// records, the registry counts calls (as if observed) and numbers them (every seam has a box whose calls take their
/// numbers from it), so a change's call number is exact whichever thread made it.
public final class Recorder: Sendable {
    /// Where the lines go.
    enum Sink {
        /// Written to this file descriptor, one `write` a line, as it happens; closed at stop. The first `keeping`
        /// entries are also kept in memory, for ``recording``; the file has every one.
        case file(Int32, path: String, keeping: Int)
        /// Kept in memory, up to this many entries; later ones are counted as dropped.
        case memory(capacity: Int)
    }

    struct State {
        var header: Recording.Header
        var entries: [Recording.Entry] = []
        var dropped = 0
        /// What the entries and decisions kept in memory weigh (`weight(of:)`).
        var bytes = 0
        var stopped = false
        /// Set when a write failed (the disk is full, the file was removed): recording stops there.
        var failure: String?
        /// The calls each seam had counted when the recording started: call numbers count from there.
        var callBase: [SeamID: Int] = [:]
        /// The decisions kept in memory (all of an in-memory recording's; the first of a file's).
        var decisions: [Recording.Decision] = []
        /// The decisions recorded (kept or written).
        var decisionCount = 0
        /// The decisions after the bound, not recorded.
        var droppedDecisions = 0
        /// The last event recorded, which the next decisions follow.
        var lastEvent = 0
    }

    let sink: Sink
    /// The most decisions recorded (0: none are).
    let decisionLimit: Int
    /// The most bytes of entries and decisions kept in memory (``Recorder/memoryBudget`` unless given).
    package let byteBudget: Int
    /// The most an in-memory recording (and the in-memory copy of a file recording) keeps: 8 MiB of entries and
    /// decisions, as their text weighs. A count alone did not bound it: the
    /// server's 10,000 entries, each holding a spec of up to 64 KiB, could keep 640 MB; 300 toggles of a profile of
    /// six 60 KB specs grew a target by 126 MB and `GET /v1/recording` answered 56 MB in 22 s. Entries past it are
    /// counted in ``Recording/Header/dropped``, decisions in ``Recording/Header/droppedDecisions``.
    public static let memoryBudget = 8 << 20
    /// How many entries of a file recording are also kept in memory (``recording``); the file keeps every one.
    static let fileEntriesKept = 10_000
    let state: Locked<State>
    /// The registry recorded, until stopped.
    weak let registry: Registry?

    init(
        sink: Sink, header: Recording.Header, registry: Registry, decisions: Int = 0, bytes: Int = Recorder.memoryBudget
    ) {
        self.sink = sink
        self.byteBudget = max(0, bytes)
        var header = header
        header.decisions = decisions > 0 ? decisions : nil
        self.state = Locked(State(header: header))
        self.registry = registry
        self.decisionLimit = max(0, decisions)
    }

    /// What has been recorded so far: the header and the entries kept in memory (up to the capacity, or the first
    /// 10,000 of a file recording, whose file has every one, and at most ``memoryBudget`` bytes of them), with
    /// ``Recording/Header/dropped`` counting the rest,
    /// and the decisions made up to now.
    public var recording: Recording {
        flush()
        return state.withLock { state in
            var header = state.header
            header.dropped = state.dropped == 0 ? nil : state.dropped
            header.droppedDecisions = state.droppedDecisions == 0 ? nil : state.droppedDecisions
            return Recording(header: header, entries: state.entries, decisions: state.decisions)
        }
    }

    /// Reads the decisions the calls have noted since the last read (every 100 ms on the registry's own thread) and
    /// records them now: before reading a file recording, or to keep the calls' buffers empty in a tight loop.
    public func flush() {
        if decisionLimit > 0 { registry?.drainDecisions() }
    }

    /// Whether it still records decisions: it asked for them, it records, and its bound is not reached.
    var wantsDecisions: Bool {
        decisionLimit > 0
            && state.withLock { !$0.stopped && $0.failure == nil && $0.decisionCount < decisionLimit }
    }

    /// Takes decisions read from a tape, in call order, numbering their calls from the recording's start; called
    /// under the registry's lock. Past the bound they are counted, not kept.
    func take(_ taken: [TakenDecision]) {
        guard decisionLimit > 0 else { return }
        state.withLock { state in
            guard !state.stopped, state.failure == nil else { return }
            for decision in taken {
                guard state.decisionCount < decisionLimit else {
                    if decision.outcome != .dropped { state.droppedDecisions += 1 }
                    continue
                }
                let call = decision.rawCall - state.callBase[decision.seam, default: 0]
                guard call > 0 else { continue }  // made before the recording began
                let kept = Recording.Decision(
                    seam: decision.seam, call: call, layer: decision.layer?.rawValue, outcome: decision.outcome,
                    value: decision.value, live: decision.live ? true : nil, after: state.lastEvent)
                switch sink {
                case .memory:
                    let weight = Self.weight(of: kept)
                    guard state.bytes + weight <= byteBudget else {
                        // Over the budget: this one and every later one are dropped, as past the bound.
                        state.decisionCount = decisionLimit
                        if decision.outcome != .dropped { state.droppedDecisions += 1 }
                        continue
                    }
                    state.decisionCount += 1
                    state.bytes += weight
                    state.decisions.append(kept)
                case .file(let descriptor, _, let keeping):
                    state.decisionCount += 1
                    if let failure = Self.write(Recording.line(kept), to: descriptor) {
                        state.failure = failure
                        failed(failure)
                        return
                    }
                    let weight = Self.weight(of: kept)
                    if state.decisions.count < keeping, state.bytes + weight <= byteBudget {
                        state.decisions.append(kept)
                        state.bytes += weight
                    }
                }
            }
        }
    }

    /// Why recording to a file stopped early (a write failed), if it did.
    public var failure: String? { state.withLock { $0.failure } }

    /// The file recorded to, or nil for an in-memory recording.
    public var path: String? {
        if case .file(_, let path, _) = sink { return path }
        return nil
    }

    /// Stops recording and closes the file; what was recorded stays readable in ``recording``.
    public func stop() {
        registry?.stopRecording(self)
    }

    /// Takes one entry, whose `call` is the seam's calls since it registered; called under the registry's lock, in
    /// event order.
    func record(_ entry: Recording.Entry) {
        state.withLock { state in
            guard !state.stopped, state.failure == nil else { return }
            state.lastEvent = entry.event
            var entry = entry
            if let seam = entry.seam, let call = entry.call {
                if entry.kind == .registered { state.callBase[seam] = call }  // registered again: counts anew
                entry.call = max(0, call - state.callBase[seam, default: 0])
            }
            switch sink {
            case .memory(let capacity):
                keep(entry, capacity: capacity, in: &state)
            case .file(let descriptor, _, let keeping):
                if let failure = Self.write(Recording.line(entry), to: descriptor) {
                    state.failure = failure
                    failed(failure)
                } else {
                    // On disk, and in memory while there is room: a long recording must not grow the target.
                    keep(entry, capacity: keeping, in: &state)
                }
            }
        }
    }

    /// Keeps `entry` in memory while fewer than `capacity` entries are kept and it fits in ``byteBudget``; else counts
    /// it as dropped. Once one is dropped every later one is, so what is kept is the recording's start, whole.
    private func keep(_ entry: Recording.Entry, capacity: Int, in state: inout State) {
        let weight = Self.weight(of: entry)
        if state.dropped == 0, state.entries.count < capacity, state.bytes + weight <= byteBudget {
            state.entries.append(entry)
            state.bytes += weight
        } else {
            state.dropped += 1
        }
    }

    /// What an entry weighs in memory, about: the UTF-8 of its text and 128 bytes for the rest.
    static func weight(of entry: Recording.Entry) -> Int {
        128 + entry.message.utf8.count + (entry.source?.utf8.count ?? 0) + (entry.seam?.rawValue.utf8.count ?? 0)
            + (entry.spec?.utf8.count ?? 0) + 8 * (entry.seeds?.count ?? 0)
    }

    /// What a decision weighs in memory, about: the UTF-8 of its seam and value and 64 bytes for the rest.
    static func weight(of decision: Recording.Decision) -> Int {
        64 + decision.seam.rawValue.utf8.count + (decision.value?.utf8.count ?? 0)
    }

    /// Marks the recording stopped and closes its file; called once, under the registry's lock.
    func close() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            if case .file(let descriptor, _, _) = sink { closeFile(descriptor) }
        }
    }

    /// Writes `line` whole with as few `write`s as the kernel allows (one, for a line of a few kilobytes); nil, or
    /// why it failed.
    static func write(_ line: String, to descriptor: Int32) -> String? {
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                writeFile(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return String(cString: strerror(errno))
            }
        }
        return nil
    }

    /// Opens `path` for a recording (readable only by its owner) and writes `header`: a new file, an empty one or an
    /// old recording (emptied). Anything else is refused before a byte is written: a symbolic link (never followed),
    /// a FIFO, a device or a socket (the open does not wait for a reader, and only a regular file is ever written,
    /// so no pipe can block the target or kill it with SIGPIPE), and a file whose first line is not a recording's
    /// header (never truncated).
    static func open(_ path: String, header: Recording.Header) throws(RecordingStartError) -> Int32 {
        // O_RDWR: an existing file's first line is read before it is emptied (and a FIFO opens without waiting).
        let descriptor = openFile(
            path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw RecordingStartError(
                path: path,
                reason: code == ELOOP
                    ? "it is a symbolic link, which a recording never follows; name the file itself"
                    : String(cString: strerror(code)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            closeFile(descriptor)
            throw RecordingStartError(path: path, reason: reason)
        }
        if let kind = FileReader.kind(of: UInt32(status.st_mode)) {
            closeFile(descriptor)
            throw RecordingStartError(path: path, reason: "it is \(kind), not a regular file")
        }
        if status.st_size > 0 {
            guard Self.startsWithHeader(descriptor) else {
                closeFile(descriptor)
                throw RecordingStartError(
                    path: path,
                    reason: "it holds something that is not a Mischief recording (its first line is no recording "
                        + "header); not overwriting it: name a new file, or remove this one")
            }
            guard ftruncate(descriptor, 0) == 0 else {
                let reason = String(cString: strerror(errno))
                closeFile(descriptor)
                throw RecordingStartError(path: path, reason: reason)
            }
        }
        if let failure = write(Recording.line(header), to: descriptor) {
            closeFile(descriptor)
            throw RecordingStartError(path: path, reason: failure)
        }
        return descriptor
    }
}

extension Recorder {
    /// Whether the file open on `descriptor` starts with a recording's header line (an old recording, which may be
    /// recorded over), read from its first MiB (a header lists every seam and active layer: it can be long).
    static func startsWithHeader(_ descriptor: Int32) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        let line = bytes[0..<count].prefix { $0 != UInt8(ascii: "\n") }
        guard let header = try? JSONDecoder().decode(Recording.Header.self, from: Data(line)) else { return false }
        return header.format == Recording.format
    }

    /// A write failed (the disk is full, the file was removed): says so once, on standard error and, from outside
    /// the registry's lock, in its event log. The file ends at the last whole line, which a reader keeps.
    func failed(_ failure: String) {
        let message = "stopped recording to \(path ?? "memory"): \(failure); the file ends at its last whole line"
        Registry.writeToStandardError("mischief: " + message)
        Task.detached { [weak registry] in
            registry?.report(seam: nil, message: message, kind: .problem, source: "recording")
        }
    }
}

/// Why a recording could not start: the file could not be opened or written.
public struct RecordingStartError: Error, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What the system said.
    public var reason: String

    /// `cannot record to PATH: REASON`.
    public var description: String { "cannot record to \(path): \(reason)" }
}

/// What an event adds to a recording besides its text: the layer it is about and how to make it again.
struct RecordingDetail {
    var layer: LayerID?
    var spec: String?
    var seed: UInt64?
    var seeds: [UInt64]?
    var ttl: Duration?
    var advanced: Duration?
}

// The C library's functions under names the recorder's own methods do not shadow.
private func closeFile(_ descriptor: Int32) { _ = close(descriptor) }
private func writeFile(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
