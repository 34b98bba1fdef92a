import Mischief

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Short texts for numbers, durations, times and rates, as the console prints them.
enum Format {
    /// `path` with the home directory written `~`, so a saved file's path fits the status line: `~/.local/…`.
    static func homeRelative(_ path: String, home: String? = ProcessInfo.processInfo.environment["HOME"]) -> String {
        guard let home, home.count > 1, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    /// A count in at most 6 columns: `982`, `12345`, `123.4k`, `12.3M`.
    static func count(_ value: Int) -> String {
        switch value {
        case ..<100_000: String(value)
        case ..<1_000_000: decimal(Double(value) / 1_000) + "k"
        case ..<1_000_000_000: decimal(Double(value) / 1_000_000) + "M"
        default: decimal(Double(value) / 1_000_000_000) + "G"
        }
    }

    /// A rate in calls per second: `0/s`, `0.4/s`, `12/s`, `3.2k/s`.
    static func rate(_ value: Double) -> String {
        switch value {
        case ..<0.05: "0/s"
        case ..<10: decimal(value) + "/s"
        case ..<10_000: String(Int(value.rounded())) + "/s"
        default: count(Int(value.rounded())) + "/s"
        }
    }

    /// One decimal, without a trailing `.0`.
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }

    /// An uptime in two units: `42s`, `5m07s`, `1h02m`, `3d04h`.
    static func uptime(_ duration: Duration) -> String {
        let seconds = max(0, duration.components.seconds)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : String(value) }
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3_600: return "\(seconds / 60)m\(two(seconds % 60))s"
        case ..<86_400: return "\(seconds / 3_600)h\(two(seconds / 60 % 60))m"
        default: return "\(seconds / 86_400)d\(two(seconds / 3_600 % 24))h"
        }
    }

    /// A time left, short enough for the seam list's status column, rounded up (never `0s` while time is left):
    /// `29s`, `5m`, `2h`.
    static func timeLeft(_ duration: Duration) -> String {
        let seconds = Int64(duration.seconds.rounded(.up))
        switch seconds {
        case ..<60: return "\(max(0, seconds))s"
        case ..<3_600: return "\((seconds + 59) / 60)m"
        default: return "\((seconds + 3_599) / 3_600)h"
        }
    }

    /// A time since the registry started, as a clock: `00:12:03`, or `2d 01:00:00` past a day.
    static func elapsed(_ duration: Duration) -> String {
        let seconds = max(0, duration.components.seconds)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : String(value) }
        let clock = "\(two(seconds / 3_600 % 24)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
        return seconds >= 86_400 ? "\(seconds / 86_400)d \(clock)" : clock
    }

    /// When an event at `time` since the target started happened, as the log shows it: that time as a clock
    /// (`00:12:03`), or with `wallClock` the target's wall clock then in `timeZone` (`12:00:05`, from the data's
    /// wall time and uptime; with the date when it is not the data's day).
    static func eventTime(_ time: Duration, wallClock: Bool, data: ConsoleData?, timeZone: TimeZone) -> String {
        guard wallClock, let target = data?.target else { return elapsed(time) }
        let date = wallDate(at: time, of: target)
        let text = dateTime(date, in: timeZone)
        return text.prefix(10) == dateTime(target.wallTime, in: timeZone).prefix(10) ? String(text.dropFirst(11)) : text
    }

    /// The target's wall clock at `time` after it started, from its header's wall time and uptime.
    static func wallDate(at time: Duration, of target: TargetHeader) -> Date {
        target.wallTime.addingTimeInterval(-(target.uptime - time).seconds)
    }

    /// A date and time in a time zone: `2025-05-01 12:00:05`.
    static func dateTime(_ date: Date, in timeZone: TimeZone) -> String {
        let local = date.timeIntervalSince1970.rounded(.down) + Double(timeZone.secondsFromGMT(for: date))
        let text = SpecDate(seconds: Int64(local)).description  // "2025-05-01T12:00:05Z"
        return String(text.dropLast().map { $0 == "T" ? " " : $0 })
    }

    /// A signed offset in up to two units: `+1d`, `+1d2h`, `-3h`, `+5m30s`, `+12s`.
    static func offset(seconds: Double) -> String {
        let total = Int64(seconds.rounded())
        let sign = total < 0 ? "-" : "+"
        var rest = total.magnitude
        var parts: [String] = []
        for (unit, size) in [("d", UInt64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
            parts.append("\(rest / size)\(unit)")
            rest %= size
            if parts.count == 2 {
                break
            }
        }
        return sign + (parts.isEmpty ? "0s" : parts.joined())
    }

    /// The last `width` samples as a sparkline scaled to the largest of them; zero is a space.
    static func sparkline(_ samples: [Double], width: Int, ascii: Bool) -> String {
        let levels: [Character] = ascii ? Array(".:-=+*#%") : Array("▁▂▃▄▅▆▇█")
        let shown = samples.suffix(width)
        let top = shown.max() ?? 0
        var text = String(repeating: " ", count: max(0, width - shown.count))
        for sample in shown {
            if sample <= 0 || top <= 0 {
                text.append(" ")
            } else {
                let level = Int((sample / top * Double(levels.count - 1)).rounded())
                text.append(levels[min(levels.count - 1, max(0, level))])
            }
        }
        return text
    }
}
