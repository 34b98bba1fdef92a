import Foundation
import Mischief
import MischiefFiles
import Testing

/// YAML aliases count as what they stand for: a small file that expands to a huge one is refused at once, at the
/// line of an alias, instead of keeping the reader busy for minutes (issue #28).
@Suite struct YAMLExpansionTests {
    /// `profiles` profiles that each take the same `guards` list of `guards` conditions through an alias.
    static func sharedGuards(profiles: Int, guards: Int) -> String {
        var lines = ["- name: P0", "  guards: &G"]
        for _ in 0..<guards { lines.append("    - errors(net.request) > 50% over 10s") }
        lines.append("  entries: {}")
        for index in 1..<profiles {
            lines += ["- name: P\(index)", "  guards: *G", "  entries: {}"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aliasesThatExpandPastTheLimitAreRefusedAtAnAlias() throws {
        let text = Self.sharedGuards(profiles: 300, guards: 300)
        #expect(text.utf8.count < 40_000)
        let error = #expect(throws: FileErrors.self) { try ProfileFile.load(text: text, file: "p.yaml") }
        let diagnostic = try #require(error?.errors.first)
        #expect(diagnostic.message.contains("more than 20000 YAML nodes once its aliases are expanded"))
        #expect(diagnostic.location.line > 302, "\(diagnostic.location)")  // at a `guards: *G`, after the anchor
    }

    @Test func aliasesWithinTheLimitStillWork() throws {
        let profiles = try ProfileFile.load(text: Self.sharedGuards(profiles: 3, guards: 2), file: "p.yaml")
        #expect(profiles.map(\.guardTexts.count) == [2, 2, 2])
    }

    @Test func aProfileFileLargerThanTheLimitIsRefusedWithTheLimitNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("yaml-size-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.yaml")
        let comment = "# " + String(repeating: "x", count: 1_000) + "\n"
        try String(repeating: comment, count: 1_100).write(to: file, atomically: true, encoding: .utf8)
        let error = #expect(throws: FileErrors.self) { try ProfileFile.loadDecoded(contentsOf: file) }
        #expect(error?.description.contains("larger than 1 MiB") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["/dev/zero", "/dev/null"])
    func aDeviceIsRefusedAsNotARegularFile(_ path: String) throws {
        let error = #expect(throws: FileErrors.self) {
            try ProfileFile.loadDecoded(contentsOf: URL(fileURLWithPath: path))
        }
        #expect(
            error?.description.contains("it is a device, not a regular file") == true, "\(String(describing: error))")
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(getpid())").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let error = #expect(throws: FileErrors.self) {
            try ProfileFile.loadDecoded(contentsOf: URL(fileURLWithPath: path))
        }
        #expect(error?.description.contains("it is a FIFO, not a regular file") == true, "\(String(describing: error))")
    }
}
