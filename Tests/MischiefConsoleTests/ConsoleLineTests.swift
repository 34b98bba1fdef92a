import Mischief
import MischiefConsole
import Testing

/// The palette's command lines, spelled as the CLI spells them and as the issue writes them.
@Suite struct ConsoleLineTests {
    func parse(_ line: String) throws -> ConsoleLine { try ConsoleLine(parsing: line) }

    func error(_ line: String) -> String? {
        do throws(ConsoleLine.ParseError) {
            _ = try ConsoleLine(parsing: line)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func applyTakesTheRestOfTheLineAsItsSpecAndATrailingTTLInEitherSpelling() throws {
        #expect(try parse("apply clock.now shift(+3h)") == .apply(seam: "clock.now", spec: "shift(+3h)", ttl: nil))
        let tenMinutes = Duration.seconds(600)
        #expect(
            try parse("apply clock.now shift(+3h) ttl 10m")
                == .apply(seam: "clock.now", spec: "shift(+3h)", ttl: tenMinutes))
        #expect(
            try parse("apply clock.now shift(+3h) --ttl 10m")
                == .apply(seam: "clock.now", spec: "shift(+3h)", ttl: tenMinutes))
        #expect(
            try parse("apply clock.now shift(+3h) --ttl=10m")
                == .apply(seam: "clock.now", spec: "shift(+3h)", ttl: tenMinutes))
        #expect(
            try parse("  apply   net.request   20%respond(status: 503)  ")
                == .apply(seam: "net.request", spec: "20%respond(status: 503)", ttl: nil))
        #expect(try parse("apply clock.now 'shift(+1d)'") == .apply(seam: "clock.now", spec: "shift(+1d)", ttl: nil))
        // `ttl` inside the spec, not at its end, is part of the spec.
        #expect(
            try parse("apply a.b respond(body: \"ttl 5\")")
                == .apply(seam: "a.b", spec: "respond(body: \"ttl 5\")", ttl: nil))
        #expect(error("apply clock.now shift(1d) ttl soon")?.contains("ttl soon") == true)
        #expect(error("apply clock.now")?.contains("apply SEAM SPEC") == true)
    }

    @Test func theOtherCommands() throws {
        #expect(try parse("revert net.request") == .revert("net.request"))
        #expect(try parse("revert all") == .revertAll)
        #expect(try parse("revert --all") == .revertAll)
        #expect(try parse("release net.request") == .release("net.request"))
        #expect(try parse("pause net.request") == .apply(seam: "net.request", spec: "pause", ttl: nil))
        #expect(try parse("reset") == .reset(nil))
        #expect(try parse("reset all") == .reset(nil))
        #expect(try parse("reset clock.now") == .reset("clock.now"))
        #expect(try parse("ttl clock.now 30s") == .timeToLive("clock.now", .seconds(30)))
        #expect(try parse("ttl clock.now off") == .timeToLive("clock.now", nil))
        #expect(try parse("advance 1h") == .advance(.seconds(3_600)))
        #expect(try parse("profile German-length UI on") == .profile("German-length UI", on: true))
        #expect(try parse("profile Tokyo") == .profile("Tokyo", on: nil))
        #expect(try parse("profile Tokyo off") == .profile("Tokyo", on: false))
        #expect(try parse("theme") == .theme(nil))
        #expect(try parse("theme mono") == .theme("mono"))
        #expect(try parse("save recording") == .saveRecording)
        #expect(try parse("save profile My tests") == .saveProfile("My tests"))
        #expect(try parse("help") == .help)
        #expect(try parse("QUIT") == .quit)
    }

    @Test func mistakesAreNamedWithWhatToWrite() {
        #expect(error("")?.contains("type a command") == true)
        #expect(error("revrt clock.now")?.contains("did you mean revert?") == true)
        #expect(error("revert")?.contains("revert SEAM, or revert all") == true)
        #expect(error("revert no seam")?.contains("revert SEAM") == true)
        #expect(error("revert Bad..Id") != nil)
        #expect(error("quit now")?.contains("takes nothing") == true)
        #expect(error("save") != nil)
        #expect(ConsoleLine.startsWithVerb("apply x"))
        #expect(!ConsoleLine.startsWithVerb("shift"))
    }
}
