import Foundation

/// Reads an HTTP/1.1 response as its bytes arrive: the head, then the body a piece at a time, decoding the
/// `chunked` transfer coding.
///
/// A client that waited for a whole body would never show an endless
/// events stream; the client reads every answer through this, a piece at a time.
struct ResponseReader {
    /// The status code, once the head has arrived.
    private(set) var status: Int?
    /// The head's fields, names in lower case.
    private(set) var headers: [String: String] = [:]
    /// Whether the body has ended (the last chunk, or all of a `Content-Length`).
    private(set) var isComplete = false

    private var buffer: [UInt8] = []
    private var chunked = false
    /// Body bytes still to come: of the current chunk, or of a `Content-Length` body.
    private var remaining: Int?
    private var awaitingCRLF = false

    /// The longest head accepted.
    static let maxHeadBytes = 64 * 1024

    /// Takes the next bytes from the socket and returns the body bytes they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(ControlClientError) -> [UInt8] {
        buffer.append(contentsOf: bytes)
        if status == nil {
            guard let end = buffer.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A]) else {
                guard buffer.count <= Self.maxHeadBytes else { throw .protocolError("the answer's head is too long") }
                return []
            }
            try readHead(buffer[..<end.lowerBound])
            buffer.removeSubrange(..<end.upperBound)
        }
        return chunked ? try dechunk() : take()
    }

    private mutating func readHead(_ head: ArraySlice<UInt8>) throws(ControlClientError) {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.first.map(String.init) ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw .protocolError("not an HTTP answer: \(statusLine.prefix(80))")
        }
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] = value
        }
        chunked = headers["transfer-encoding"]?.lowercased().contains("chunked") == true
        if !chunked, let length = headers["content-length"].flatMap(Int.init) {
            remaining = length
            isComplete = length == 0
        }
        status = code
    }

    /// A body of known length, or one that lasts until the connection closes.
    private mutating func take() -> [UInt8] {
        let count = remaining.map { min($0, buffer.count) } ?? buffer.count
        let out = Array(buffer[..<count])
        buffer.removeFirst(count)
        if let left = remaining {
            remaining = left - count
            isComplete = left - count == 0
        }
        return out
    }

    /// `size CRLF data CRLF`, repeated, until a chunk of size 0 (trailers are not read).
    private mutating func dechunk() throws(ControlClientError) -> [UInt8] {
        var out: [UInt8] = []
        while !isComplete {
            if awaitingCRLF {
                guard buffer.count >= 2 else { break }
                guard buffer[0] == 0x0D, buffer[1] == 0x0A else { throw .protocolError("a chunk does not end in CRLF") }
                buffer.removeFirst(2)
                awaitingCRLF = false
            } else if let left = remaining, left > 0 {
                guard !buffer.isEmpty else { break }
                let count = min(left, buffer.count)
                out += buffer[..<count]
                buffer.removeFirst(count)
                remaining = left - count
                awaitingCRLF = left == count
            } else {
                guard let end = buffer.firstRange(of: [0x0D, 0x0A]) else {
                    guard buffer.count <= 1024 else { throw .protocolError("a chunk size line is too long") }
                    break
                }
                let line = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                let digits = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
                guard let size = Int(digits.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                    throw .protocolError("invalid chunk size '\(line.prefix(20))'")
                }
                buffer.removeSubrange(..<end.upperBound)
                remaining = size
                isComplete = size == 0
            }
        }
        return out
    }
}
