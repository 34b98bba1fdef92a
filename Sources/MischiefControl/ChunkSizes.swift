/// Follows the size lines of a chunked request body as its bytes arrive, and says as soon as the sizes announced add
/// up to more than a limit: a client that announces `ffffffffffffffff` bytes, or 2 MB and then sends a few, is refused
/// at once rather than waited for until the body deadline.
///
/// It only reads sizes (`chunk-size [; ext] CRLF data CRLF`, up to the last chunk); whether the body is well formed is
/// the HTTP decoder's business, so bytes it does not expect make it stop following, never refuse.
///
/// ```swift
/// var sizes = ChunkSizes(limit: 1 << 20)
/// sizes.feed(Array("200000\r\nab".utf8))  // false: 2 MB announced
/// ```
struct ChunkSizes: Sendable {
    private enum State: Sendable {
        /// Reading a size's hex digits (`digits` so far).
        case size(digits: Int)
        /// After the size: extensions or the line's CR, up to its LF.
        case sizeLine
        /// Within a chunk's data, this many bytes left.
        case data(Int)
        /// After a chunk's data: its CRLF.
        case dataEnd
        /// The last chunk was announced (trailers follow), or the bytes stopped making sense: nothing more to follow.
        case done
    }

    let limit: Int
    /// The bytes announced by the size lines read so far (the one being read included).
    var announced: Int { completed + size }
    /// The sizes of the lines read to their end.
    private var completed = 0
    /// The size being read.
    private var size = 0
    private var state = State.size(digits: 0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether what was announced is over the limit.
    var isOver: Bool { announced > limit }

    /// Reads `bytes`; returns false once the sizes announced (or a size being read) exceed the limit.
    @discardableResult
    mutating func feed(_ bytes: some Collection<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index != bytes.endIndex, !isOver {
            switch state {
            case .done:
                return true
            case .data(let left):
                // Skip the data at once rather than byte by byte.
                let available = bytes.distance(from: index, to: bytes.endIndex)
                let taken = min(left, available)
                index = bytes.index(index, offsetBy: taken)
                state = taken == left ? .dataEnd : .data(left - taken)
                continue
            case .size(let digits):
                let byte = bytes[index]
                if let digit = Self.hexValue(byte) {
                    // Checked after every digit, so it cannot overflow: a size over the limit is refused at once,
                    // however many digits follow.
                    size = size * 16 + digit
                    state = .size(digits: digits + 1)
                } else if digits > 0,
                    byte == UInt8(ascii: ";") || byte == UInt8(ascii: " ")
                        || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                {
                    state = .sizeLine
                } else if digits > 0, byte == UInt8(ascii: "\n") {
                    endSizeLine()
                } else {
                    state = .done  // not a size: the decoder answers it
                }
            case .sizeLine:
                if bytes[index] == UInt8(ascii: "\n") { endSizeLine() }
            case .dataEnd:
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    state = .size(digits: 0)
                } else if byte != UInt8(ascii: "\r") {
                    state = .done
                }
            }
            index = bytes.index(after: index)
        }
        return !isOver
    }

    private mutating func endSizeLine() {
        state = size == 0 ? .done : .data(size)
        completed += size
        size = 0
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
