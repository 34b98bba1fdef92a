import Mischief

/// A command written as a line, the way the command line writes it: what the console's palette (`:`) runs.
///
/// One grammar for the palette and the `mischief` command: `apply SEAM SPEC`, `revert SEAM`, `revert --all`,
/// `release SEAM` and `reset SEAM` are spelled as on the command line, and a few spellings that read better
/// typed are accepted as well:
///
/// ```
/// apply SEAM SPEC [ttl D | --ttl D]     apply clock.now shift(+3h) ttl 10m
/// revert SEAM | revert all | revert --all
/// release SEAM                          pause SEAM (applies pause)
/// reset [SEAM | all]                    the counters
/// ttl SEAM D | ttl SEAM off             advance D (virtual time)
/// profile NAME [on | off]               theme [NAME]
/// save recording | save profile NAME    help | quit
/// test PATTERN | test all               where changes go in a live test session
/// ```
///
/// The spec is the rest of the line after the seam (spaces and all), without a trailing `ttl D`; a spec quoted
/// for the shell (`'shift(+1d)'`) loses its quotes.
///
/// ```swift
/// try ConsoleLine(parsing: "apply clock.now shift(+3h) ttl 10m")
/// // .apply(seam: "clock.now", spec: "shift(+3h)", ttl: .seconds(600))
/// ```
public enum ConsoleLine: Sendable, Equatable {
    /// Apply a spec to a seam, for a time when `ttl` is given.
    case apply(seam: SeamID, spec: String, ttl: Duration?)
    /// Revert a seam.
    case revert(SeamID)
    /// Revert everything.
    case revertAll
    /// Release the calls a pause holds on a seam.
    case release(SeamID)
    /// Reset a seam's counters, or every seam's when nil.
    case reset(SeamID?)
    /// Give a seam's layers a time to live, or (nil) none.
    case timeToLive(SeamID, Duration?)
    /// Move virtual time forward.
    case advance(Duration)
    /// Switch a profile on, off, or (nil) to the other state.
    case profile(String, on: Bool?)
    /// Switch to the theme of this name, or to the next when nil.
    case theme(String?)
    /// Write the session's recording.
    case saveRecording
    /// Save what is applied as a profile of this name.
    case saveProfile(String)
    /// Show the key help.
    case help
    /// Leave the console.
    case quit
    /// Send the changes made next to the running tests a pattern names (a live test session's scopes: `#3`, a
    /// test's name, `*Pears*`), or with nil to the whole process.
    case test(String?)

    /// The words a line starts with, in the order the palette lists them.
    public static let verbs = [
        "apply", "revert", "release", "pause", "reset", "ttl", "advance", "profile", "theme", "save", "test", "help",
        "quit",
    ]

    /// Why a line is not a command: the message says what was expected, with an example.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and how to write it.
        public var message: String

