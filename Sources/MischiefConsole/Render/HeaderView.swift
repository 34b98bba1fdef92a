import Mischief

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The two header rows: who the target is, its clocks and active profiles, and the connection.
enum HeaderView {
    static func draw(_ state: ConsoleState, in rect: Rect, on canvas: inout Canvas) {
        guard let data = state.data else {
            canvas.spans(
                [.init(" Mischief ", .title, bold: true), .init("· waiting for the target…", .muted)],
                x: rect.x, y: rect.y, maxWidth: rect.width)
            return
        }
        let target = data.target
        let connection: Canvas.Span =
            switch data.connection {
            case .connected where state.commandsInFlight > 0: .init("⧗ waiting for the target", .warning)
            case .connected: .init("● connected", .active)
            case .lost(let reason): .init("✕ lost: \(reason)", .error, bold: true)
            }
        let connectionWidth = min(DisplayWidth.of(connection.text), rect.width / 2)
        canvas.rightAligned(
            connection.text, right: rect.maxX - 1, y: rect.y, connection.role,
            maxWidth: connectionWidth)
        canvas.spans(
            [
                .init(" Mischief ", .title, bold: true), .init("· ", .muted), .init(target.name, .text, bold: true),
                .init("  pid ", .muted), .init(String(target.pid)),
                .init("  up ", .muted), .init(Format.uptime(target.uptime)),
                .init("  seed ", .muted), .init(String(target.sessionSeed)),
            ], x: rect.x, y: rect.y, maxWidth: rect.width - connectionWidth - 2)

        // A lost target's clocks stand at when it was last seen; say so rather than show a stopped clock.
        var second: [Canvas.Span] = [
            .init(state.isStale ? " last seen " : " wall ", state.isStale ? .warning : .muted),
            .init(Format.dateTime(target.wallTime, in: state.timeZone)),
        ]
        if let targetTime = target.targetTime {
            let offset = targetTime.timeIntervalSince(target.wallTime)
            second.append(.init("  target ", .muted))
            if abs(offset) < 1 {
                second.append(.init("= wall", .muted))
            } else {
                second.append(.init(Format.dateTime(targetTime, in: state.timeZone), .warning))
                second.append(.init(" " + Format.offset(seconds: offset), .warning, bold: true))
            }
        }
        second.append(.init("  profiles ", .muted))
        let active = data.profiles.filter(\.isActive).map(\.profile.name)
        second.append(active.isEmpty ? .init("none", .muted) : .init(active.joined(separator: ", "), .active))
        canvas.spans(second, x: rect.x, y: rect.y + 1, maxWidth: rect.width)
    }
}
