import Foundation
import MischiefTestSupport

/// What `mischief demo` shows, read from a captured screen (`tmux capture-pane -p`).
struct DemoScreen {
    /// One row of the Seams table: the seam's title (as far as the column shows it) and its status column.
    struct SeamRow: Equatable {
        let title: String
        let status: String
    }

    /// The screen's rows, top to bottom.
    let lines: [String]

    init(_ text: String) {
        let rows = text.hasSuffix("\n") ? text.dropLast() : Substring(text)
        lines = rows.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Row `index` (from 0), or an empty string past the bottom.
    func row(_ index: Int) -> String { lines.indices.contains(index) ? lines[index] : "" }

    /// The whole screen, as captured.
    var text: String { lines.joined(separator: "\n") }

    /// The bottom row that has text on it: the status line with the key hints.
    var statusLine: String { lines.last { !$0.allSatisfy(\.isWhitespace) } ?? "" }

    /// The process id the header's first row shows (`pid 12345`).
    var pid: Int32? {
        guard let first = lines.first, let match = first.firstMatch(of: /pid (\d+)/) else { return nil }
        return Int32(match.1)
    }

    /// The whole days of the demo's countdown to Halley's Comet (`12661 days, 11 h, 10 min`).
    var countdownDays: Int? {
        guard text.contains("Halley's Comet returns in"), let match = text.firstMatch(of: /(\d+) days, \d+ h/)
        else { return nil }
        return Int(match.1)
    }

    /// The Calls column of the Seams table's row titled `title`.
    func calls(of title: String) -> Int? {
        for line in lines {
            // Mark, title, behaviour (one word here), calls, chaos.
            guard let range = line.range(of: "\(title) ") else { continue }
            if let match = line[range.upperBound...].firstMatch(of: /^\s*\S+\s+(\d+)\s+\d+/) {
                return Int(match.1)
            }
        }
        return nil
    }

    /// The rows of the Seams table (the left-hand box), marked `●` active, `◐` reverting, `○` reverted or `·` never
    /// applied.
    var seamRows: [SeamRow] {
        lines.compactMap { line in
            let cells = line.split(separator: "│", omittingEmptySubsequences: false)
            guard line.hasPrefix("│"), cells.count > 1 else { return nil }
            let cell = cells[1]
            guard let match = cell.firstMatch(of: /^ [●◐○·] (.+?)(?:  |… )/) else { return nil }
            let last = cell.split(separator: " ").last.map(String.init) ?? ""
            let status = last.allSatisfy(\.isLetter) ? last : ""
            return SeamRow(title: String(match.1), status: status)
        }
    }

    /// Whether the Profiles bar shows preset `key` named `name` as on (`2 ●Tokyo`); `nil` when it is not shown.
    func profile(_ key: Int, _ name: String) -> Bool? {
        // The bar wraps: its rows run from ` Profiles` to the status line.
        guard let first = lines.firstIndex(where: { $0.hasPrefix(" Profiles") }) else { return nil }
        let bar = lines[first..<max(first + 1, lines.count - 1)].joined(separator: "\n")
        if bar.contains("\(key) ●\(name)") { return true }
        if bar.contains("\(key) ○\(name)") { return false }
        return nil
    }
}
