import Foundation
import Mischief
import MischiefCatalog

/// The demo's four panels, each a few lines of the target view.
enum DemoPanels {
    /// Halley's Comet's next perihelion.
    static let cometReturn = Date(timeIntervalSince1970: 2_889_216_000)  // 2061-07-28T00:00:00Z
    /// Inner width of the greeting box, in characters (the app does not measure display width: wide text
    /// overflows it, as it would in a real app that counts characters).
    static let boxWidth = 32
    /// Lines of text the greeting box has room for; more are cut with "…".
    static let boxLines = 3

    /// - Parameter pace: app seconds per real second since the last reading, when known; a clock that stands still
    ///   or races is said so under the date.
    static func comet(now: Date, pace: Double? = nil) -> [TargetView.Line] {
        var lines = [TargetView.Line("☄ Halley's Comet returns in", role: "title")]
        let seconds = Int(cometReturn.timeIntervalSince(now))
        if seconds <= 0 {
            lines.append(.init("  It is here! Look up.", role: "accent"))
        } else {
            let (days, hours, minutes) = (seconds / 86_400, seconds % 86_400 / 3_600, seconds % 3_600 / 60)
            lines.append(.init("  \(days) days, \(hours) h, \(minutes) min", role: "accent"))
        }
        lines.append(.init("  today is \(stamp(now))", role: "muted"))
        if let pace, abs(pace) < 0.01 {
            lines.append(.init("  ⏸ time stands still", role: "warning"))
        } else if let pace, pace > 1.5 || pace < 0 {
            lines.append(.init(String(format: "  ⏩ time runs at %.1f×", pace), role: "warning"))
        }
        return lines
    }

    static func weather(place: Result<Coordinate, LocationError>, report: DemoWeather.Report) -> [TargetView.Line] {
        var lines = [TargetView.Line("☂ Weather here", role: "title")]
        switch place {
        case .failure(let error):
            lines.append(.init("  \(error.message)", role: "warning"))
        case .success(let fix):
            let (city, metres) = Cities.nearest(to: fix)
            let name =
                metres < 50_000
                ? "\(city.name), \(city.country)"
                : String(
                    format: "%.3f, %.3f", fix.latitude, fix.longitude)
            lines.append(.init("  \(name)"))
        }
        switch report {
        case .waiting: lines.append(.init("  asking the weather service…", role: "muted"))
        case .offline(let reason): lines.append(.init("  offline (\(reason))", role: "warning"))
        case .answer(let summary, let celsius): lines.append(.init("  \(summary), \(celsius) °C", role: "accent"))
        case .unreadable(let reason): lines.append(.init("  unreadable answer: \(reason)", role: "error"))
        }
        return lines
    }

    static func greeting(strings: ChaosStrings, unread: Int) -> [TargetView.Line] {
        let text = strings.format("greeting.message", "Ada", unread)
        var rows = wrap(text, width: boxWidth)
        if rows.count > boxLines {
            rows = Array(rows.prefix(boxLines))
            rows[boxLines - 1] = String(rows[boxLines - 1].prefix(boxWidth - 1)) + "…"
        }
        var lines = [TargetView.Line("✉ Greeting", role: "title")]
        lines.append(.init("  ┌" + String(repeating: "─", count: boxWidth + 2) + "┐", role: "muted"))
        for row in rows + Array(repeating: "", count: boxLines - rows.count) {
            let padding = String(repeating: " ", count: max(0, boxWidth - row.count))
            lines.append(.init("  │ " + row + padding + " │"))
        }
        lines.append(.init("  └" + String(repeating: "─", count: boxWidth + 2) + "┘", role: "muted"))
        return lines
    }

    static func profile(_ result: Result<DemoUser, any Error>) -> [TargetView.Line] {
        var lines = [TargetView.Line("☺ Profile card", role: "title")]
        switch result {
        case .failure(let error):
            lines.append(.init("  cannot read the profile: \(error)", role: "error"))
        case .success(let user):
            lines.append(.init("  \(user.name)" + (user.nickname.map { " (\($0))" } ?? ""), role: "accent"))
            lines.append(
                .init("  \(user.email) · \(user.age) years · \(user.plan.rawValue)\(user.premium ? " ★" : "")"))
            lines.append(.init("  likes " + (user.tags.isEmpty ? "nothing" : user.tags.joined(separator: ", "))))
            lines.append(.init("  member since \(stamp(user.joined).prefix(10))", role: "muted"))
        }
        return lines
    }

    /// Words into rows of at most `width` characters; a word longer than a row is cut across rows.
    static func wrap(_ text: String, width: Int) -> [String] {
        var rows: [String] = []
        var row = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            while word.count > width {
                if !row.isEmpty { rows.append(row); row = "" }
                rows.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            if row.isEmpty {
                row = String(word)
            } else if row.count + 1 + word.count <= width {
                row += " " + word
            } else {
                rows.append(row)
                row = String(word)
            }
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }

    static func stamp(_ date: Date) -> String {
        date.formatted(.iso8601).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
    }
}
