#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A registry's flight recording: what changed in it, in order, each change with the seam's call number at that
/// moment, so a session can be read back, replayed on a fresh run and exported as a test.
///
/// As a file it is JSON Lines: one ``Header`` line, then one ``Entry`` line per event, each written with one `write`
/// as it happens (see ``Registry/startRecording(toFile:target:decisions:)``), so a process killed with `kill -9` loses at most the
/// line being written. `jq` reads it:
///
/// ```sh
/// jq -c 'select(.kind == "applied") | [.seam, .spec, .call]' session.jsonl
/// ```
public struct Recording: Sendable, Equatable {
    /// Who was recorded, and its seams when the recording started.
    public var header: Header
    /// Every event recorded, oldest first.
    public var entries: [Entry]
    /// The decision of each chaos call, when the recording asked for them (``Header/decisions``), in the order they
    /// were read: by seam, in call order.
    public var decisions: [Decision]

    /// A recording of `entries` and `decisions`, headed by `header`.
    public init(header: Header, entries: [Entry], decisions: [Decision] = []) {
        self.header = header
        self.entries = entries
        self.decisions = decisions
    }

    /// The first line of a recording: the format, the target, and its seams when recording began.
    public struct Header: Codable, Sendable, Equatable {
        /// Always `mischief-recording`.
        public var format = Recording.format
        /// The format's version: a reader refuses a newer one.
        public var version = Recording.version
        /// The target's name (its executable's, unless it named itself).
        public var target: String
        /// Its process id when recorded.
        public var pid: Int
        /// The Swift compiler the target was built with, such as `6.3`.
        public var swift: String
        /// The platform, such as `Linux x86_64`.
        public var platform: String
        /// The registry's session seed, which random behaviours derive their seeds from unless given one.
        public var sessionSeed: UInt64
        /// The wall-clock time the recording began, in seconds since 1970 (the real clock, never a chaos one).
        public var started: Double
        /// The seams registered when the recording began, with the names of their actions; seams registered later
        /// have a `registered` entry.
        public var seams: [Seam]
        /// Events that happened but are not in the recording, because an in-memory recording was full.
        public var dropped: Int?
        /// The most decisions the recording keeps, when it records them (nil: it does not).
        public var decisions: Int?
        /// Decisions made after that bound was reached, not recorded.
        public var droppedDecisions: Int?
        /// The layers active when the recording began, oldest first, as `applied` entries at call 0 (their `event`
        /// is the one that applied them): a replay makes them first, and an export keeps them. Nil when none was.
        public var active: [Entry]?

        /// A header for a recording of `target` as of now.
        public init(
            target: String, pid: Int, sessionSeed: UInt64, started: Double, seams: [Seam],
            swift: String = Recording.swift,
            platform: String = Recording.platform
        ) {
            self.target = target
            self.pid = pid
            self.sessionSeed = sessionSeed
            self.started = started
            self.seams = seams
            self.swift = swift
            self.platform = platform
        }

        /// A seam as the header lists it.
        public struct Seam: Codable, Sendable, Equatable {
            /// Its id.
            public var id: SeamID
            /// Its title.
            public var title: String
            /// The names of the actions its specs can use.
            public var actions: [String]

            /// A seam of the header.
            public init(id: SeamID, title: String, actions: [String]) {
                self.id = id
                self.title = title
                self.actions = actions
            }
        }
    }

    /// One recorded event: the registry's ``Event`` with what a replay needs besides.
    public struct Entry: Codable, Sendable, Equatable {
        /// The event's id in the registry (they grow; a recording may start after 1).
        public var event: Int
        /// What happened.
        public var kind: Event.Kind
        /// The seam concerned, if any.
        public var seam: SeamID?
        /// Who made the change, or asked for it.
        public var source: String?
        /// The event's message, with credentials redacted (see ``Recording/redacted(_:)``).
        public var message: String
        /// When, in seconds since the registry started (its monotonic clock).
        public var time: Double
        /// When, on the real wall clock, in seconds since 1970.
        public var wall: Double
        /// How many calls the seam had made since the recording started (or since it registered, if later) when this
        /// happened: a change recorded at `call: 412` was made after the seam's 412th call and before its 413th.
        /// Nil for an event without a seam.
        public var call: Int?
        /// The layer an `applied` or `reverted` event is about.
        public var layer: Int?
        /// The spec an `applied` layer was made from, which can be applied again (nil for one built in code).
        public var spec: String?
        /// The seed an `applied` change was given (`--seed`, `seed:` in a profile); nil when its seeds were derived
        /// from the session seed. Applying ``spec`` with this seed (or, when nil, under the same session seed) draws
        /// the same numbers.
        public var seed: UInt64?
        /// The seeds an `applied` layer's random behaviours use (derived from ``seed``), as the console shows them.
        public var seeds: [UInt64]?
        /// The time to live of an `applied` layer, in seconds; for a `report` that set the time to live of the
        /// seam's layers (the console's TTL, `mischief ttl`), the one set, 0 when it was taken away.
        public var ttl: Double?
        /// How far time was advanced, in seconds, for a `report` of an advance.
        public var advanced: Double?

