import Mischief
import MischiefConsole

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HostileText {
    /// Console data whose every target-controlled string is hostile: the target's name and view, seam titles,
    /// categories, summaries, signatures, behaviours, actions and parameters, profile names, event sources and
    /// messages, and the reason a connection was lost. Event kinds are the core's enum: a target cannot make one up.
    mutating func consoleData() -> ConsoleData {
        let statuses: [RevertStatus] = [.active, .neverApplied, .reverted, .reverting]
        let seams = (0..<(1 + count(below: 30))).map { index in
            SeamSnapshot(
                id: try! SeamID("hostile.seam-\(index)"), title: next(), category: next(), summary: next(),
                signature: next(), behaviour: maybe(), calls: count(below: 2_000_000_000),
                chaosCalls: count(below: 1_000), errors: count(below: 3), inFlight: count(below: 2),
                status: statuses[count(below: statuses.count)], actions: actions())
        }
        let profiles = (0..<count(below: 12)).map { index in
            ProfileStatus(
                Profile(name: next(), description: maybe(), key: index < 9 ? index + 1 : nil, entries: []),
                isActive: count(below: 2) == 0)
        }
        let roles = StyleRole.allCases.map(\.rawValue) + ["sparkly"]
        let kinds: [Event.Kind] = [.registered, .applied, .reverted, .revertCompleted, .refused, .report, .problem]
        let events = (0..<count(below: 60)).map { index in
            Event(
                id: index + 1, time: .seconds(index * 7), kind: kinds[count(below: kinds.count)],
                seam: seams[index % seams.count].id,
                source: maybe(), message: next())
        }
        let lines = (0..<count(below: 90)).map { _ in
            TargetView.Line(next(), role: count(below: 3) == 0 ? next() : roles[count(below: roles.count)])
        }
        return ConsoleData(
            target: TargetHeader(
                name: next(), pid: 4242, uptime: .seconds(count(below: 400_000)), sessionSeed: 7,
                wallTime: Date(timeIntervalSince1970: 1_746_100_800),
                targetTime: count(below: 2) == 0 ? nil : Date(timeIntervalSince1970: 4_102_444_800)),
            seams: seams, profiles: profiles, events: events, view: TargetView(title: next(), lines: lines),
            connection: count(below: 4) == 0 ? .lost(next()) : .connected)
    }

    /// A seam's actions, with hostile names, summaries and parameters.
    private mutating func actions() -> [ActionSignature] {
        (0..<count(below: 5)).map { _ in
            ActionSignature(
                next(), summary: next(),
                parameters: (0..<count(below: 3)).map { _ in
                    .init(
                        next(), .init(name: next(), choices: next(count(below: 3))),
                        default: maybe().map(Spec.Value.word), step: maybe().map(Spec.Value.word), summary: next())
                }, composes: count(below: 2) == 0)
        }
    }
}
