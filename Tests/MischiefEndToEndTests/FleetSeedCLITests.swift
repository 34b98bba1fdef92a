import Foundation
import Mischief
import MischiefTestSupport
import Testing

/// `--seed` with `--all-targets`: each target derives its own seed from the one given and its label, so the same
/// command gives the same seeds every time, and no two targets the same.
@Suite(.oneAtATime) struct FleetSeedCLITests {
    @Test func aFleetGivenOneSeedIsReproducibleAndItsTargetsDiffer() async throws {
        let directory = try HeadlessDemo.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var demos: [HeadlessDemo] = []
        defer { for demo in demos { demo.kill() } }
        for (index, label) in [nil, nil, "canary"].enumerated() {
            let arguments = label.map { ["--label", $0] } ?? []
            demos.append(
                try await HeadlessDemo.start(in: directory, seed: 30 + index, socketName: nil, arguments: arguments))
        }
        let labels = try demos.map { try ($0.get("target") as? [String: Any])?["label"] as? String }
        #expect(labels == ["demo#0", "demo#1", "canary"], "started one after another, unless labelled")

        func seeds() throws -> [[UInt64]] {
            try demos.map { demo in
                let layers = try demo.seam("net.request")["layers"] as? [[String: Any]] ?? []
                return (layers.last?["seeds"] as? [NSNumber] ?? []).map(\.uint64Value)
            }
        }
        let apply = ["apply", "--all-targets", "--seed", "7", "net.request", "50% offline"]
        let first = try HeadlessDemo.mischief(apply, in: directory)
        #expect(first.status == 0, "\(first.output)\n\(first.error)")
        for label in labels {
            let derived = SeededGenerator.seed(7, for: label ?? "")
            #expect(first.output.contains("(seed \(derived) as \(label ?? ""))"), "\(first.output)")
        }
        let once = try seeds()
        #expect(once.allSatisfy { $0.count == 1 }, "\(once)")
        #expect(Set(once.map(\.first)).count == 3, "each target its own seed: \(once)")

        let again = try HeadlessDemo.mischief(apply, in: directory)
        #expect(again.status == 0, "\(again.error)")
        #expect(try seeds() == once, "the same command, the same seeds")

        let other = try HeadlessDemo.mischief(
            ["apply", "--all-targets", "--seed", "8", "net.request", "50% offline"], in: directory)
        #expect(other.status == 0, "\(other.error)")
        #expect(try seeds().map(\.first) != once.map(\.first), "another seed, other draws")

        let bad = try HeadlessDemo.mischief(["apply", "--seed", "x", "net.request", "off"], in: directory)
        #expect(bad.status == 64, "\(bad.error)")
    }
}
