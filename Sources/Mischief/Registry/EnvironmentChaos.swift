/// Chaos configured before the program starts, for jobs that cannot run a console: the `MISCHIEF_APPLY`
/// environment variable, in the tradition of fail-rs's `FAILPOINTS` and gofail's `GOFAIL_FAILPOINTS`.
///
/// ```sh
/// MISCHIEF_APPLY='clock.now=shift(+1d); net.request=50% offline' swift test
/// ```
/// Entries are `SEAM=SPEC`, separated by `;` (a `;` inside a quoted string belongs to the spec:
/// `greeting.text=return("a;b")`). Space around entries is ignored, and so is an empty entry.
///
/// The whole value is checked when ``Registry/shared`` starts: one bad entry (a seam id that is not one, a
/// spec that does not parse, a seam named twice) and nothing is applied. Each entry then applies when its seam
/// registers, with the source `MISCHIEF_APPLY`; if one does not fit its seam (an action the seam does not have),
/// everything the variable applied is reverted and the failure reported. Both go to stderr and the event log.
public struct EnvironmentChaos: Sendable, Equatable, CustomStringConvertible {
    /// The variable the shared registry reads: `MISCHIEF_APPLY`.
    public static let variable = "MISCHIEF_APPLY"

    /// The entries, in the order given.
    public let entries: [SeamSpec]
    /// Where they come from: `MISCHIEF_APPLY`, or `MISCHIEF_PROFILE` (MischiefFiles); messages name it.
    public let source: String

    /// Entries from elsewhere than `MISCHIEF_APPLY` (a profile file, say). A seam may be named more than once:
    /// its entries apply in order.
    ///
    /// - Throws: ``EnvironmentChaosError`` naming the first entry whose spec does not parse.
    public init(entries: [SeamSpec], source: String) throws(EnvironmentChaosError) {
        for (index, entry) in entries.enumerated() {
            do throws(SpecError) {
                _ = try Spec(parsing: entry.spec)
            } catch {
                throw EnvironmentChaosError(
                    entry: index + 1, text: entry.description, reason: error.description, source: source)
            }
        }
        self.entries = entries
        self.source = source
    }

    /// Parses the variable's value.
    ///
    /// - Throws: ``EnvironmentChaosError`` naming the entry (by number and text) and what is wrong with it.
    public init(parsing text: String) throws(EnvironmentChaosError) {
        var entries: [SeamSpec] = []
        var named: Set<SeamID> = []
        for (index, piece) in try Self.split(text).enumerated() {
            let entry = Self.trimmed(piece)
            guard !entry.isEmpty else { continue }
            let number = index + 1
            func failure(_ reason: String) -> EnvironmentChaosError {
                EnvironmentChaosError(entry: number, text: entry, reason: reason)
            }
            guard let equals = entry.firstIndex(of: "=") else {
                throw failure("expected SEAM=SPEC, such as clock.now=shift(+1d)")
            }
            let id = Self.trimmed(Substring(entry[..<equals]))
            let spec = Self.trimmed(Substring(entry[entry.index(after: equals)...]))
            let seam: SeamID
            do throws(MischiefError) {
                seam = try SeamID(id)
            } catch {
                throw failure(error.description)
            }
            guard !spec.isEmpty else { throw failure("the spec after '=' is empty") }
            do throws(SpecError) {
                _ = try Spec(parsing: spec)
            } catch {
                throw failure(error.description)
            }
            guard named.insert(seam).inserted else {
                throw failure("\(seam) is named twice; put both in one spec: \(seam)=a + b, or a -> b")
            }
            entries.append(SeamSpec(seam: seam, spec: spec))
        }
        self.entries = entries
        self.source = Self.variable
    }

    /// The entries as they would be written back: `a=x; b=y`.
    public var description: String {
        entries.map(\.description).joined(separator: "; ")
    }

    /// `entries` as one value of the variable, `seam=spec;seam=spec`: what the console's `Y` copies and
    /// `mischief export --as env` writes, so both read back alike with ``init(parsing:)``. It is one line: a spec
    /// holding a line break or another control character (raw, inside a string, as a recording from outside may
    /// have it) is written in its canonical form, which escapes them (`\n`, `\u0007`) and reads back the same.
    public static func value(of entries: [SeamSpec]) -> String {
        entries.map { entry in
            guard entry.spec.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
                let spec = try? Spec(parsing: entry.spec)
            else { return entry.description }
            return "\(entry.seam)=\(spec)"
        }.joined(separator: ";")
    }

    /// Splits on `;` outside double-quoted strings (whose `\"` and `\\` do not end them).
    static func split(_ text: String) throws(EnvironmentChaosError) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        var quoted = false
        var escaped = false
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted {
                if character == "\\" { escaped = true } else if character == "\"" { quoted = false }
            } else if character == "\"" {
                quoted = true
            } else if character == ";" {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        pieces.append(text[start...])
        if quoted {
            throw EnvironmentChaosError(
                entry: pieces.count, text: trimmed(pieces[pieces.count - 1]),
                reason: "a quoted string is not closed: add the closing \"")
        }
        return pieces
    }

    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

/// Why `MISCHIEF_APPLY` was refused: which entry (from 1), its text, and what is wrong.
public struct EnvironmentChaosError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entry's number, counting from 1 along the `;`-separated value.
    public let entry: Int
    /// The entry's text.
    public let text: String
    /// What is wrong with it.
    public let reason: String
    /// The variable or file the entry came from.
    public let source: String

    /// An error for entry `entry` of `source`.
    public init(entry: Int, text: String, reason: String, source: String = EnvironmentChaos.variable) {
        self.entry = entry
        self.text = text
        self.reason = reason
        self.source = source
    }

    /// `MISCHIEF_APPLY entry 2 'net.request=50% ofline': …`.
    public var description: String {
        "\(source) entry \(entry) '\(text)': \(reason)"
    }
}
