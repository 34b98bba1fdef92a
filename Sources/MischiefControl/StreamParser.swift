import Foundation
import Mischief

/// Splits server-sent events into messages.
struct StreamParser {
    private var buffer: [UInt8] = []

    mutating func feed(_ data: Data) -> [StreamMessage] {
        buffer.append(contentsOf: data)
        var messages: [StreamMessage] = []
        while let end = Self.blankLine(in: buffer) {
            let block = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
            buffer.removeSubrange(..<end.upperBound)
            if let message = Self.parse(block) { messages.append(message) }
        }
        return messages
    }

    private static func blankLine(in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= 2 else { return nil }
        for index in 0..<(bytes.count - 1) where bytes[index] == 0x0A && bytes[index + 1] == 0x0A {
            return index..<(index + 2)
        }
        return nil
    }

    static func parse(_ block: String) -> StreamMessage? {
        var name = "message"
        var data: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") { continue }
            if line.hasPrefix("event:") { name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("data:") { data.append(String(line.dropFirst(5).drop { $0 == " " })) }
        }
        guard !data.isEmpty else { return nil }
        let json = Data(data.joined(separator: "\n").utf8)
        let decoder = JSONDecoder.control
        switch name {
        case "hello": return (try? decoder.decode(StreamHello.self, from: json)).map(StreamMessage.hello)
        case "event": return (try? decoder.decode(Event.self, from: json)).map(StreamMessage.event)
        case "counters": return (try? decoder.decode([SeamUpdate].self, from: json)).map(StreamMessage.counters)
        case "changes", "delta": return (try? decoder.decode(StreamDelta.self, from: json)).map(StreamMessage.delta)
        default: return .other(name, String(decoding: json, as: UTF8.self))
        }
    }
}
