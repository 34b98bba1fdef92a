import ArgumentParser
import Testing

@testable import MischiefCLI

/// `mischief apply` reads the words after the spec as the console's palette does: one grammar for both.
@Suite struct ApplyLineTests {
    func apply(_ arguments: [String]) throws -> (spec: String?, ttl: Duration?) {
        let command = try #require(try MischiefCommand.parseAsRoot(["apply"] + arguments) as? ApplyCommand)
        return try command.resolved()
    }

    @Test func theWordsAfterTheSpecAreMoreOfItOrItsTTL() throws {
        #expect(try apply(["clock.now", "shift(+3h)"]) == ("shift(+3h)", nil))
        #expect(try apply(["clock.now", "shift(+3h)", "--ttl", "10m"]) == ("shift(+3h)", .seconds(600)))
        #expect(try apply(["clock.now", "shift(+3h)", "ttl", "10m"]) == ("shift(+3h)", .seconds(600)))
        // Unquoted, the shell splits a spec at its spaces: the words join again.
        #expect(try apply(["net.request", "20%respond(status:", "503)"]) == ("20%respond(status: 503)", nil))
        #expect(
            try apply(["net.request", "20%respond(status:", "503)", "ttl", "1h"])
                == ("20%respond(status: 503)", .seconds(3_600)))
    }

    @Test func aTTLGivenTwiceOrOutOfRangeIsAUsageError() {
        #expect(throws: (any Error).self) {
            try MischiefCommand.parseAsRoot(["apply", "a.b", "off", "ttl", "1m", "--ttl", "1m"])
        }
        #expect(throws: (any Error).self) { try MischiefCommand.parseAsRoot(["apply", "a.b", "off", "ttl", "2d"]) }
        #expect(throws: (any Error).self) { try MischiefCommand.parseAsRoot(["apply", "a.b", "off", "ttl", "soon"]) }
    }
}
