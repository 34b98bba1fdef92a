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
    package static func synthetic(seams count: Int, events eventCount: Int = 200, frame: Int = 0) -> ConsoleData {
        let categories = ["Clock", "Location", "L10n", "Model", "Network", "Storage", "Auth", "Payments"]
        let actions = [
            ActionSignature(
                "shift", summary: "moves the value",
                parameters: [
                    .init("by", .duration, default: .init(text: "1d"), step: .init(text: "1d"), summary: "how far")
                ],
                composes: true),
            ActionSignature(
                "delay", summary: "waits, then runs what follows",
                parameters: [.init("for", .duration, step: .init(text: "100ms"), summary: "how long")], composes: true),
            ActionSignature(
                "throw", summary: "throws an error",
                parameters: [.init("message", .string, default: .string("injected"), summary: "the error")],
                composes: true),
            ActionSignature("off", summary: "the original runs"),
        ]
        let statuses: [RevertStatus] = [.active, .neverApplied, .reverted, .active, .neverApplied, .reverting]
        var seams: [SeamSnapshot] = []
        seams.reserveCapacity(count)
        for index in 0..<count {
            let category = categories[index % categories.count]
            let status = statuses[index % statuses.count]
            let calls = (index * 37 + frame * (index % 11)) % 1_000_000
            seams.append(
                SeamSnapshot(
                    id: try! SeamID("\(category.lowercased()).seam-\(index)"), title: "\(category) seam \(index)",
                    category: category, summary: "Synthetic seam number \(index)", signature: "(Void) -> Int",
                    behaviour: status == .active ? "delay(\(100 + index % 5 * 50)ms)" : nil,
                    spec: status == .active ? "delay(\(100 + index % 5 * 50)ms)" : nil, calls: calls,
                    chaosCalls: status == .active ? calls / 2 : 0, errors: index % 13 == 0 ? 1 : 0,
                    inFlight: status == .reverting ? 1 : 0, status: status, actions: actions))
        }
        let kinds: [Event.Kind] = [.applied, .reverted, .report, .refused]
        let events = (0..<eventCount).map { index in
            Event(
                id: index + 1, time: .seconds(index), kind: kinds[index % kinds.count],
                seam: seams.isEmpty ? nil : seams[index % seams.count].id, source: "console",
                message: index % 4 == 3 ? "unknown action 'x'\n  x\n  ^" : "event \(index)")
        }
        let profileSeams: [SeamID] = seams.isEmpty ? ["clock.now"] : seams.map(\.id)
        let profiles = (1...4).map { number in
            let entries = (0..<number).map { SeamSpec(seam: profileSeams[$0 % profileSeams.count], spec: "off") }
            let profile = Profile(name: "Profile \(number)", key: number, entries: entries)
            return ProfileStatus(profile, isActive: number == 2)
        }
        return ConsoleData(
            target: TargetHeader(
                name: "synthetic", pid: 1, uptime: .seconds(60 + frame), sessionSeed: 1,
                wallTime: Date(timeIntervalSince1970: 1_746_100_800 + Double(frame))),
            seams: seams, profiles: profiles, events: events,
            view: TargetView(title: "Synthetic", lines: [.init("frame \(frame)"), .init("東京 ☀️", role: "accent")]))
    }
}
