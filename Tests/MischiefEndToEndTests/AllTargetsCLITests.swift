import Foundation
import MischiefTestSupport
import Testing

/// `--all-targets` on `apply`, `revert` and `list` over three live demos in one socket directory, one of which
/// refuses (it may read no file): one row a target, the others changed, and exit 1.
@Suite(.oneAtATime) struct AllTargetsCLITests {
    @Test func applyAndRevertReachEveryTargetAndSayWhichRefused() async throws {
        let directory = try HeadlessDemo.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = directory.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let body = files.appendingPathComponent("ok.json")
        try Data(#"{"ok": true}"#.utf8).write(to: body)
        var demos: [HeadlessDemo] = []
        defer { for demo in demos { demo.kill() } }
        for index in 1...3 {
            let allow = index == 2 ? [] : ["--allow-files", files.path]
            demos.append(
                try await HeadlessDemo.start(
                    in: directory, seed: 20 + index, socketName: nil, arguments: allow))
        }
        let spec = #"respond(file: "\#(body.path)")"#
        let apply = try HeadlessDemo.mischief(["apply", "--all-targets", "net.request", spec], in: directory)
        #expect(apply.status == 1, "\(apply.output)\n\(apply.error)")
        let rows = apply.output.split(separator: "\n").map(String.init)
        #expect(rows.count == 4, "a header and one row a target:\n\(apply.output)")
        for (index, demo) in demos.enumerated() {
            let row = try #require(rows.first { $0.contains("(\(demo.socket))") }, "\(apply.output)")
            #expect(row.hasPrefix("demo ") && row.contains(" \(demo.process.pid) "), "\(row)")
            #expect(row.contains(index == 1 ? "refused  " : "ok       net.request: respond("), "\(row)")
            #expect(try demo.behaviour(of: "net.request") == (index == 1 ? nil : #"respond(file: "\#(body.path)")"#))
        }
        #expect(apply.error.contains("1 of 3 targets refused or did not answer"), "\(apply.error)")

        let named = try HeadlessDemo.mischief(["list", "--all-targets", "--socket", "demo", "--json"], in: directory)
        #expect(named.status == 0, "\(named.error)")
        let listings = try JSONSerialization.jsonObject(with: Data(named.output.utf8)) as? [[String: Any]]
        #expect(listings?.count == 3)

        let revert = try HeadlessDemo.mischief(["revert", "--all-targets", "--all"], in: directory)
        #expect(revert.status == 0, "\(revert.error)")
        #expect(revert.output.split(separator: "\n").filter { $0.contains("ok       reverted") }.count == 3)
        for demo in demos { #expect(try demo.behaviour(of: "net.request") == nil) }

        let none = try HeadlessDemo.mischief(["revert", "--all-targets", "--socket", "nobody", "--all"], in: directory)
        #expect(none.status == 3 && none.error.contains("no target named 'nobody' is serving"), "\(none.error)")
    }
}