        /// An entry with these values.
        public init(
            event: Int, kind: Event.Kind, seam: SeamID? = nil, source: String? = nil, message: String, time: Double,
            wall: Double, call: Int? = nil, layer: Int? = nil, spec: String? = nil, seed: UInt64? = nil,
            seeds: [UInt64]? = nil, ttl: Double? = nil, advanced: Double? = nil
        ) {
            self.event = event
            self.kind = kind
            self.seam = seam
            self.source = source
            self.message = message
            self.time = time
            self.wall = wall
            self.call = call
            self.layer = layer
            self.spec = spec
            self.seed = seed
            self.seeds = seeds
            self.ttl = ttl
            self.advanced = advanced
        }
    }

    /// The `format` of every header.
    public static let format = "mischief-recording"
    /// The version this library writes and reads.
    public static let version = 1

    /// The Swift compiler this library was built with.
    public static let swift: String = {
        #if compiler(>=6.4)
            "6.4 or later"
        #elseif compiler(>=6.3)
            "6.3"
        #elseif compiler(>=6.2)
            "6.2"
        #else
            "6.1"
        #endif
    }()

    /// The platform this library was built for.
    public static let platform: String = {
        #if os(Linux)
            let system = "Linux"
        #elseif os(macOS)
            let system = "macOS"
        #else
            let system = "other"
        #endif
        #if arch(x86_64)
            return system + " x86_64"
        #elseif arch(arm64)
            return system + " arm64"
        #else
            return system
        #endif
    }()

    /// The header names whose values are never recorded: credentials.
    public static let redactedHeaders = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// `text` with the value after each of ``redactedHeaders`` (`Authorization: Bearer …`, `"Cookie": "…"`,
    /// `cookie=…`) replaced by `[redacted]`, up to the end of its quotes, line, comma or bracket.
    public static func redacted(_ text: String) -> String {
        let lower = Array(text.lowercased().unicodeScalars)
        let scalars = Array(text.unicodeScalars)
        guard lower.count == scalars.count else { return text }  // lowercasing changed lengths: exotic; left alone
        var out = String.UnicodeScalarView()
        var index = 0
        outer: while index < scalars.count {
            for name in redactedHeaders {
                let nameScalars = Array(name.unicodeScalars)
                guard index + nameScalars.count <= lower.count,
                    Array(lower[index..<index + nameScalars.count]) == nameScalars,
                    index == 0 || !isNameScalar(lower[index - 1])
                else { continue }
                var at = index + nameScalars.count
                if at < scalars.count, scalars[at] == "\"" { at += 1 }  // "Cookie": …
                while at < scalars.count, scalars[at] == " " { at += 1 }
                guard at < scalars.count, scalars[at] == ":" || scalars[at] == "=" else { continue }
                at += 1
                while at < scalars.count, scalars[at] == " " { at += 1 }
                let quoted = at < scalars.count && scalars[at] == "\""
                if quoted { at += 1 }
                out.append(contentsOf: scalars[index..<at])
                var end = at
                while end < scalars.count {
                    let scalar = scalars[end]
                    if quoted ? scalar == "\"" : ",;)}]\n\r\"".unicodeScalars.contains(scalar) { break }
                    end += 1
                }
                out.append(contentsOf: "[redacted]".unicodeScalars)
                index = end
                continue outer
            }
            out.append(scalars[index])
            index += 1
        }
        return String(out)
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar == "-" || scalar == "_"
    }
}

/// Why a recording cannot be read: what is wrong, and on which line.
public struct RecordingError: Error, Equatable, CustomStringConvertible {
    /// The line (from 1) the problem is on.
    public var line: Int
    /// What is wrong there.
    public var reason: String

    /// An error on `line`.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line 3: …`.
    public var description: String { "line \(line): \(reason)" }
}

