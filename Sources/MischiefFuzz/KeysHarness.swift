import MischiefConsole

/// The console's key decoder on any bytes: never crashes, never turns a control into a character; and after any
/// input and a pause, unknown sequences yield no key and a known sequence exactly its key.
let keysHarness = FuzzHarness(name: "keys", summary: "key decoder: bytes and escape sequences to keys") { bytes in
    var decoder = KeyInputDecoder()
    var keys: [Key] = []
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    parsing: while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let encoded): decoder.feed(character: Unicode.UTF8.decode(encoded).value) { keys.append($0) }
        case .error: continue
        case .emptyInput: break parsing
        }
    }
    decoder.flush { keys.append($0) }
    fuzzCheck(!decoder.isPending, "pending after a flush")
    fuzzCheck(keys.count <= bytes.count, "\(keys.count) keys from \(bytes.count) bytes")
    for key in keys {
        switch key {
        case .character(let character), .alt(let character):
            fuzzCheck(
                !character.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "a control as a character: \(key)")
        default:
            break
        }
    }
    var after: [Key] = []
    // A stray end of paste, not a start: a start is a paste, whose text no key ends.
    for byte in "\u{1B}[?1;2c\u{1B}[201~\u{1B}Oz\u{1B}[27;5;49~\u{1B}[1$y\u{1B}[1~".utf8 {
        decoder.feed(character: UInt32(byte)) { after.append($0) }
    }
    fuzzCheck(after == [.home], "unknown sequences then Home after the input gave \(after)")
}
