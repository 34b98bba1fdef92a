import Foundation
import Mischief

/// A recording built from fuzz input: a valid header for a target with `f.count` and `f.name`, then one line for each
/// chunk of the input. Most lines are JSON objects whose every key is either left out, given a value that fits, or
/// given a hostile one (numbers at and past the limits, the wrong type, control characters, text that tries to end
/// a Swift literal, a YAML scalar or a shell quote); some are the input's bytes as they are.
struct HostileRecording {
    /// The recording's text: the header line, then the lines.
    private(set) var text: String
    private var bytes: [UInt8]
    private var position = 0
    private var event = 0

    /// The seams the header lists.
    static let seams: [SeamID] = ["f.count", "f.name"]

    /// Builds the text from `input`.
    init(_ input: UnsafeRawBufferPointer) {
        bytes = Array(input)
        let header = Recording.Header(
            target: "fuzz", pid: 1, sessionSeed: 7, started: 1_000,
            seams: Self.seams.map { Recording.Header.Seam(id: $0, title: $0.rawValue, actions: ["return"]) })
        text = Recording(header: header, entries: []).jsonLines
        while position < bytes.count { text += nextLine() + "\n" }
    }

    private mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// Up to `limit` bytes of the input, as they are.
    private mutating func chunk(_ limit: Int) -> [UInt8] {
        let count = min(Int(byte()) % (limit + 1), bytes.count - position)
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    private mutating func nextLine() -> String {
        let choice = byte()
        if choice % 16 == 0 {
            // The input's own bytes, a line break in them ending the line early.
            return String(decoding: chunk(255).prefix { $0 != 0x0A }, as: UTF8.self)
        }
        event += 1
        let kinds = ["applied", "reverted", "report", "registered", "decision", "guard-tripped", "problem", "bogus"]
        var fields: [(String, String)] = []
        let kind = kinds[Int(choice / 16) % kinds.count]
        let keys: [(String, () -> String)] = [
            ("event", { [event] in "\(event)" }),
            ("kind", { Self.quoted(kind) }),
            ("seam", { Self.quoted(Self.seams[Int(choice) % 2].rawValue) }),
            ("source", { Self.quoted("spec") }),
            ("message", { Self.quoted("guard 1 added: errors(f.count) > 50% over 10s reverts everything") }),
            ("time", { "0.5" }),
            ("wall", { "1000.5" }),
            ("call", { "\(choice % 5)" }),
            ("layer", { "\(choice % 3 + 1)" }),
            ("spec", { Self.quoted(choice % 2 == 0 ? "return(1)" : #"return("x")"#) }),
            ("seed", { "42" }),
            ("seeds", { "[1,2]" }),
            ("ttl", { "30" }),
            ("advanced", { "1" }),
            ("outcome", { Self.quoted(["layer", "live", "dropped", "threw"][Int(choice) % 4]) }),
            ("value", { Self.quoted("1") }),
            ("after", { "\(choice % 3)" }),
            ("live", { "true" }),
        ]
        for (key, fitting) in keys {
            let pick = byte()
            switch pick % 8 {
            case 0: continue  // missing
            case 1: fields.append((key, Self.numbers[Int(pick / 8) % Self.numbers.count]))
            case 2: fields.append((key, Self.wrongTypes[Int(pick / 8) % Self.wrongTypes.count]))
            case 3: fields.append((key, Self.quoted(Self.hostileText[Int(pick / 8) % Self.hostileText.count])))
            case 4: fields.append((key, Self.quoted(String(decoding: chunk(40), as: UTF8.self))))
            default: fields.append((key, fitting()))
            }
        }
        return "{" + fields.map { "\(Self.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// Numbers at and past what each key takes.
    static let numbers = [
        "0", "-1", "1", "-0", "0.5", "1e-300", "1e16", "1e20", "1e300", "-1e300", "1.7976931348623157e308",
        "9007199254740993", "2147483648", "4294967296", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "18446744073709551615", "18446744073709551616", "1e400",
    ]

    /// Values of the wrong type for any key.
    static let wrongTypes = ["null", "true", "\"1\"", "[]", "[1]", "{}", "{\"a\":1}", "\"\"", "[[[[]]]]"]

    /// Text that tries to end a Swift literal or comment, a YAML scalar or a shell quote, or a terminal's sanity.
    static let hostileText = [
        "f.count", "no.such", "", "return(1)", #"throw("x")"#, "delay(1d)", "crash", "\u{0}", "\u{1B}[2J\u{7}",
        "\n@Test func INJECTED() {}\n", "\r@Test func INJECTED() {}", "\"); INJECTED(); _ = (\"",
        "\"#); INJECTED(); _ = (#\"", "\\(INJECTED())", "\\#(INJECTED())", "*/ INJECTED() /*", "\u{2028}INJECTED",
        "\u{85}INJECTED: 1", "\nINJECTED: 1\n", "x: 1\nINJECTED: [", "'; INJECTED; '", "' INJECTED='", "$(INJECTED)",
        "`INJECTED`", "\u{202E}INJECTED", "\"\"\"\nINJECTED()\n\"\"\"", "#\"\"\"#INJECTED", "- INJECTED",
        "{INJECTED: 1}", "&a INJECTED", "*a", "!!python/object INJECTED", "% INJECTED", "--- \nINJECTED: 1",
    ]

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
