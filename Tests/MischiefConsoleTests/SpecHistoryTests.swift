import Foundation
import Mischief
import MischiefConsole
import Testing

/// The specs applied before, per seam: bounded, and kept in a file that may be broken.
@Suite struct SpecHistoryTests {
    @Test func boundedPerSeamAndInSeamsWithTheNewestLast() throws {
        var history = SpecHistory()
        for index in 0..<150 { history.add("shift(\(index)s)", for: "clock.now") }
        history.add("shift(10s)", for: "clock.now")  // used again: moves to the end, once
        let specs = history.specs(for: "clock.now")
        #expect(specs.count == SpecHistory.limit)
        #expect(specs.last == "shift(10s)")
        #expect(specs.filter { $0 == "shift(10s)" }.count == 1)
        #expect(specs.first == "shift(51s)")
        for index in 0..<(SpecHistory.seamLimit + 5) { history.add("off", for: try SeamID("s.n\(index)")) }
        #expect(history.order.count == SpecHistory.seamLimit)
        #expect(history.specs(for: "clock.now").isEmpty)  // used longest ago
        history.add("", for: "a.b")
        history.add(String(repeating: "x", count: SpecHistory.specLimit + 1), for: "a.b")
        #expect(history.specs(for: "a.b").isEmpty)
    }

    @Test func keptInTheStateDirectoryAndABrokenFileIsIgnoredWithANote() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spec-history-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = SpecHistoryFile.url(environment: ["XDG_STATE_HOME": directory.path])
        #expect(url.path == directory.path + "/mischief/spec-history.json")
        #expect(SpecHistoryFile.load(from: url) == (SpecHistory(), nil))  // no file yet
        var history = SpecHistory()
        history.add("20%respond(status: 503)", for: "net.request")
        try SpecHistoryFile.save(history, to: url)
        #expect(SpecHistoryFile.load(from: url).history == history)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        for broken in ["{\"specs\": 3", "", "\u{0}\u{1}garbage", "{\"specs\": {\"Bad..Id\": [\"x\"]}, \"order\": []}"] {
            try Data(broken.utf8).write(to: url)
            let (loaded, problem) = SpecHistoryFile.load(from: url)
            if broken.hasPrefix("{\"specs\": {") {
                #expect(loaded == SpecHistory() && problem == nil)  // readable; a seam id that is not one is left out
            } else {
                #expect(loaded == SpecHistory())
                #expect(problem?.contains("cannot be read, so it starts empty") == true)
            }
        }
        // A file edited by hand to hold more than the bounds is cut to them.
        let many = (0..<300).map { "\"shift(\($0)s)\"" }.joined(separator: ",")
        try Data("{\"specs\": {\"clock.now\": [\(many)]}, \"order\": [\"clock.now\"]}".utf8).write(to: url)
        #expect(SpecHistoryFile.load(from: url).history.specs(for: "clock.now").count == SpecHistory.limit)
    }
}