        public var description: String { message }
    }

    /// Reads a line.
    ///
    /// - Throws: ``ParseError`` naming what is missing or wrong, with an example of the line.
    public init(parsing line: String) throws(ParseError) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let verb = words.first?.lowercased() else { throw Self.error("type a command, such as apply or revert") }
        let rest = Array(words.dropFirst())
        switch verb {
        case "apply":
            guard rest.count >= 2 else {
                throw Self.error("apply SEAM SPEC [ttl D], such as apply clock.now shift(+3h)")
            }
            var spec = Array(rest.dropFirst())
            var ttl: Duration?
            if spec.count >= 3, ["ttl", "--ttl"].contains(spec[spec.count - 2].lowercased()) {
                ttl = try Self.duration(spec[spec.count - 1], for: "ttl")
                spec.removeLast(2)
            } else if spec.count >= 2, let last = spec.last, last.lowercased().hasPrefix("--ttl=") {
                ttl = try Self.duration(String(last.dropFirst(6)), for: "ttl")
                spec.removeLast()
            }
            var text = spec.joined(separator: " ")
            if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") { text = String(text.dropFirst().dropLast()) }
            self = .apply(seam: try Self.seam(rest[0]), spec: text, ttl: ttl)
        case "revert":
            guard rest.count == 1 else { throw Self.error("revert SEAM, or revert all") }
            self = ["all", "--all"].contains(rest[0].lowercased()) ? .revertAll : .revert(try Self.seam(rest[0]))
        case "release":
            guard rest.count == 1 else { throw Self.error("release SEAM: lets the calls a pause holds go on") }
            self = .release(try Self.seam(rest[0]))
        case "pause":
            guard rest.count == 1 else { throw Self.error("pause SEAM: holds its calls until release SEAM") }
            self = .apply(seam: try Self.seam(rest[0]), spec: "pause", ttl: nil)
        case "reset":
            guard rest.count <= 1 else { throw Self.error("reset SEAM, or reset all: zero the counters") }
            let all = rest.isEmpty || ["all", "--all"].contains(rest[0].lowercased())
            self = .reset(all ? nil : try Self.seam(rest[0]))
        case "ttl":
            guard rest.count == 2 else { throw Self.error("ttl SEAM D, such as ttl clock.now 10m (or off)") }
            let off = rest[1].lowercased() == "off"
            self = .timeToLive(try Self.seam(rest[0]), off ? nil : try Self.duration(rest[1], for: "ttl"))
        case "advance":
            guard rest.count == 1 else { throw Self.error("advance D, such as advance 1h (virtual time)") }
            self = .advance(try Self.duration(rest[0], for: "advance"))
        case "profile":
            guard !rest.isEmpty else { throw Self.error("profile NAME [on|off], such as profile Tokyo on") }
            var name = rest
            var on: Bool?
            if name.count >= 2, let last = name.last?.lowercased(), last == "on" || last == "off" {
                on = last == "on"
                name.removeLast()
            }
            self = .profile(name.joined(separator: " "), on: on)
        case "theme":
            self = .theme(rest.isEmpty ? nil : rest.joined(separator: " "))
        case "save":
            switch rest.first?.lowercased() {
            case "recording" where rest.count == 1: self = .saveRecording
            case "profile" where rest.count >= 2: self = .saveProfile(rest.dropFirst().joined(separator: " "))
            default: throw Self.error("save recording, or save profile NAME")
            }
        case "test":
            let pattern = rest.joined(separator: " ")
            guard !pattern.isEmpty else { throw Self.error("test PATTERN (#3, a test's name, *Pears*), or test all") }
            self = .test(["all", "off", "none"].contains(pattern.lowercased()) ? nil : pattern)
        case "help" where rest.isEmpty, "?" where rest.isEmpty:
            self = .help
        case "quit" where rest.isEmpty, "q" where rest.isEmpty:
            self = .quit
        case "help", "quit", "?", "q":
            throw Self.error("\(verb) takes nothing after it")
        default:
            let known = suggestion(for: verb, among: Self.verbs).map { " (did you mean \($0)?)" } ?? ""
            throw Self.error("no command \(verb)\(known); the commands: \(Self.verbs.joined(separator: ", "))")
        }
    }

    /// Whether the line starts with one of the ``verbs`` (so the palette reads it as a command, not a search).
    public static func startsWithVerb(_ line: String) -> Bool {
        guard let first = line.split(separator: " ").first?.lowercased() else { return false }
        return verbs.contains(first)
    }

    private static func error(_ message: String) -> ParseError { ParseError(message: message) }

    private static func seam(_ text: String) throws(ParseError) -> SeamID {
        do { return try SeamID(text) } catch { throw Self.error("\(text) is not a seam id: \(error)") }
    }

    private static func duration(_ text: String, for word: String) throws(ParseError) -> Duration {
        do throws(SpecError) { return try SpecDuration(parsing: text).duration } catch {
            throw Self.error("\(word) \(text): \(error.message); such as 30s, 10m or 1h")
        }
    }
}
