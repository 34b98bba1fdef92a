import Foundation
import Testing

@testable import MischiefCLI

/// Small texts the CLI prints: counts agree with their nouns.
@Suite struct CLITextTests {
    @Test func countsAgreeWithTheirNouns() {
        #expect(counted(1, "chaos call") == "1 chaos call")
        #expect(counted(0, "error") == "0 errors")
        #expect(counted(2, "call") == "2 calls")
    }
}

/// `mischief watch` wraps a long behaviour between words, under its own column.
@Suite struct WatchTableWrapTests {
    @Test func aLongBehaviourWrapsBetweenWords() {
        let behaviour = #"respond(503, url: "weather") + latency(300ms, jitter: 100ms) + bandwidth(64)"#
        let text = WatchTable.wrapped(behaviour, width: 30, indent: 4)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 34 }, "\(lines)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    ") && !$0.hasPrefix("     ") }, "\(lines)")
        // Joined back at the breaks, it is the behaviour: every break fell between words.
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == behaviour)
        #expect(WatchTable.wrapped("offline", width: 30, indent: 4) == "offline")
        #expect(WatchTable.wrapped(behaviour, width: nil, indent: 4) == behaviour)
    }
}