extension Recording {
    /// Reads a recording's JSON Lines. A last line cut short (a process killed while writing it) is left out; any
    /// other bad line is an error naming it.
    ///
    /// - Throws: ``RecordingError`` with the line: no header, another format, a newer version, a line that is not
    ///   an entry, events out of order.
    public init(jsonLines text: String) throws(RecordingError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first, !first.isEmpty else {
            throw RecordingError(line: 1, reason: "empty: a recording starts with a header line")
        }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: Data(first.utf8))
        } catch {
            throw RecordingError(
                line: 1, reason: "not a Mischief recording header (\(Self.describe(error, in: first)))")
        }
        guard header.format == Self.format else {
            throw RecordingError(line: 1, reason: "format is \"\(header.format)\", not \"\(Self.format)\"")
        }
        guard header.version <= Self.version else {
            throw RecordingError(
                line: 1,
                reason: "version \(header.version) is newer than this Mischief reads (\(Self.version)); update mischief"
            )
        }
        if let problem = header.rangeProblem { throw RecordingError(line: 1, reason: problem) }
        var entries: [Entry] = []
        var decisions: [Decision] = []
        let endsWithNewline = text.hasSuffix("\n")
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            if line.isEmpty { continue }
            let entry: Entry
            do {
                let data = Data(line.utf8)
                if (try? decoder.decode(KindProbe.self, from: data))?.kind == "decision" {
                    let decision: Decision
                    do {
                        decision = try decoder.decode(Decision.self, from: data)
                    } catch {
                        throw RecordingError(line: number, reason: "not a decision (\(Self.describe(error, in: line)))")
                    }
                    // A whole line whose number is out of range is an error even at the end (it was not cut).
                    if let problem = decision.rangeProblem { throw OutOfRange(line: number, reason: problem) }
                    decisions.append(decision)
                    continue
                }
                entry = try decoder.decode(Entry.self, from: data)
                if let problem = entry.rangeProblem { throw OutOfRange(line: number, reason: problem) }
            } catch let error as OutOfRange {
                throw RecordingError(line: error.line, reason: error.reason)
            } catch let error as RecordingError {
                if offset == lines.count - 1 && !endsWithNewline { break }
                throw error
            } catch {
                // The last line without its newline was being written when the process died: not an error.
                if offset == lines.count - 1 && !endsWithNewline { break }
                throw RecordingError(line: number, reason: "not an event (\(Self.describe(error, in: line)))")
            }
            if let previous = entries.last, entry.event <= previous.event {
                throw RecordingError(
                    line: number, reason: "event \(entry.event) comes after event \(previous.event): out of order")
            }
            entries.append(entry)
        }
        self.init(header: header, entries: entries, decisions: decisions)
    }

    /// The recording as JSON Lines: its header, then one line per entry, each decision after the event it
    /// followed, each line ending with a newline.
    public var jsonLines: String {
        var lines = [Self.line(header)]
        for item in merged {
            switch item {
            case .entry(let index): lines.append(Self.line(entries[index]))
            case .decision(let index): lines.append(Self.line(decisions[index]))
            }
        }
        return lines.joined()
    }

    /// An entry or a decision, by index, in the order ``jsonLines`` writes them (line 2 onwards).
    enum Item {
        case entry(Int)
        case decision(Int)
    }

    /// The entries and decisions in file order: each decision after the last entry it followed (its ``Decision/after``).
    var merged: [Item] {
        var items: [Item] = []
        var next = 0
        for (index, entry) in entries.enumerated() {
            while next < decisions.count, decisions[next].after < entry.event {
                items.append(.decision(next))
                next += 1
            }
            items.append(.entry(index))
        }
        items += (next..<decisions.count).map { Item.decision($0) }
        return items
    }

    /// A whole line with a number out of range: an error wherever the line is.
    private struct OutOfRange: Error {
        var line: Int
        var reason: String
    }

    /// Just the `kind` of a line, to tell decisions from events.
    private struct KindProbe: Decodable {
        var kind: String?
    }

    /// One value as a line of JSON with its newline (keys sorted, so lines diff and `jq` reads them alike).
    static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A decoding error in words: the missing or mistyped field.
    private static func describe(_ error: any Error, in line: String) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        case .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not JSON" : "\"\(path)\": \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}

extension Recording {
    /// This recording with only as many of its decisions as keep its JSON Lines within `bytes`, and a `dropped`
    /// decision where each seam's were cut, so a replay compares up to there; itself when it fits, nil when its
    /// events alone do not. For a control API with a bound on what a request carries (`mischief replay`).
    package func keepingDecisions(within bytes: Int) -> (recording: Recording, kept: Int)? {
        let events = Self.line(header).utf8.count + entries.reduce(0) { $0 + Self.line($1).utf8.count }
        let sizes = decisions.map { Self.line($0).utf8.count }
        if events + sizes.reduce(0, +) <= bytes { return (self, decisions.count) }
        // Room for one marker per seam, with the longest call number.
        let reserve = Set(decisions.map(\.seam)).reduce(0) { sum, seam in
            sum
                + Self.line(Decision(seam: seam, call: .max, layer: nil, outcome: .dropped, value: nil, after: .max))
                .utf8.count
        }
        guard events + reserve <= bytes else { return nil }
        var kept = 0
        var used = events + reserve
        while kept < sizes.count, used + sizes[kept] <= bytes {
            used += sizes[kept]
            kept += 1
        }
        var trimmed = self
        trimmed.decisions = Array(decisions.prefix(kept))
        let endedAlready = Set(trimmed.decisions.filter { $0.outcome == .dropped }.map(\.seam))
        var marked: Set<SeamID> = []
        for decision in decisions.dropFirst(kept) where !endedAlready.contains(decision.seam) {
            guard marked.insert(decision.seam).inserted else { continue }
            trimmed.decisions.append(
                Decision(
                    seam: decision.seam, call: decision.call, layer: nil, outcome: .dropped, value: nil,
                    after: decision.after))
        }
        return (trimmed, trimmed.decisions.count - marked.count)
    }
}
