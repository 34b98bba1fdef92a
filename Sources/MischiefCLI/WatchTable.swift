import ArgumentParser
import Dispatch
import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import MischiefFiles

/// The table `watch` keeps.
struct WatchTable {
    let target: TargetHeader
    var rows: [SeamID: SeamUpdate] = [:]
    var order: [SeamID]
    var recent: [String] = []

    init(target: TargetHeader, seams: [SeamSnapshot]) {
        self.target = target
        self.order = seams.map(\.id)
    }

    mutating func note(_ event: Event) {
        recent.append(Self.line(event))
        if recent.count > 8 { recent.removeFirst(recent.count - 8) }
    }

    /// Takes updates; returns a log line for each.
    mutating func update(_ updates: [SeamUpdate]) -> [String] {
        var lines: [String] = []
        for update in updates {
            let before = rows[update.seam]
            rows[update.seam] = update
            if !order.contains(update.seam) { order.append(update.seam) }
            let delta = before.map { update.counters.calls - $0.counters.calls } ?? 0
            lines.append(
                "\(Self.timestamp()) \(update.seam) calls=\(update.counters.calls) (+\(delta)) chaos=\(update.counters.chaosCalls) "
                    + "errors=\(update.counters.errors) \(update.status.rawValue)"
                    + (update.behaviour.map { " \($0)" } ?? ""))
        }
        return lines
    }

    /// The table; with `columns` (the terminal's width), a long behaviour wraps between words onto lines of its own
    /// column, never in the middle of a word as the terminal would.
    func render(columns: Int? = nil) -> String {
        let width = max(4, order.map(\.rawValue.count).max() ?? 0)
        let behaviourColumn = width + 3 * 10 + 2 + 13 + 2
        var out = "\(target.name) (pid \(target.pid))  \(Self.timestamp())\n\n"
        out +=
            "SEAM".padding(toLength: width, withPad: " ", startingAt: 0)
            + "     CALLS     CHAOS    ERRORS  STATUS         BEHAVIOUR\n"
        for id in order {
            guard let row = rows[id] else { continue }
            out +=
                id.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                + Self.right(row.counters.calls, 10) + Self.right(row.counters.chaosCalls, 10)
                + Self.right(row.counters.errors, 10) + "  "
                + row.status.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0) + "  "
                + Self.wrapped(
                    row.behaviour ?? "-", width: columns.map { $0 - behaviourColumn }, indent: behaviourColumn)
                + "\n"
        }
        if !recent.isEmpty { out += "\n" + recent.joined(separator: "\n") + "\n" }
        return out
    }

    /// `text` in lines of at most `width` characters, broken between words (a word longer than a line is cut), the
    /// lines after the first indented by `indent` spaces; unchanged without a width or with too little of one.
    static func wrapped(_ text: String, width: Int?, indent: Int) -> String {
        guard let width, width >= 12, text.count > width else { return text }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            while word.count > width {
                if !current.isEmpty {
                    lines.append(current)
                    current = ""
                }
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    static func line(_ event: Event) -> String {
        "\(timestamp()) \(event.kind.rawValue) \(event.seam.map { "\($0) " } ?? "")\(event.message)"
            + (event.source.map { " [\($0)]" } ?? "")
    }

    private static func right(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }
}
