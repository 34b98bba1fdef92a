import Testing

@testable import MischiefControl

/// Following a chunked body's sizes: over the limit as soon as a size (or the sizes so far) says so, whatever the
/// cut of the reads; data, extensions, the last chunk and trailers never counted as sizes.
@Suite struct ChunkSizesTests {
    static let body = Array(
        "4;name=value\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Trailer: ffffff\r\n\r\n".utf8)

    /// Feeds `parts` one after another; whether all were within the limit, and what was announced.
    static func follow(_ parts: [ArraySlice<UInt8>], limit: Int) -> (within: Bool, announced: Int) {
        var sizes = ChunkSizes(limit: limit)
        var within = true
        for part in parts { within = sizes.feed(part) && within }
        return (within, sizes.announced)
    }

    @Test func aWellFormedBodyWithinTheLimitIsFollowedWhereverItIsCut() {
        for cut in 0...Self.body.count {
            let followed = Self.follow([Self.body[..<cut], Self.body[cut...]], limit: 23)
            #expect(followed.within && followed.announced == 23, "cut at \(cut): \(followed)")
        }
        let byteByByte = Self.follow(Self.body.indices.map { Self.body[$0...$0] }, limit: 23)
        #expect(byteByByte.within && byteByByte.announced == 23)
    }

    @Test func sizesAddingUpPastTheLimitAreOverAtTheDigitThatPassesIt() {
        // The third size line: 4 + 5 + 14 = 23 > 22, said before its data.
        let followed = Self.follow([Self.body[...]], limit: 22)
        #expect(!followed.within)
        #expect(followed.announced == 23)
    }

    @Test func hugeAndOverflowingSizesAreOverAtOnce() {
        for line in ["ffffffffffffffff\r\n", "10000000000000000000000\r\n", "FFFFFFFF", "200000", "100001"] {
            let followed = Self.follow([Array(line.utf8)[...]], limit: 1 << 20)
            #expect(!followed.within, "\(line)")
            #expect(followed.announced <= 16 << 20, "\(line)")
        }
        #expect(Self.follow([Array("100000\r\n".utf8)[...]], limit: 1 << 20).within)
    }

    @Test func whatIsNotChunkedIsLeftToTheDecoder() {
        for text in ["zz\r\n", "\r\n", "4\r\nWikiXX", "-1\r\n"] {
            let followed = Self.follow([Array((text + "ffffffff\r\n").utf8)[...]], limit: 4)
            #expect(followed.within, "\(text)")
        }
    }
}
