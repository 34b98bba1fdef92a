import Mischief

/// The command lines that make a change the event log shows: `mischief apply clock.now 'shift(+3h)' --socket …`
/// and the `curl` line that asks the control API for the same. The event log shows them for the selected change
/// (Enter) and copies them (`y`, `Y`).
public struct ChangeCommands: Sendable, Equatable {
    /// The `mischief` command line.
    public var cli: String
    /// The `curl` command line.
    public var curl: String

    /// What the lines name when the console has no socket path (in process): the variable `mischief` reads too.
    public static let socketVariable = "$MISCHIEF_SOCKET"

    /// The lines for `event` on the target at `socket` (nil: ``socketVariable``); nil for an event that is not an
    /// apply or a revert of a seam, or whose behaviour was built in code and has no spec.
    public static func lines(for event: Event, socket: String?) -> ChangeCommands? {
        guard let seam = event.seam else { return nil }
        let path = socket.map(quoted) ?? "\"\(socketVariable)\""
        let url = "http://localhost/v1/seams/\(seam.rawValue)"
        switch event.kind {
        case .applied:
            guard let (spec, ttl) = specAndTTL(of: event.message) else { return nil }
            let ttlOption = ttl.map { " --ttl \(quoted($0))" } ?? ""
            let query = ttl.map { "?ttl=\($0)" } ?? ""
            return ChangeCommands(
                cli: "mischief apply \(seam) \(quoted(spec))\(ttlOption) --socket \(path)",
                curl:
                    "curl --unix-socket \(path) -X PUT \(quoted(url + query)) -H 'Content-Type: text/plain' "
                    + "--data-binary \(quoted(spec))")
        case .reverted:
            return ChangeCommands(
                cli: "mischief revert \(seam) --socket \(path)",
                curl: "curl --unix-socket \(path) -X DELETE \(quoted(url))")
        default:
            return nil
        }
    }

    /// The spec and time to live an `applied` event's message names: `shift(+3h) (seed 7) (ttl 30s)`; nil when the
    /// behaviour is not a spec (built in code).
    static func specAndTTL(of message: String) -> (spec: String, ttl: String?)? {
        var text = Substring(message)
        var ttl: String?
        if let (rest, value) = suffix(of: text, opening: " (ttl ") {
            ttl = String(value)
            text = rest
        }
        if let (rest, value) = suffix(of: text, opening: " (seed "),
            value.allSatisfy({ $0.isNumber || $0 == "," || $0 == " " })
        {
            text = rest
        }
        let spec = String(text)
        guard !spec.isEmpty, spec != "closure", (try? Spec(parsing: spec)) != nil else { return nil }
        return (spec, ttl)
    }

    /// `text` without a last `opening…)` part, and what that part holds; nil when it does not end so.
    private static func suffix(of text: Substring, opening: String) -> (Substring, Substring)? {
        guard text.hasSuffix(")") else { return nil }
        var start = text.endIndex
        while start > text.startIndex {
            start = text.index(before: start)
            if text[start...].hasPrefix(opening) {
                let value = text[text.index(start, offsetBy: opening.count)..<text.index(before: text.endIndex)]
                return value.contains(")") ? nil : (text[..<start], value)
            }
        }
        return nil
    }

    /// `text` in single quotes for a POSIX shell (a quote inside as `'\''`).
    static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
