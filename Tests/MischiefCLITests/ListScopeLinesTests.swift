import Foundation
import Mischief
import Testing

@testable import MischiefCLI

/// `mischief list`'s TESTS: each test with its layers and counts, and the input of each call a pause holds in it (a
/// breakpoint on that test); what the test process sent is written on one line with its controls escaped.
@Suite struct ListScopeLinesTests {
    @Test func aHeldCallsInputIsListedUnderItsTestsSeam() {
        let scope = ScopeSnapshot(
            id: 2, name: "countsPears()", status: .running, started: 1,
            seams: [
                ScopeSeamCounts(
                    seam: "warehouse.stock", calls: 33, held: 1, heldCalls: [HeldCall(input: #""pear""#)])
            ],
            layers: [
                ScopeLayer(
                    id: 1, seam: "warehouse.stock", spec: "pause", source: "console", seed: 3, isActive: true,
                    hasPause: true, call: 33)
            ])
        let lines = ListCommand.scopeLines([scope], uptime: 5)
        #expect(lines.contains("      warehouse.stock: 33 calls, 1 held"), "\(lines)")
        #expect(lines.contains(#"        held "pear""#), "\(lines)")
    }

    @Test func whatTheTestProcessSentCannotMoveTheCursor() {
        let hostile = "evil\u{1B}[2J\u{202E}()\nline two"
        let scope = ScopeSnapshot(
            id: 1, name: hostile, status: .failed, started: 1, ended: 2,
            seams: [
                ScopeSeamCounts(
                    seam: "t.name", calls: 1, held: 1,
                    heldCalls: [HeldCall(input: hostile + String(repeating: "x", count: 300))])
            ],
            layers: [ScopeLayer(id: 1, seam: "t.name", spec: hostile, source: hostile, seed: 1, isActive: true)])
        let lines = ListCommand.scopeLines([scope], uptime: 5)
        let text = lines.joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(lines)")
        #expect(lines.count == 5, "one line each, a line break escaped: \(lines)")
        #expect(lines.allSatisfy { $0.count <= 130 || !$0.contains("held ") }, "\(lines)")
    }
}
