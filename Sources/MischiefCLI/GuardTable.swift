import Foundation
import Mischief
import MischiefControl

/// How `mischief guard list` and `mischief list` print guards.
enum GuardTable {
    /// A heading and one row a guard (id, state, condition, what it reverts, who added it), a tripped guard's
    /// figures on the line under it; `  no guards` when there are none.
    static func lines(_ guards: [GuardStatus]) -> [String] {
        guard !guards.isEmpty else { return ["  no guards"] }
        let conditions = guards.map(\.definition.condition.description)
        let reverts = guards.map(\.definition.reverts.description)
        let conditionWidth = max(9, conditions.map(\.count).max() ?? 0)
        let revertsWidth = max(7, reverts.map(\.count).max() ?? 0)
        var lines = [
            "  " + pad("GUARD", 5) + "  " + pad("STATE", 8) + "  " + pad("CONDITION", conditionWidth) + "  "
                + pad("REVERTS", revertsWidth) + "  SOURCE"
        ]
        for (index, status) in guards.enumerated() {
            lines.append(
                "  " + pad(String(status.id), 5) + "  " + pad(status.stateName, 8) + "  "
                    + pad(conditions[index], conditionWidth) + "  " + pad(reverts[index], revertsWidth) + "  "
                    + status.source)
            if case .tripped(let time, let reason) = status.state {
                lines.append("         tripped at uptime \(uptime(time)): \(reason)")
            }
        }
        return lines
    }

    /// The guards as JSON, in the form of `GET /v1/guards`, pretty-printed with sorted keys.
    static func json(_ guards: [GuardStatus]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(guards), as: UTF8.self)
    }

    /// Uptime as `12s`, `3m 4s` or `2h 5m`.
    static func uptime(_ time: Duration) -> String {
        let seconds = Int(time.components.seconds)
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m \(seconds % 60)s" }
        return "\(seconds / 3600)h \(seconds % 3600 / 60)m"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
