import Foundation
import Mischief

/// A profile as stored in a YAML file: a named set of behaviour changes (seam id → spec text).
///
/// A file holds one profile (a mapping) or a list of them:
/// ```yaml
/// name: Tokyo
/// description: Somewhere far away
/// key: 2
/// seed: 42
/// ttl: 10m
/// entries:
///   location.current: city("Tokyo")
///   clock.now:
///     spec: shift(+9h)
///     ttl: 30s
/// ```
/// `ttl` (a time to live, as a spec duration) on the profile applies to each entry without one of its own.
/// Locations are nil for profiles built in code.
public struct ProfileFile: Hashable, Sendable {
    /// The profile's name (required).
    public var name: String
    /// What the profile is for.
    public var description: String?
    /// The hot key, 1–9 (checked by `check`, not when loading).
    public var key: Int?
    /// The random seed for the profile's behaviour changes.
    public var seed: UInt64?
    /// The behaviour changes, in file order.
    public var entries: [Entry]
    /// How long its entries last once applied, unless an entry has its own; nil for as long as it is on.
    public var ttl: Duration?
    /// Guards that revert this profile when they trip, as text (`errors(net.request) > 50% over 10s`), each with
    /// where it was written.
    public var guards: [Located<String>] = []
    /// Where the profile starts.
    public var location: FileLocation?
    /// Where the name's value was written.
    public var nameLocation: FileLocation?
    /// Where the hot key's value was written.
    public var keyLocation: FileLocation?

    /// One behaviour change: a seam id and the spec text to apply to it.
    public struct Entry: Hashable, Sendable {
        /// The seam's id, e.g. `location.current`.
        public var seam: String
        /// The spec text, e.g. `city("Tokyo")`.
        public var spec: String
        /// Where the seam id was written.
        public var seamLocation: FileLocation?
        /// Where the spec's text starts (after the opening quote, for a quoted spec).
        public var specLocation: FileLocation?
        /// How the spec's scalar was written, to locate a column inside the spec (see ``specLocation(column:)``).
        public var specSource: YAMLScalarSource?
        /// How long this change lasts once applied; nil for the profile's ``ProfileFile/ttl``.
        public var ttl: Duration?

        /// Creates an entry.
        public init(
            seam: String, spec: String, seamLocation: FileLocation? = nil, specLocation: FileLocation? = nil,
            specSource: YAMLScalarSource? = nil, ttl: Duration? = nil
        ) {
            self.seam = seam
            self.spec = spec
            self.seamLocation = seamLocation
            self.specLocation = specLocation
            self.specSource = specSource
            self.ttl = ttl
        }

        /// Where the spec's `column` (1-based, in Unicode scalars, as `SpecError.column` counts) was written in
        /// the file, through quotes, escapes, folded lines and block indentation; `specLocation` when the
        /// column cannot be followed; nil for an entry built in code.
        public func specLocation(column: Int) -> FileLocation? {
            guard let specSource, column >= 1 else { return specLocation }
            return specSource.location(ofScalar: column - 1, in: spec) ?? specLocation
        }
    }

    /// Creates a profile.
    public init(
        name: String, description: String? = nil, key: Int? = nil, seed: UInt64? = nil, entries: [Entry] = [],
        ttl: Duration? = nil, location: FileLocation? = nil, nameLocation: FileLocation? = nil,
        keyLocation: FileLocation? = nil
    ) {
        self.name = name
        self.ttl = ttl
        self.description = description
        self.key = key
        self.seed = seed
        self.entries = entries
        self.location = location
        self.nameLocation = nameLocation
        self.keyLocation = keyLocation
    }

    /// The guard texts, without their locations.
    public var guardTexts: [String] { guards.map(\.value) }

    /// Where column `column` (1-based, in Unicode scalars) of guard `index` was written in the file.
    public func guardLocation(_ index: Int, column: Int) -> FileLocation? {
        let line = guards[index]
        guard let source = line.source, column >= 1 else { return line.contentLocation }
        return source.location(ofScalar: column - 1, in: line.value) ?? line.contentLocation
    }

    /// The same profile with every location removed, for comparing content.
    public func withoutLocations() -> ProfileFile {
        var copy = self
        copy.location = nil
        copy.nameLocation = nil
        copy.keyLocation = nil
        copy.entries = entries.map { Entry(seam: $0.seam, spec: $0.spec, ttl: $0.ttl) }
        copy.guards = guards.map { Located($0.value) }
        return copy
    }

    // MARK: Loading

    /// The profiles in a file; unknown keys are dropped silently (use `loadDecoded` to see them as warnings).
    public static func load(contentsOf url: URL) throws(FileErrors) -> [ProfileFile] {
        try loadDecoded(contentsOf: url).value
    }

    /// The profiles in YAML text; `file` is the name used in locations.
    public static func load(text: String, file: String) throws(FileErrors) -> [ProfileFile] {
        try loadDecoded(text: text, file: file).value
    }

    /// The profiles in a file, with warnings such as unknown keys.
    public static func loadDecoded(contentsOf url: URL) throws(FileErrors) -> Decoded<[ProfileFile]> {
        try loadDecoded(text: YAMLFile.readText(contentsOf: url), file: url.path)
    }

    /// The profiles in YAML text, with warnings such as unknown keys.
    public static func loadDecoded(text: String, file: String) throws(FileErrors) -> Decoded<[ProfileFile]> {
        let decoded = try YAMLFile.decode(
            ProfileDocuments.self, from: text, file: file,
            emptyMessage: "the file is empty; expected a profile (a mapping with 'name' and 'entries')"
                + " or a list of profiles")
        return Decoded(value: decoded.value.documents.map(\.profile), warnings: decoded.warnings)
    }

    // MARK: Saving

    /// The profile as readable YAML, in the layout shown above; loading it gives back an equal profile.
    public func yaml() -> String {
        var lines = ["name: \(YAMLQuoting.scalar(name))"]
        if let description { lines.append("description: \(YAMLQuoting.scalar(description))") }
        if let key { lines.append("key: \(key)") }
        if let seed { lines.append("seed: \(seed)") }
        if let ttl { lines.append("ttl: \(SpecDuration(ttl))") }
        if !guards.isEmpty {
            lines.append("guards:")
            for line in guards { lines.append("  - \(YAMLQuoting.scalar(line.value))") }
        }
        if entries.isEmpty {
            lines.append("entries: {}")
        } else {
            lines.append("entries:")
            for entry in entries {
                if let ttl = entry.ttl {
                    lines.append("  \(YAMLQuoting.scalar(entry.seam)):")
                    lines.append("    spec: \(YAMLQuoting.scalar(entry.spec))")
                    lines.append("    ttl: \(SpecDuration(ttl))")
                } else {
                    lines.append("  \(YAMLQuoting.scalar(entry.seam)): \(YAMLQuoting.scalar(entry.spec))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Several profiles as one YAML list.
    public static func yaml(_ profiles: [ProfileFile]) -> String {
        if profiles.isEmpty { return "[]\n" }
        return profiles.map { profile in
            profile.yaml().split(separator: "\n").enumerated().map { index, line in
                (index == 0 ? "- " : "  ") + line
            }.joined(separator: "\n")
        }.joined(separator: "\n") + "\n"
    }

    /// Writes `yaml()` to a file atomically, creating its directory if needed.
    public func write(to url: URL) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(),
            withIntermediateDirectories: true)
        try Data(yaml().utf8).write(to: url, options: .atomic)
    }
}
