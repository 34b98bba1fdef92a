import Foundation
import Mischief

/// A `Recording` as a Swift test that replays it, or the state it ends in as a profile file or a `MISCHIEF_APPLY`
/// line (`mischief export FILE --as test|profile|env`).
///
/// The state is the layers applied and not reverted when the recording ends: the `applied` and `reverted` entries
/// replayed by layer id. Each is exported with its seam, spec, seed and time to live:
/// - **Seed.** A layer given no seed drew from the session seed, so it is exported with the header's
///   `Recording.Header.sessionSeed` as its seed: applying a spec with seed *s* draws what it drew under session
///   seed *s*, so every export draws the same numbers as the recorded run, whatever the new run's session seed.
/// - **Time to live.** The layer's original TTL, as it was applied: a recording does not say when it stopped, so
///   the time left at its end is not known, and a fresh run wants the change to last as it did.
///
/// What cannot be exported is never dropped in silence: it is in ``notes``, which each form writes as comments (and
/// `mischief export` on standard error): layers built in code (no spec), layers covered by a newer one on the same
/// seam (only the newest, the one that answers, is exported), guards (a recording keeps them as text only), events
/// an in-memory recording dropped.
///
/// ```swift
/// let export = RecordingExport(try Recording(jsonLines: text))
/// print(export.text(as: .profile))
/// ```
public struct RecordingExport: Sendable, Equatable {
    /// A form of export.
    public enum Format: String, Sendable, CaseIterable {
        /// A Swift Testing test replaying the recording with MischiefTesting's `.replaying` trait: the same changes
        /// after the same calls, and the recorded decisions checked.
        case test
        /// A YAML profile file, as ``ProfileFile`` reads it.
        case profile
        /// A shell line: `MISCHIEF_SEED=… MISCHIEF_APPLY='seam=spec;seam=spec'`.
        case env
    }

    /// One layer applied when the recording ended.
    public struct Layer: Sendable, Equatable {
        /// The layer's id in the recorded registry.
        public var id: Int
        /// Its seam.
        public var seam: SeamID
        /// The spec it was applied from.
        public var spec: String
        /// The seed its random parts drew from: the one it was given, else the recording's session seed.
        public var seed: UInt64
        /// Whether ``seed`` was given to it (`--seed`, a profile's `seed:`) rather than the session's.
        public var seedWasGiven: Bool
        /// Its time to live as applied; nil when it lasted until reverted.
        public var ttl: Duration?
        /// Who applied it.
        public var source: String?
        /// The seam's call number when it was applied (see `Recording.Entry.call`).
        public var call: Int?
    }

    /// The recording's header: the target, its session seed, when it started.
    public var header: Recording.Header
    /// The layers exported, oldest first, one for each seam.
    public var layers: [Layer]
    /// What the recording held at its end that cannot be exported, each with why (the forms write them after
    /// `Not exported: `).
    public var notes: [String]
    /// The recording itself, which a test embeds and replays.
    var recording: Recording

    /// The state `recording` ends in.
    public init(_ recording: Recording) {
        self.recording = recording
        header = recording.header
        var open: [Int: Recording.Entry] = [:]
        var order: [Int] = []
        var guards: [(id: String, text: String)] = []
        for entry in (recording.header.active ?? []) + recording.entries {
            switch entry.kind {
            case .applied:
                guard let layer = entry.layer else { continue }
                open[layer] = entry
                order.append(layer)
            case .reverted:
                guard let layer = entry.layer else { continue }
                open[layer] = nil
            case .report:
                if let added = Self.guardAdded(entry.message) {
                    guards.append(added)
                } else if let id = Self.guardRemoved(entry.message) {
                    guards.removeAll { $0.id == id }
                }
            default:
                continue
            }
        }
        var notes: [String] = []
        if let dropped = recording.header.dropped {
            notes.append(
                "\(dropped) event\(dropped == 1 ? "" : "s") the recording dropped (it was kept in memory and full):"
                    + " the state at its end may differ")
        }
        var layers: [Layer] = []
        for id in order {
            guard let entry = open[id], let seam = entry.seam else { continue }
            guard let spec = entry.spec else {
                notes.append(
                    "\(seam): layer \(id) (\(Self.oneLine(entry.message))), built in code, with no spec")
                continue
            }
            guard (try? Spec(parsing: spec)) != nil else {
                notes.append("\(seam): layer \(id), whose spec \(Self.oneLine(spec)) does not parse")
                continue
            }
            if let covered = layers.firstIndex(where: { $0.seam == seam }) {
                notes.append(
                    "\(seam): \(Self.oneLine(layers[covered].spec)) (layer \(layers[covered].id)), \(Self.coveredNote):"
                        + " only the newest, which answered, is exported")
                layers.remove(at: covered)
            }
            let ttl = entry.ttl.flatMap(Self.ttl)
            if let seconds = entry.ttl, ttl == nil {
                notes.append("\(seam): layer \(id)'s ttl of \(seconds) seconds, which no registry takes")
            }
            layers.append(
                Layer(
                    id: id, seam: seam, spec: spec, seed: entry.seed ?? recording.header.sessionSeed,
                    seedWasGiven: entry.seed != nil, ttl: ttl, source: entry.source, call: entry.call))
        }
        for (id, text) in guards {
            notes.append(
                "guard \(id) (\(Self.oneLine(text))): a recording keeps guards only as text;"
                    + " add it by hand if the export should have it")
        }
        self.layers = layers
        // Every note becomes a comment line (and a line on stderr): whatever it quotes from the recording, one line.
        self.notes = notes.map(Self.oneLine)
    }

