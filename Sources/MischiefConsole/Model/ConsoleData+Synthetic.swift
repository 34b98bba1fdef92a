import Mischief

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConsoleData {
    /// Made-up data of any size, for render benchmarks and demos: `seams` seams in eight categories (every
    /// third active, some reverted or reverting), four profiles, `events` events and a short target view.
    ///
    /// `frame` moves call counts and uptime on, so successive frames show call rates.
    public static func synthetic(seams count: Int, events eventCount: Int = 200, frame: Int = 0) -> ConsoleData {
        let categories = ["Clock", "Location", "L10n", "Model", "Network", "Storage", "Auth", "Payments"]
        let actions = [
            ActionRow(
                name: "shift", summary: "moves the value",
                parameters: [
                    .init(name: "by", kind: "duration", defaultValue: "1d", step: "1d", summary: "how far")
                ], composes: true),
            ActionRow(
                name: "delay", summary: "waits, then runs what follows",
                parameters: [
                    .init(name: "for", kind: "duration", step: "100ms", summary: "how long")
                ], composes: true),
            ActionRow(
                name: "throw", summary: "throws an error",
                parameters: [
                    .init(name: "message", kind: "string", defaultValue: "\"injected\"", summary: "the error")
                ], composes: true),
            ActionRow(name: "off", summary: "the original runs"),
        ]
        let statuses: [RevertStatus] = [.active, .neverApplied, .reverted, .active, .neverApplied, .reverting]
        var seams: [SeamRow] = []
        seams.reserveCapacity(count)
        for index in 0..<count {
            let category = categories[index % categories.count]
            let status = statuses[index % statuses.count]
            let calls = (index * 37 + frame * (index % 11)) % 1_000_000
            seams.append(
                SeamRow(
                    id: try! SeamID("\(category.lowercased()).seam-\(index)"), title: "\(category) seam \(index)",
                    category: category, summary: "Synthetic seam number \(index)", signature: "(Void) -> Int",
                    behaviour: status == .active ? "delay(\(100 + index % 5 * 50)ms)" : nil,
                    spec: status == .active ? "delay(\(100 + index % 5 * 50)ms)" : nil, calls: calls,
                    chaosCalls: status == .active ? calls / 2 : 0, errors: index % 13 == 0 ? 1 : 0,
                    inFlight: status == .reverting ? 1 : 0, status: status, actions: actions))
        }
        let kinds = ["applied", "reverted", "report", "refused"]
        let events = (0..<eventCount).map { index in
            EventRow(
                id: index + 1, time: .seconds(index), kind: kinds[index % kinds.count],
                seam: seams.isEmpty ? nil : seams[index % seams.count].id, source: "console",
                message: index % 4 == 3 ? "unknown action 'x'\n  x\n  ^" : "event \(index)")
        }
        let profiles = (1...4).map { ProfileRow(name: "Profile \($0)", key: $0, isOn: $0 == 2, entryCount: $0) }
        return ConsoleData(
            target: TargetHeader(
                name: "synthetic", pid: 1, uptime: .seconds(60 + frame), sessionSeed: 1,
                wallTime: Date(timeIntervalSince1970: 1_746_100_800 + Double(frame))),
            seams: seams, profiles: profiles, events: events,
            view: TargetView(title: "Synthetic", lines: [.init("frame \(frame)"), .init("東京 ☀️", role: "accent")]))
    }
}
