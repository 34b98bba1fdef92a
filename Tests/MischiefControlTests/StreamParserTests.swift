import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// The client's server-sent-events parser: messages come out whole however the bytes are cut.
@Suite struct StreamParserTests {
    static let hello = StreamHello(
        target: TargetHeader(
            name: "café ☕︎", pid: 42, uptime: .milliseconds(1500), sessionSeed: 7,
            wallTime: Date(timeIntervalSince1970: 1_700_000_000), apiVersion: 1, libraryVersion: "0.3.0",
            socket: "/tmp/mc/t.sock"),
        session: "s1")
    static let event = Event(
        id: 3, time: .milliseconds(1500), kind: .applied, seam: "t.count", source: "alice (s1)", message: "return(1)")
    static let counters = [
        SeamUpdate(SeamSnapshot(id: "t.count", title: "Count", category: "Test", behaviour: "return(1)", calls: 4)),
        SeamUpdate(SeamSnapshot(id: "t.name", title: "Name", category: "Test", calls: 2)),
    ]

    /// What a server sends: the three kinds of message, a keep-alive comment and a message from a newer target.
    static let wire: [UInt8] = {
        var bytes: [UInt8] = []
        bytes += EventStreamSource.message(event: "hello", id: nil, hello)
        bytes += Array(": keep-alive\n\n".utf8)
        bytes += EventStreamSource.message(event: "event", id: 3, event)
        bytes += EventStreamSource.message(event: "counters", id: nil, counters)
        bytes += Array("event: shiny\ndata: {\"a\":\ndata: 1}\n\n".utf8)
        return bytes
    }()

    static let expected: [StreamMessage] = [
        .hello(hello), .event(event), .counters(counters), .other("shiny", "{\"a\":\n1}"),
    ]

    @Test func wholeInputGivesEveryMessageInOrder() {
        var parser = StreamParser()
        #expect(parser.feed(Data(Self.wire)) == Self.expected)
        #expect(parser.feed(Data()) == [])
    }

    @Test func aCutAtAnyByteGivesTheSameMessages() {
        for cut in 0...Self.wire.count {
            var parser = StreamParser()
            let messages = parser.feed(Data(Self.wire[..<cut])) + parser.feed(Data(Self.wire[cut...]))
            #expect(messages == Self.expected, "cut at byte \(cut)")
        }
    }

    @Test func oneByteAtATimeGivesTheSameMessages() {
        var parser = StreamParser()
        var messages: [StreamMessage] = []
        for byte in Self.wire { messages += parser.feed(Data([byte])) }
        #expect(messages == Self.expected)
    }

    @Test func chunksOfEverySizeGiveTheSameMessages() {
        for size in [2, 3, 7, 13, 64, 100] {
            var parser = StreamParser()
            var messages: [StreamMessage] = []
            var start = 0
            while start < Self.wire.count {
                let end = min(start + size, Self.wire.count)
                messages += parser.feed(Data(Self.wire[start..<end]))
                start = end
            }
            #expect(messages == Self.expected, "chunks of \(size)")
        }
    }

    @Test func anUnfinishedMessageWaitsForItsBlankLine() {
        var parser = StreamParser()
        let text = Array("event: event\ndata: ".utf8)
        #expect(parser.feed(Data(text)) == [])
        #expect(parser.feed(Data("{}\n".utf8)) == [])
        // A data line that does not decode as the named message is dropped, not mistaken for another.
        #expect(parser.feed(Data("\n".utf8)) == [])
        #expect(parser.feed(Data(EventStreamSource.message(event: "event", id: 3, Self.event))) == [.event(Self.event)])
    }
}
