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
