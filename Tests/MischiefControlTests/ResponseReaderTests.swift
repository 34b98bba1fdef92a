import Foundation
import Testing

@testable import MischiefControl

/// The client's incremental HTTP response reader: the head, then the body as it arrives, chunked or not.
@Suite struct ResponseReaderTests {
    static let payload = Array("event: hello\ndata: {\"café\":1}\n\n: keep-alive\n\n".utf8)

    /// The payload in chunks of 5, 1 and the rest, each with its size line, then the last chunk.
    static let chunked: [UInt8] = {
        var bytes = Array(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for piece in [payload[..<5], payload[5..<6], payload[6...]] {
            bytes += Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + [0x0D, 0x0A]
        }
        return bytes + Array("0\r\n\r\n".utf8)
    }()

    /// Feeds `bytes` cut at `cut`; returns the body and the reader.
    static func read(_ bytes: [UInt8], cutAt cut: Int) throws -> ([UInt8], ResponseReader) {
        var reader = ResponseReader()
        let body = try reader.feed(bytes[..<cut]) + reader.feed(bytes[cut...])
        return (body, reader)
    }

    @Test func aChunkedBodyCutAnywhereComesOutWhole() throws {
        for cut in 0...Self.chunked.count {
            let (body, reader) = try Self.read(Self.chunked, cutAt: cut)
            #expect(body == Self.payload, "cut at \(cut)")
            #expect(reader.status == 200)
            #expect(reader.headers["content-type"] == "text/event-stream")
            #expect(reader.isComplete)
        }
    }

    @Test func bodyBytesComeOutAsSoonAsTheyArrive() throws {
        var reader = ResponseReader()
        let head = Self.chunked.firstRange(of: Array("\r\n\r\n".utf8))!.upperBound
        #expect(try reader.feed(Self.chunked[..<(head - 1)]).isEmpty)
        #expect(reader.status == nil)
        // The head's last byte, the first chunk's size line "5\r\n" and two of its bytes.
        #expect(try reader.feed(Self.chunked[(head - 1)..<(head + 5)]) == Array(Self.payload[..<2]))
        #expect(reader.status == 200)
        #expect(!reader.isComplete)
    }

    @Test func aBodyOfKnownLengthEndsAtItsLength() throws {
        let text = Array("HTTP/1.1 409 Conflict\r\nContent-Length: 4\r\n\r\n{}\n\nextra".utf8)
        for cut in 0...text.count {
            let (body, reader) = try Self.read(text, cutAt: cut)
            #expect(body == Array("{}\n\n".utf8), "cut at \(cut)")
            #expect(reader.status == 409)
            #expect(reader.isComplete)
        }
    }

    @Test func somethingThatIsNotHTTPIsAProtocolError() {
        var reader = ResponseReader()
        #expect(throws: ControlClientError.self) { try reader.feed(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) }
        var badChunk = ResponseReader()
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"
        #expect(throws: ControlClientError.self) { try badChunk.feed(Array(text.utf8)) }
    }
}
