import Foundation

/// Waits for a condition by checking it again and again until a deadline: explicit synchronisation on what a
/// program shows, never a fixed sleep.
public enum Poll {
    /// A failed end-to-end step, with what was seen last.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    /// Checks `probe` every `interval` until it returns a value, and returns that value.
    ///
    /// - Parameters:
    ///   - what: what is awaited, for the failure message ("the countdown to change").
    ///   - timeout: how long to keep trying; a minute by default, because CI runs every end-to-end test at once on
    ///     two cores (20 s was seen to run out there), and a wait that succeeds costs no more for it.
    ///   - interval: the pause between two checks.
    ///   - lastSeen: what the program showed at the last check, for the failure message.
    ///   - probe: the check; `nil` means "not yet".
    /// - Throws: `Failure` naming `what` and showing `lastSeen()` when the deadline passes.
    @discardableResult
    public static func until<Value>(
        _ what: String, timeout: Duration = .seconds(60), interval: Duration = .milliseconds(50),
        lastSeen: () -> String, probe: () async throws -> Value?
    ) async throws -> Value {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if let value = try await probe() { return value }
            if clock.now >= deadline {
                throw Failure(
                    description: "timed out after \(timeout) waiting for \(what); last seen (in ASCII):\n"
                        + ascii(lastSeen()))
            }
            try await Task.sleep(for: interval)
        }
    }

    /// Waits until the file at `url` holds a complete last line, and returns its text.
    public static func file(_ url: URL, timeout: Duration = .seconds(60), lastSeen: () -> String) async throws -> String
    {
        try await until("\(url.lastPathComponent) to be written", timeout: timeout, lastSeen: lastSeen) {
            guard let text = try? String(contentsOf: url, encoding: .utf8), text.hasSuffix("\n") else { return nil }
            return text
        }
    }

    /// `text` in ASCII, trailing spaces trimmed: box drawing and dashes as `-|+`, blocks as `#`, marks `●○◐·…` as
    /// `*o@.~`, anything else as `?`.
    ///
    /// `swift test` drops a failure message whose output chunk ends inside a multi-byte character, which a screen
    /// full of box drawing nearly always does; in ASCII it cannot.
    public static func ascii(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            if scalar.isASCII { return scalar }
            switch scalar.value {
            case 0x2500, 0x2501, 0x2550, 0x2013, 0x2014: return "-"
            case 0x2502, 0x2503, 0x2551: return "|"
            case 0x2500...0x257F: return "+"
            case 0x2580...0x259F: return "#"
            case 0x25CF: return "*"
            case 0x25CB: return "o"
            case 0x25D0: return "@"
            case 0xB7: return "."
            case 0x2026: return "~"
            default: return "?"
            }
        }
        var unicode = String.UnicodeScalarView()
        unicode.append(contentsOf: scalars)
        return String(unicode).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacing(/\s+$/, with: "") }.joined(separator: "\n")
    }
}
