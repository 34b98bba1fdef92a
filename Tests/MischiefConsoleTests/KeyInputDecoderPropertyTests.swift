import Mischief
import MischiefConsole
import Testing

/// Seeded random streams through ``KeyInputDecoder``: keys, known sequences (with modifiers), unknown CSI and SS3
/// sequences, unfinished sequences, Alt chords and broken UTF-8 must decode to exactly the keys they stand for (an
/// unknown sequence to none); and random bytes never crash it or leak a control as a character.
@Suite struct KeyInputDecoderPropertyTests {
    /// Streams per test.
    static let streams = 20_000

    /// A piece of a stream and the keys it stands for; `pause`: no more input comes in time after it.
    struct Token {
        var bytes: [UInt8]
        var keys: [Key]
        var pause = false
    }

    @Test func tokenStreamsDecodeToTheirKeys() async {
        let failures = await Self.tokenStreamFailures()
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func randomBytesNeverCrashOrLeakControls() async {
        let failures = await Self.randomByteFailures()
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Token streams that do not decode to their keys (at most a few). Yields now and then, so that this CPU-bound
    /// loop does not hold one of the cooperative pool's threads while other tests wait on timers.
    static func tokenStreamFailures() async -> [String] {
        var random = SeededGenerator(seed: 0x6B65_7973)
        var failures: [String] = []
        for stream in 0..<streams where failures.count < 5 {
            if stream % 250 == 0 {
                await Task.yield()
            }
            var decoder = KeyInputDecoder()
            var got: [Key] = []
            var expected: [Key] = []
            var tokens: [Token] = []
            var escapeGivenUp = false
            for _ in 0...random.index(below: 12) {
                var token = token(&random)
                // After an ESC given up on, `[` and `O` begin a sequence (aSequenceSplitAfterItsEscapeIsNotTyped).
                while escapeGivenUp, [[0x5B], [0x4F]].contains(token.bytes) {
                    token = Self.token(&random)
                }
                if token.pause {
                    escapeGivenUp = token.keys == [.escape]
                } else if String(validating: token.bytes, as: UTF8.self) != nil {
                    escapeGivenUp = false  // invalid UTF-8 never reaches the decoder
                }
                tokens.append(token)
                expected += token.keys
                feed(token.bytes, to: &decoder) { got.append($0) }
                if token.pause {
                    decoder.flush { got.append($0) }
                }
            }
            decoder.flush { got.append($0) }
            if got != expected {
                failures.append("stream \(stream): \(tokens.map(\.bytes)) gave \(got), expected \(expected)")
            }
        }
        return failures
    }

    /// Random byte streams that give more keys than bytes or a control as a character (at most a few).
    static func randomByteFailures() async -> [String] {
        var random = SeededGenerator(seed: 0x6279_7465)
        let alphabet: [UInt8] = [0x1B, 0x1B, 0x1B, 0x5B, 0x5B, 0x4F, 0x3B, 0x7E, 0x31, 0x34, 0x3F, 0x24, 0x9B, 0xC2]
        var failures: [String] = []
        for stream in 0..<streams where failures.count < 5 {
            if stream % 250 == 0 {
                await Task.yield()
            }
            let bytes = (0..<random.index(below: 64)).map { _ in
                random.index(below: 2) == 0
                    ? alphabet[random.index(below: alphabet.count)] : UInt8(truncatingIfNeeded: random.next())
            }
            let keys = KeyInputDecoder.keys(in: bytes)
            let leaked = keys.contains { key in
                switch key {
                case .character(let c), .alt(let c):
                    c.unicodeScalars.contains { $0.properties.generalCategory == .control }
                default: false
                }
            }
            if keys.count > bytes.count || leaked {
                failures.append("stream \(stream): \(bytes) gave \(keys)")
            }
        }
        return failures
    }

    /// Feeds UTF-8 bytes (invalid ones dropped) to `decoder`.
    static func feed(_ bytes: [UInt8], to decoder: inout KeyInputDecoder, emit: (Key) -> Void) {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): decoder.feed(character: Unicode.UTF8.decode(encoded).value, emit: emit)
            case .error: continue
            case .emptyInput: return
            }
        }
    }

    /// Final bytes no CSI key sequence ends in (`[` after `ESC [` starts the Linux console's F-keys).
    static let unknownCSIFinals = finals(except: "ABCDHFPQRSZ~[")
    /// Final bytes no SS3 key sequence ends in.
    static let unknownSS3Finals = finals(except: "ABCDHFPQRSMXjklmnopqrstuvwxy")

    /// The final bytes (0x40–0x7E) not in `known`.
    static func finals(except known: String) -> [Character] {
        (0x40...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }.filter { !known.contains($0) }
    }

    /// A random token.
    static func token(_ random: inout SeededGenerator) -> Token {
        func pick<T>(_ items: [T]) -> T { items[random.index(below: items.count)] }
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        func parameters() -> String {
            (0..<random.index(below: 4)).map { _ in String(random.index(below: 300)) }.joined(separator: ";")
        }
        switch random.index(below: 10) {
        case 0, 1:
            let (sequence, key) = pick(KeyInputDecoder.knownSequences)
            let modifier = String(2 + random.index(below: 7))
            if sequence.hasSuffix("~"), random.index(below: 2) == 0 {
                return Token(bytes: bytes(sequence.dropLast() + ";" + modifier + "~"), keys: [key])
            }
            if sequence.utf8.count == 3, sequence.hasPrefix("\u{1B}["), random.index(below: 2) == 0 {
                return Token(bytes: bytes("\u{1B}[1;" + modifier + sequence.suffix(1)), keys: [key])
            }
            return Token(bytes: bytes(sequence), keys: [key])
        case 2:
            // An unknown CSI: a foreign form (private marker, sub-parameter, intermediate) or an unknown final.
            switch random.index(below: 4) {
            case 0: return Token(bytes: bytes("\u{1B}[" + pick(["?", "<", ">", "="]) + parameters() + "A"), keys: [])
            case 1: return Token(bytes: bytes("\u{1B}[1:" + parameters() + "~"), keys: [])
            case 2: return Token(bytes: bytes("\u{1B}[" + parameters() + pick([" ", "$", "!", "\""]) + "H"), keys: [])
            default:
                // Not 200: `ESC [ 200 ~` begins a bracketed paste (KeyInputDecoderPasteTests).
                let tilde = pick([0, 9, 10, 16, 22, 27, 30, 35, 201, 999, 123_456])
                return random.index(below: 2) == 0
                    ? Token(bytes: bytes("\u{1B}[\(tilde)~"), keys: [])
                    : Token(bytes: bytes("\u{1B}[" + parameters() + String(pick(unknownCSIFinals))), keys: [])
            }
        case 3:
            return Token(bytes: bytes("\u{1B}O" + String(pick(unknownSS3Finals))), keys: [])
        case 4:
            let character = Character(Unicode.Scalar(UInt8(0x20 + random.index(below: 0x5F))))
            return Token(bytes: bytes(String(character)), keys: [.character(character)])
        case 5:
            let (text, key): (String, Key) = pick([
                ("\t", .tab), ("\r", .enter), ("\u{7F}", .backspace), ("\u{3}", .control("c")), ("é", .character("é")),
                ("東", .character("東")), ("🌋", .character("🌋")),
            ])
            return Token(bytes: bytes(text), keys: [key])
        case 6:
            let character = pick(Array("1234567890qaz?/é東") + ["\u{7F}", "\u{1}"])
            let alt: [Key] =
                character.isASCII && character.asciiValue! < 0x20 || character == "\u{7F}" ? [] : [.alt(character)]
            return Token(bytes: bytes("\u{1B}" + String(character)), keys: alt)
        case 7:
            return Token(bytes: pick([[0xE6, 0x9D], [0x80], [0xFF], [0xF0, 0x9F, 0x8C], [0xC0, 0xAF]]), keys: [])
        case 8:
            // Unfinished: any proper prefix of a sequence, then a pause.
            let (sequence, _) = pick(KeyInputDecoder.knownSequences)
            let prefix = bytes(sequence).prefix(1 + random.index(below: sequence.utf8.count - 1))
            return Token(bytes: Array(prefix), keys: prefix.count == 1 ? [.escape] : [], pause: true)
        default:
            let prefix = pick([
                "\u{1B}[", "\u{1B}[" + parameters(), "\u{1B}O", "\u{1B}[[", "\u{1B}[?1;", "\u{1B}\u{1B}",
            ])
            return Token(bytes: bytes(prefix), keys: prefix == "\u{1B}\u{1B}" ? [.escape] : [], pause: true)
        }
    }
}
