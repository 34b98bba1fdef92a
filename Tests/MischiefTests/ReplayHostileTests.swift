import Foundation
import Mischief
import Testing

/// One hostile line after a valid recording header: every number a recording holds is range-checked into an error
/// naming the line and the key, and nothing in one traps the replaying target, read from text or built in code.
@Suite(.timeLimit(.minutes(1))) struct ReplayHostileTests {
    /// A valid header line for a target with `test.double`.
    static var header: String {
        let header = Recording.Header(
            target: "t", pid: 1, sessionSeed: 7, started: 1_000,
            seams: [Recording.Header.Seam(id: "test.double", title: "Double", actions: ["return"])])
        return Recording(header: header, entries: []).jsonLines
    }

    /// Each hostile line, and the key its error must name.
    static let hostile: [(line: String, key: String)] = [
        (
            #"{"event":1,"kind":"applied","seam":"test.double","message":"m","time":0,"wall":1e300,"#
                + #""spec":"return(1)","layer":1}"#, "wall"
        ),
        (
            #"{"event":1,"kind":"applied","seam":"test.double","message":"m","time":0,"wall":1000,"call":0,"#
                + #""ttl":1e20,"spec":"return(1)","layer":1}"#, "ttl"
        ),
        (
            #"{"event":1,"kind":"report","seam":"test.double","message":"m","time":0,"wall":1000,"call":0,"ttl":1e20}"#,
            "ttl"
        ),
        (#"{"event":1,"kind":"report","message":"m","time":0,"wall":1000,"advanced":1e16}"#, "advanced"),
        (
            #"{"kind":"decision","seam":"test.double","call":-9223372036854775808,"outcome":"dropped","after":1}"#,
            "call"
        ),
        (
            #"{"event":1,"kind":"applied","seam":"test.double","message":"m","time":-1e300,"wall":1000,"call":-5,"#
                + #""spec":"return(1)","layer":1}"#, "time"
        ),
    ]

    @Test(arguments: 0..<6) func aNumberOutOfRangeIsAnErrorNamingTheLineAndKey(_ index: Int) throws {
        let (line, key) = Self.hostile[index]
        #expect {
            _ = try Recording(jsonLines: Self.header + line + "\n")
        } throws: { error in
            guard let error = error as? RecordingError else { return false }
            return error.line == 2 && error.reason.hasPrefix("\"\(key)\"")
        }
    }

    @Test func aStartOutOfRangeInTheHeaderIsAnErrorAtLine1() throws {
        let text = Self.header.replacingOccurrences(of: "\"started\":1000", with: "\"started\":-1e300")
        #expect(text != Self.header)
        #expect {
            _ = try Recording(jsonLines: text)
        } throws: { error in
            (error as? RecordingError).map { $0.line == 1 && $0.reason.hasPrefix("\"started\"") } ?? false
        }
    }

    /// The same values built in code, bypassing the reader: the schedule refuses them, and a replay diverges.
    @Test func aRecordingBuiltInCodeWithNumbersOutOfRangeDivergesAndNeverTraps() async throws {
        let header = Recording.Header(target: "t", pid: 1, sessionSeed: 7, started: 1_000, seams: [])
        let entries: [Recording.Entry] = [
            .init(event: 1, kind: .applied, seam: "test.double", message: "m", time: 0, wall: 1e300, spec: "return(1)"),
            .init(
                event: 1, kind: .applied, seam: "test.double", message: "m", time: 0, wall: 1_000, call: 0,
                spec: "return(1)", ttl: 1e20),
            .init(event: 1, kind: .report, seam: "test.double", message: "m", time: 0, wall: 1_000, call: 0, ttl: 1e20),
            .init(event: 1, kind: .report, message: "m", time: 0, wall: 1_000, advanced: 1e16),
        ]
        for entry in entries {
            let recording = Recording(header: header, entries: [entry])
            #expect(throws: RecordingError.self) { try ReplaySchedule(recording) }
            let f = try Fixture()
            let outcome = await f.registry.replay(recording, options: ReplayOptions(timeout: .seconds(2)))
            #expect(outcome.divergence?.line == 2, "\(outcome)")
        }
        let decision = Recording.Decision(seam: "test.double", call: .min, layer: nil, outcome: .dropped, value: nil)
        let recording = Recording(header: header, entries: [], decisions: [decision])
        #expect(throws: RecordingError.self) { try ReplaySchedule(recording) }
        let f = try Fixture()
        let outcome = await f.registry.replay(recording, options: ReplayOptions(timeout: .seconds(2)))
        #expect(outcome.divergence != nil, "\(outcome)")
    }

    /// A time to live too long for a `Duration`'s seconds is refused with a message, not a trap.
    @Test func aTTLTooLongForItsMessageIsRefusedWithOne() throws {
        let f = try Fixture()
        #expect(throws: MischiefError.self) { try Registry.check(ttl: .seconds(1e20)) }
        #expect("\(SpecDuration(.seconds(1e20)))" == "\(SpecDuration(nanoseconds: .max))")
        #expect(SpecDuration(.seconds(-1e20)).nanoseconds == .min)
        _ = f
    }

    /// Controls from a recording's spec and source reach no terminal: the dry run and divergences escape them.
    @Test func controlsInASpecAreEscapedInTheScheduleAndDivergences() async throws {
        let header = Recording.Header(target: "t", pid: 1, sessionSeed: 7, started: 1_000, seams: [])
        let entry = Recording.Entry(
            event: 1, kind: .applied, seam: "test.double", source: "a\u{1B}[2Jb\u{7}", message: "m", time: 0,
            wall: 1_000, call: 1, spec: "return(\"\u{1B}]0;owned\u{7}\")\n2")
        let recording = Recording(header: header, entries: [entry])
        let schedule = try ReplaySchedule(recording)
        let dry = schedule.description
        #expect(!dry.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(dry.debugDescription)")
        let f = try Fixture()
        let outcome = await f.registry.replay(recording, options: ReplayOptions(timeout: .seconds(2)))
        let text = try #require(outcome.divergence).description
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(text.debugDescription)")
    }
}