    /// What a note about a layer a newer one covered says (a test replays every layer, so it has no such note).
    static let coveredNote = "covered by a newer layer"

    /// The export as text in `format`, ending with a newline.
    ///
    /// - Parameters:
    ///   - format: The form: a test, a profile, a `MISCHIEF_APPLY` line.
    ///   - name: The profile's name, or the test's display name; `Recorded <target>` when nil.
    ///   - registry: For a test, the Swift expression of the registry its seams are registered in;
    ///     `Registry.shared` when nil.
    ///   - register: For a test, the Swift expression of a function `(Registry) throws -> Void` that registers the
    ///     seams the recording names (`AppSeams.register(in:)`), which the test calls when it starts; when nil, the
    ///     test's `registerSeams(in:)` says to register them there.
    ///   - body: For a test, Swift statements that run the code under test (the calls the recording numbered); when
    ///     nil, a comment says to call it there.
    ///   - imports: For a test, more modules it imports: the app's, where `register` and `body` are declared.
    public func text(
        as format: Format, name: String? = nil, registry: String? = nil, register: String? = nil, body: String? = nil,
        imports: [String] = []
    ) -> String {
        let name = name ?? "Recorded \(Self.oneLine(header.target))"
        switch format {
        case .test:
            return testSource(name: name, registry: registry, register: register, body: body, imports: imports)
        case .profile: return profileYAML(name: name)
        case .env: return environmentLine + "\n"
        }
    }

    /// ``notes`` and what `format` cannot carry besides (a `MISCHIEF_APPLY` line has no TTLs and one seed), each on
    /// one line: a comment in a test or a profile, never code or a key.
    public func notes(for format: Format) -> [String] {
        switch format {
        case .env: (notes + environmentNotes).map(Self.oneLine)
        case .test: (notes.filter { !$0.contains(Self.coveredNote) } + testNotes).map(Self.oneLine)
        case .profile: notes.map(Self.oneLine)
        }
    }

    // MARK: The state in words

    /// When the recording started, as an ISO 8601 date in UTC.
    var startedText: String {
        Date(timeIntervalSince1970: header.started).ISO8601Format()
    }

    /// `demo (pid 8752, Linux x86_64, Swift 6.3), started 2026-11-26T10:40:00Z, session seed 7`.
    var origin: String {
        "\(Self.oneLine(header.target)) (pid \(header.pid), \(Self.oneLine(header.platform)),"
            + " Swift \(Self.oneLine(header.swift))), started \(startedText), session seed \(header.sessionSeed)"
    }

    /// `clock.now = shift(+1d): seed 7 (the session's), ttl 30s, from console, at its call 12`.
    func summary(of layer: Layer) -> String {
        var parts = ["seed \(layer.seed)" + (layer.seedWasGiven ? "" : " (the session's)")]
        if let ttl = layer.ttl { parts.append("ttl \(SpecDuration(ttl))") }
        if let source = layer.source { parts.append("from \(Self.oneLine(source))") }
        if let call = layer.call { parts.append("at its call \(call)") }
        return Self.oneLine("\(layer.seam) = \(Self.oneLine(layer.spec)): " + parts.joined(separator: ", "))
    }

    /// The layers grouped by seed, in the order their seeds first appear: one profile a group.
    var seedGroups: [(seed: UInt64, layers: [Layer])] {
        var groups: [(seed: UInt64, layers: [Layer])] = []
        for layer in layers {
            if let index = groups.firstIndex(where: { $0.seed == layer.seed }) {
                groups[index].layers.append(layer)
            } else {
                groups.append((layer.seed, [layer]))
            }
        }
        return groups
    }

    /// A recorded time to live in seconds as a duration a registry takes (more than zero, at most
    /// `Registry.longestTTL`), to the millisecond; nil for any other number a hand-edited file may hold.
    static func ttl(_ seconds: Double) -> Duration? {
        guard let milliseconds = Int64(exactly: (seconds * 1000).rounded()) else { return nil }
        let ttl = Duration.milliseconds(milliseconds)
        return (try? Registry.check(ttl: ttl)) == nil ? nil : ttl
    }

    // MARK: Guards in the event log

    /// The id and rule of a `guard 3 added: …` report.
    static func guardAdded(_ message: String) -> (id: String, text: String)? {
        guard message.hasPrefix("guard "), let range = message.range(of: " added: ") else { return nil }
        let id = message[message.index(message.startIndex, offsetBy: 6)..<range.lowerBound]
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else { return nil }
        return (String(id), String(message[range.upperBound...]))
    }

    /// The id of a `guard 3 removed` report.
    static func guardRemoved(_ message: String) -> String? {
        guard message.hasPrefix("guard "), message.hasSuffix(" removed") else { return nil }
        let id = message.dropFirst(6).dropLast(8)
        return !id.isEmpty && id.allSatisfy(\.isNumber) ? String(id) : nil
    }

    /// `text` on one line, safe in a comment: line breaks, controls and bidirectional controls as `\u{…}`. Every
    /// comment an export writes goes through it: a Swift `//` comment or a YAML `#` one ends only at a line break.
    static func oneLine(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let unsafe =
                value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value) || value == 0x2028 || value == 0x2029 || value == 0x061C
                || value == 0x200E || value == 0x200F
            if unsafe {
                result += "\\u{\(String(value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
